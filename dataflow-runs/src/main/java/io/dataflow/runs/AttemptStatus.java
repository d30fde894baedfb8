package io.dataflow.runs;

/**
 * The state of one fenced attempt of a run. An attempt is numbered from 1; its number is its
 * fencing token.
 */
public enum AttemptStatus {
  /** Holds the lease; its writes are accepted while it is the run's newest attempt. */
  RUNNING,
  /** Committed the run's success. */
  SUCCEEDED,
  /** Committed the run's failure. */
  FAILED,
  /**
   * Its lease expired before dispatch (no durable-mutation mark): proven absent, because a newer
   * attempt fences every write it could still try, and closed so the run can be retried.
   */
  RECOVERED,
  /**
   * Dispatch may have started and no conclusive response was recorded (it gave up, or its lease
   * expired after the durable-mutation mark): the run became {@link RunStatus#OUTCOME_UNKNOWN}.
   */
  ABANDONED
}
