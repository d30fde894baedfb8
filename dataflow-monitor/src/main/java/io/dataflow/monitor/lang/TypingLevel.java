package io.dataflow.monitor.lang;

/**
 * How strictly the front end type-checks: the front end's own copy of the API's
 * {@code TypingMode} (the API maps one onto the other), so that the language does not depend on
 * the API.
 */
public enum TypingLevel {
  /** Annotations are ignored; every expression has type {@code Any}. */
  UNTYPED,
  /** Static checks where types are known, run-time checks elsewhere. */
  GRADUAL,
  /** Every stream annotated; no run-time type checks needed. */
  STRICT
}
