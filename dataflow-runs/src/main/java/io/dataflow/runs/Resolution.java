package io.dataflow.runs;

/** What an operator decided about an unresolved run after inspecting the sink. */
public enum Resolution {
  /** The publication is in the sink (found by the idempotency key and the output digest). */
  SUCCEEDED,
  /** The publication is not in the sink: nothing external was created. */
  FAILED
}
