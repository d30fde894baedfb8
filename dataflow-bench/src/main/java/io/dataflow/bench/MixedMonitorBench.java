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
import org.openjdk.jmh.infra.Blackhole;

/**
 * {@link MonitorBench} in a JVM that has run every workload first, as a service running several
 * specifications would: the monitor's call sites ({@code root.eval()}, an operator's
 * {@code left.eval()}, {@code compute}) have then seen many node classes, so the JIT can no
 * longer inline them. One fork per workload measures one specification with clean type
 * profiles; this path shows what those profiles were worth (path {@code monitor-mixed}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class MixedMonitorBench {
  private static final int TICKS_PER_WORKLOAD = 100_000;

  /** The workload ({@link Workload#NAMES}). */
  @Param({"simple_add", "counter", "threshold", "window3", "arith", "chain32", "defer",
      "dynamic"})
  public String workload;

  private Workload w;
  private DataflowMonitor monitor;
  private Row in;
  private Row out;
  private int i;
  /** The warm-up's outputs, kept so the JIT cannot drop the warm-up. */
  long warmUpChecksum;

  /** Runs every workload for a while, then prepares the measured one as MonitorBench does. */
  @Setup
  public void setUp() {
    long sink = 0;
    for (String name : Workload.NAMES) {
      Workload other = Workload.named(name);
      DataflowMonitor m = DataflowMonitor.create(DataflowProgram.compile(name, other.spec));
      Row r = m.inputs().newRow();
      Row o = m.outputs().newRow();
      for (int k = other.prime(m, r, o); k < TICKS_PER_WORKLOAD; k++) {
        other.fill(r, k & Inputs.MASK);
        m.evaluate(r, o);
        sink += o.bits(0);
      }
    }
    w = Workload.named(workload);
    monitor = DataflowMonitor.create(DataflowProgram.compile(workload + ".dsrv", w.spec));
    in = monitor.inputs().newRow();
    out = monitor.outputs().newRow();
    i = w.prime(monitor, in, out);
    warmUpChecksum = sink;
  }

  /** One tick. */
  @Benchmark
  public void monitor(Blackhole bh) {
    int k = i++ & Inputs.MASK;
    w.fill(in, k);
    monitor.evaluate(in, out);
    bh.consume(out.bits(0));
  }
}
