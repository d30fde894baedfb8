package io.dataflow.monitor;

/**
 * How strictly a specification is type-checked.
 *
 * <ul>
 *   <li>{@link #UNTYPED}: annotations are ignored; every value is checked only where an
 *       operator uses it.
 *   <li>{@link #GRADUAL} (the default): annotated streams are checked at compile time where the
 *       types are known; a value of unknown type ({@code Any}) is checked when it reaches an
 *       annotated stream or an operator, at run time.
 *   <li>{@link #STRICT}: every stream must be annotated and every expression must have a type
 *       that fits its stream without a run-time check, so a program that compiles never
 *       produces a value of another type.
 * </ul>
 */
public enum TypingMode {
  /** No static types. */
  UNTYPED,
  /** Static checks where types are known, run-time checks elsewhere. */
  GRADUAL,
  /** Every stream annotated; no run-time type checks needed. */
  STRICT
}
