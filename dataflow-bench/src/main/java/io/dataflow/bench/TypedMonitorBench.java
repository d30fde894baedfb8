package io.dataflow.bench;

import io.dataflow.core.Row;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.MonitorInput;
import io.dataflow.monitor.MonitorOutput;
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
 * The monitor's typed API (the {@code typed} path): one op stages tick {@code i}'s inputs in
 * the monitor's {@link MonitorInput} handles, runs {@link DataflowMonitor#step()} and consumes
 * the output through its {@link MonitorOutput}, as a caller that knows its inputs' types does.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class TypedMonitorBench {
  /** The workload ({@link Workload#NAMES}). */
  @Param({"simple_add", "counter", "threshold", "window3", "arith", "chain32", "defer",
      "dynamic"})
  public String workload;

  private Workload w;
  private DataflowMonitor monitor;
  private MonitorInput[] in;
  private MonitorOutput out;
  private int i;

  /** Compiles the workload, takes its handles and evaluates its priming ticks. */
  @Setup
  public void setUp() {
    w = Workload.named(workload);
    monitor = DataflowMonitor.create(DataflowProgram.compile(workload + ".dsrv", w.spec));
    in = w.shape.names().stream().map(monitor::input).toArray(MonitorInput[]::new);
    out = monitor.output(monitor.outputs().name(0));
    Row inRow = monitor.inputs().newRow();
    Row outRow = monitor.outputs().newRow();
    i = w.prime(monitor, inRow, outRow);
  }

  /** One tick. */
  @Benchmark
  public void typed(Blackhole bh) {
    w.stage(in, i++ & Inputs.MASK);
    monitor.step();
    bh.consume(out.bits());
  }

  /** Fails the run if the monitor failed (a benchmark of a broken tick path means nothing). */
  @TearDown
  public void tearDown() {
    if (monitor.failure() != null) {
      throw monitor.failure();
    }
  }
}
