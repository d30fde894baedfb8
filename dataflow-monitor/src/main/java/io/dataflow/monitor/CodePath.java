package io.dataflow.monitor;

/**
 * Which code evaluates a monitor's ticks ({@link DataflowMonitor#codePath()}). Both give the
 * same results; only the speed differs, so this is a diagnostic: a monitor expected to run
 * generated code that reports {@link #INTERPRETED} says why in
 * {@link DataflowMonitor#codePathReason()}.
 */
public enum CodePath {
  /** Straight-line code generated for the monitor's program. */
  GENERATED,
  /** The interpreter, for good: the fusion mode says so, or generation refused the program. */
  INTERPRETED,
  /**
   * The interpreter for now: code is generated in the background once the monitor proved
   * long-lived ({@link DataflowMonitor.Fusion#BACKGROUND}) and is switched to at a tick
   * boundary.
   */
  PENDING
}
