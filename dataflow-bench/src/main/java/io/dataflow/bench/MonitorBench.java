package io.dataflow.bench;

import io.dataflow.core.Row;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The monitor API: one op is one tick through {@code DataflowMonitor.evaluate(Row, Row)} with
 * reused rows; the inputs change every tick ({@link Inputs}) and the output is consumed.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class MonitorBench {
  /** The workload ({@link Workload#NAMES}). */
  @Param({"simple_add", "counter", "threshold", "window3", "arith", "chain32", "defer",
      "dynamic"})
  public String workload;

  private Workload w;
  private DataflowMonitor monitor;
  private Row in;
  private Row out;
  private int i;

  /** Compiles the workload and evaluates its priming ticks. */
  @Setup
  public void setUp() {
    w = Workload.named(workload);
    monitor = DataflowMonitor.create(DataflowProgram.compile(workload + ".dsrv", w.spec));
    if (!monitor.inputs().names().subList(0, w.shape.size()).equals(w.shape.names())) {
      throw new IllegalStateException("input layout " + monitor.inputs() + " is not "
          + w.shape);
    }
    in = monitor.inputs().newRow();
    out = monitor.outputs().newRow();
    i = w.prime(monitor, in, out);
  }

  /** One tick. */
  @Benchmark
  public void monitor(Blackhole bh) {
    int k = i++ & Inputs.MASK;
    w.fill(in, k);
    monitor.evaluate(in, out);
    bh.consume(out.bits(0));
  }

  /** Fails the run if the monitor failed (a benchmark of a broken tick path means nothing). */
  @TearDown
  public void tearDown() {
    if (monitor.failure() != null) {
      throw monitor.failure();
    }
  }
}
