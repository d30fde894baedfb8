package io.dataflow.core;

/**
 * The lifecycle of a runtime. Transitions only move forward:
 * {@code NEW -> RUNNING -> DRAINING -> CLOSING -> TERMINATED}; a run may skip
 * {@code DRAINING} (cancel, fatal error) but never returns to an earlier state.
 */
public enum RuntimeState {
  /** Built, not started. */
  NEW,
  /** Evaluating input. */
  RUNNING,
  /** No new input is admitted; admitted input is being evaluated. */
  DRAINING,
  /** Output is being flushed and closed. */
  CLOSING,
  /** Finished; the exit report is final. */
  TERMINATED
}
