package io.dataflow.bench;

import io.dataflow.core.Row;
import io.dataflow.core.TickColumns;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The monitor's batch entry point (the {@code columns} path): one op fills a batch of
 * {@value #BATCH} ticks in columns (in bulk, through the column arrays, where the workload's
 * inputs allow), evaluates it with
 * {@link DataflowMonitor#evaluate(TickColumns, TickColumns)} and reads every tick's output;
 * reported per tick. Specifications of typed scalar operators, history reads and
 * {@code default} run as one generated loop (the dense variant: every input is present); the
 * others tick by tick.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class ColumnsMonitorBench {
  static final int BATCH = 256;

  /** The workload ({@link Workload#NAMES}). */
  @Param({"simple_add", "counter", "threshold", "window3", "arith", "chain32", "defer",
      "dynamic"})
  public String workload;

  private Workload w;
  private DataflowMonitor monitor;
  private TickColumns in;
  private TickColumns out;
  private int i;

  /** Compiles the workload and evaluates its priming ticks. */
  @Setup
  public void setUp() {
    w = Workload.named(workload);
    monitor = DataflowMonitor.create(DataflowProgram.compile(workload + ".dsrv", w.spec));
    in = monitor.inputs().newColumns(BATCH);
    out = monitor.outputs().newColumns(BATCH);
    Row inRow = monitor.inputs().newRow();
    Row outRow = monitor.outputs().newRow();
    i = w.prime(monitor, inRow, outRow);
  }

  /** One batch; the time is divided by its ticks. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void columns(Blackhole bh) {
    w.fillBatch(in, i, BATCH);
    i += BATCH;
    in.setSize(BATCH);
    monitor.evaluate(in, out);
    long[] z = out.payloads(0);
    long sum = 0;
    for (int t = 0; t < BATCH; t++) {
      sum += z[t];
    }
    bh.consume(sum);
  }

  /** Fails the run if the monitor failed (a benchmark of a broken tick path means nothing). */
  @TearDown
  public void tearDown() {
    if (monitor.failure() != null) {
      throw monitor.failure();
    }
  }
}
