package io.dataflow.monitor;

/**
 * One tick of one monitor as straight-line code generated for that monitor
 * ({@link FusedCompiler}): read the inputs, evaluate the computed streams in order, commit,
 * write the outputs.
 *
 * <p>Thread-safety: owner thread only.
 */
interface FusedStreams {
  /** Evaluates one tick from {@code in} into {@code out} (the tick counter is the caller's). */
  void run(io.dataflow.core.Row in, io.dataflow.core.Row out);

  /**
   * Evaluates one tick from the values staged in the monitor's {@link MonitorInput}s; the
   * outputs stay in their cells ({@link MonitorOutput} reads them).
   */
  void step();

  /** A dynamic property's body as generated code: computes the body into its root's slot. */
  interface Body {
    /** Evaluates the body once. */
    void run();
  }
}
