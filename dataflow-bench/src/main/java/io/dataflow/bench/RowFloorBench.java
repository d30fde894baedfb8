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
 * The row traffic of the monitor API (the {@code row} path): what an implementation of
 * {@code evaluate(Row, Row)} pays besides its computation. One op fills the input row as the
 * monitor path does, reads every input slot (kind, payload, reference), runs the workload's
 * {@link Baseline}, writes the result into the output row and consumes it. The monitor path
 * minus this one is about the monitor's own cost.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class RowFloorBench {
  /** The workload ({@link Workload#NAMES}). */
  @Param({"simple_add", "counter", "threshold", "window3", "arith", "chain32", "defer",
      "dynamic"})
  public String workload;

  private Workload w;
  private Baseline baseline;
  private Row in;
  private Row out;
  private int inputs;
  private byte outputKind;
  private int i;

  /** Makes the rows (of the monitor's layouts) and learns the output's kind from the monitor. */
  @Setup
  public void setUp() {
    w = Workload.named(workload);
    DataflowMonitor monitor = DataflowMonitor.create(DataflowProgram.compile(workload + ".dsrv",
        w.spec));
    in = monitor.inputs().newRow();
    out = monitor.outputs().newRow();
    int primed = w.prime(monitor, in, out);
    w.fill(in, primed & Inputs.MASK);
    monitor.evaluate(in, out);
    outputKind = out.kind(0);
    baseline = w.baseline();
    inputs = w.shape.size();
  }

  /** One tick's row traffic around the baseline's computation. */
  @Benchmark
  public void row(Blackhole bh) {
    int k = i++ & Inputs.MASK;
    w.fill(in, k);
    long seen = 0;
    for (int s = 0; s < inputs; s++) {
      seen += in.kind(s) + in.bits(s);
      if (in.ref(s) != null) {
        seen++;
      }
    }
    out.setRaw(0, outputKind, baseline.step(k), null);
    bh.consume(out.bits(0) ^ seen);
  }
}
