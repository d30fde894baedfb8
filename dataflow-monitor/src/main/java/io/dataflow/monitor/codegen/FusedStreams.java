package io.dataflow.monitor.codegen;

/**
 * One tick of one monitor as straight-line code generated for that monitor
 * ({@link FusedCompiler}): read the inputs, evaluate the computed streams in order, commit,
 * write the outputs. The monitor's interpreter stands behind the same interface until the code
 * exists (or for good).
 *
 * <p>Thread-safety: owner thread only.
 */
public interface FusedStreams {
  /** Evaluates one tick from {@code in} into {@code out} (the tick counter is the caller's). */
  void run(io.dataflow.core.Row in, io.dataflow.core.Row out);

  /**
   * Evaluates one tick from the values staged for the monitor's inputs
   * ({@link io.dataflow.monitor.eval.Evaluator#staged()}); the outputs stay in their cells.
   */
  void step();

  /**
   * Evaluates ticks {@code from} to {@code to - 1} of a batch in columns as one loop, with the
   * streams' state in locals, and returns the first tick it did not evaluate: {@code to}, or
   * earlier when a tick needs the per-tick path (a value of another kind than the loop expects),
   * with the state written back as of the tick before it, or where the loop stopped for the
   * dense loop to take over. Programs the loop does not cover return {@code from} at once; a
   * program with only the dense loop returns {@code ~until} (negative) for a batch that is not
   * dense: the ticks before {@code until} go one by one, then the rest is offered again.
   */
  int batch(io.dataflow.core.TickColumns in, io.dataflow.core.TickColumns out, int from, int to);
}
