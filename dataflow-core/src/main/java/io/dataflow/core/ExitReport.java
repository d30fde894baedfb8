package io.dataflow.core;

import java.util.List;

/**
 * How a run ended.
 *
 * @param outcome completed, cancelled by an operator, or failed
 * @param component the component that failed or was cancelled ({@code monitor},
 *     {@code source:main}, {@code sink:stdout}, {@code control}, {@code operator}); null when
 *     completed
 * @param reason the primary error's message, or the cancel reason; null when completed
 * @param cause the primary error (cleanup errors are attached as suppressed); may be null
 * @param ticksIn ticks handed to the monitor
 * @param ticksOut tick rows fed to the output
 * @param drain what happened to output still buffered at the end; rows abandoned there make
 *     the outcome {@code FAILED} (component {@code sink}) unless the run had already failed or
 *     been cancelled, so an outcome never claims that lost output was delivered
 * @param monitorRevision the final monitor revision
 * @param interfaceRevision the final interface revision
 * @param warnings warnings raised during the run (a full queue, later failures, ...)
 * @param fatal why a failed run failed and what a restart can do (advice, whether the last
 *     checkpoint stays resumable); null when the run completed or an operator cancelled it
 * @param ticksTotal ticks evaluated since the run began, across resumes: a resumed run counts
 *     the ticks its checkpoint covered once, and {@code ticksIn} only this invocation's
 * @param checkpoint what became of the run's checkpoints
 * @param durableMutation true when the run had started a mutation outside itself that a
 *     restart must not repeat (a durable run's publication); a plain runtime never does
 */
public record ExitReport(Outcome outcome, String component, String reason, Throwable cause,
    long ticksIn, long ticksOut, DrainResult drain, MonitorRevision monitorRevision,
    long interfaceRevision, List<String> warnings, FatalReason fatal, long ticksTotal,
    CheckpointOutcome checkpoint, boolean durableMutation) {

  /** What became of the run's checkpoints when it ended. */
  public enum CheckpointOutcome {
    /** The run wrote no checkpoints. */
    NONE,
    /** The newest checkpoint stays, valid for a restart. */
    KEPT,
    /** The failure made the newest checkpoint untrustworthy: it was renamed aside, not deleted. */
    SET_ASIDE
  }

  /** How the run ended. */
  public enum Outcome {
    /**
     * Every input was evaluated (the end of input, or a graceful stop after draining) and every
     * output row was handed to its destination, which closed in time.
     */
    COMPLETED,
    /** An operator cancelled the run; input not yet evaluated was not. */
    CANCELLED,
    /** A fatal error ended the run. */
    FAILED
  }

  /**
   * What the output drain achieved.
   *
   * @param complete every row was written and the destinations closed in time
   * @param abandonedRows rows given up when the deadline passed
   * @param detail a description of what was abandoned, or null
   */
  public record DrainResult(boolean complete, long abandonedRows, String detail) {
    /** Everything was written. */
    public static final DrainResult COMPLETE = new DrainResult(true, 0, null);
  }

  /** Copies the warnings. */
  public ExitReport {
    warnings = List.copyOf(warnings);
  }

  /** True when the run completed. */
  public boolean isCompleted() {
    return outcome == Outcome.COMPLETED;
  }
}
