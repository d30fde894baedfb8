package io.dataflow.runs;

/**
 * The state of a durable run in the ledger (the drawing is in docs/durable-runs.md#states).
 *
 * <pre>
 *             start                    terminal commit (verified checkpoint)
 *   (none) ----------&gt; RUNNING ------------------------------------------&gt; SUCCEEDED
 *                       |  ^  \-- error before dispatch, rejection, bad chain -&gt; FAILED
 *   lease expired,      |  |   \
 *   no dispatch mark    v  |    \-- dispatch started, no conclusive response --&gt; OUTCOME_UNKNOWN
 *                     PENDING   (also: lease expired after the dispatch mark)        |
 *                  (next attempt on                                                  | resolve
 *                   replay of the key)                          SUCCEEDED / FAILED &lt;--/
 * </pre>
 *
 * <p>{@link #SUCCEEDED}, {@link #FAILED} and {@link #OUTCOME_UNKNOWN} are final for automatic
 * processing: a replay of the idempotency key returns the run as it is. Only an operator's
 * {@link DurableRuns#resolve resolve} moves an {@link #OUTCOME_UNKNOWN} run on, and it records
 * the evidence.
 */
public enum RunStatus {
  /**
   * Recorded, no attempt running: its last attempt expired before dispatch and was closed as
   * {@link AttemptStatus#RECOVERED}; the next start or replay of its key runs a new attempt.
   */
  PENDING,
  /** An attempt holds the lease (or held it: an expired one is closed by the next look). */
  RUNNING,
  /** The terminal projection and the verified checkpoint committed (or an operator said so). */
  SUCCEEDED,
  /**
   * Ended without a publication: an error in evaluation, a target without the publication
   * capability, a conclusive rejection, a failed evidence chain before dispatch (or an
   * operator said so after inspecting the sink).
   */
  FAILED,
  /**
   * Dispatch may have started and no conclusive response was recorded: the sink must be
   * inspected with the idempotency key and the recorded output digest. Never retried
   * automatically; an operator resolves it.
   */
  OUTCOME_UNKNOWN;

  /** True for {@link #SUCCEEDED} and {@link #FAILED}: nothing more will happen to the run. */
  public boolean isTerminal() {
    return this == SUCCEEDED || this == FAILED;
  }

  /** True for {@link #OUTCOME_UNKNOWN}: the run waits for an operator. */
  public boolean isUnresolved() {
    return this == OUTCOME_UNKNOWN;
  }
}
