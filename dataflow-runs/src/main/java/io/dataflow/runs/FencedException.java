package io.dataflow.runs;

/**
 * A stale attempt tried to write: a newer attempt of the run exists, or this attempt was closed
 * (recovered or abandoned) by someone who saw its lease expire. The transaction that carried
 * the stale fencing token was rolled back, so the ledger holds only the newer attempt's work.
 * Nothing is lost: in atomic mode the work is recomputed under the newer attempt.
 */
public class FencedException extends RunException {
  private static final long serialVersionUID = 1L;

  private final String runId;
  private final int attempt;
  private final int currentAttempt;

  /**
   * A fenced write.
   *
   * @param runId the run
   * @param attempt the stale attempt's number (its token)
   * @param currentAttempt the run's newest attempt number when the write was refused
   * @param why what the ledger found
   */
  public FencedException(String runId, int attempt, int currentAttempt, String why) {
    super("run " + runId + ": attempt " + attempt + " is fenced (" + why + ")");
    this.runId = runId;
    this.attempt = attempt;
    this.currentAttempt = currentAttempt;
  }

  /** The run. */
  public String runId() {
    return runId;
  }

  /** The stale attempt's number. */
  public int attempt() {
    return attempt;
  }

  /** The run's newest attempt number when the write was refused. */
  public int currentAttempt() {
    return currentAttempt;
  }
}
