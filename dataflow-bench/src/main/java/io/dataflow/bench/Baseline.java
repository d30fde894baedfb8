package io.dataflow.bench;

/**
 * A hand-written computation of one workload's output with plain fields: the practical limit
 * the monitor is compared against. It uses the language's checked Int arithmetic
 * ({@code Math.addExact} and friends), so it computes exactly what the specification does for
 * every input the benchmarks feed.
 *
 * <p>Thread-safety: owner thread only (it keeps the workload's state in fields).
 */
interface Baseline {
  /**
   * Evaluates tick {@code i} (an index into {@link Inputs}) and returns the output's payload
   * bits as a {@link io.dataflow.core.Row} would hold them (an Int, a Float's raw bits, 0/1).
   */
  long step(int i);
}
