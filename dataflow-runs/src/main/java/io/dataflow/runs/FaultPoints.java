package io.dataflow.runs;

/**
 * A seam an attempt calls at each {@link FaultPoint}, for crash tests: the command line halts
 * the process at the point named by {@code DATAFLOW_FAULT} ({@code Runtime.halt}); an in-process
 * test throws, or changes the ledger to check what the next step does.
 *
 * <p>Thread-safety: called from the thread running the attempt, with no ledger transaction
 * open. Whatever the hook throws (an exception or an error) abandons the attempt at once: the
 * attempt writes nothing more and the throwable reaches the caller of
 * {@link DurableRuns#start}, so the ledger is left exactly as a crash at that point would leave
 * it (the lease then expires on the {@code Clock}).
 */
@FunctionalInterface
public interface FaultPoints {
  /** No faults: what a production run uses. */
  FaultPoints NONE = (point, runId, attempt) -> {};

  /**
   * Called when an attempt reaches {@code point}.
   *
   * @param point where the attempt is
   * @param runId the run's id
   * @param attempt the attempt's number (its fencing token)
   */
  void reached(FaultPoint point, String runId, int attempt);

  /**
   * A hook that halts the Java process at once, with {@code status}, when an attempt reaches
   * {@code point}: no shutdown hook and no finally block runs, as in a crash.
   */
  static FaultPoints haltAt(FaultPoint point, int status) {
    return (p, runId, attempt) -> {
      if (p == point) {
        Runtime.getRuntime().halt(status);
      }
    };
  }
}
