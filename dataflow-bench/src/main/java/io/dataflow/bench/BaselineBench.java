package io.dataflow.bench;

import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The hand-written baselines ({@link Baseline}): one op is one tick over the same inputs as
 * every other path; the output is consumed through the {@link Blackhole}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class BaselineBench {
  /** The workload ({@link Workload#NAMES}). */
  @Param({"simple_add", "counter", "threshold", "window3", "arith", "chain32", "defer",
      "dynamic"})
  public String workload;

  private Baseline baseline;
  private int i;

  /** Makes the baseline. */
  @Setup
  public void setUp() {
    baseline = Workload.named(workload).baseline();
  }

  /** One tick. */
  @Benchmark
  public void baseline(Blackhole bh) {
    bh.consume(baseline.step(i++ & Inputs.MASK));
  }
}
