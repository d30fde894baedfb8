package io.dataflow.monitor;

/**
 * The computed streams of one monitor, evaluated in order by a class generated for that
 * monitor ({@link FusedCompiler}).
 *
 * <p>Thread-safety: owner thread only.
 */
interface FusedStreams {
  /** Evaluates every computed stream of one tick, in evaluation order. */
  void run();
}
