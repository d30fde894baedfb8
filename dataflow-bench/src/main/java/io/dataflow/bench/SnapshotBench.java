package io.dataflow.bench;

import io.dataflow.core.Row;
import io.dataflow.core.snapshot.MonitorSnapshot;
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

/**
 * Snapshot and restore of a monitor (issue 15, docs/snapshots.md), for the {@code counter}
 * workload ({@link Workload}) and for {@code cutover_100}, the 100-stream specification of
 * {@link CutoverBench#spec} (50 counters with a history ring each). The monitor has evaluated
 * {@link #TICKS} ticks first, so every ring is full.
 *
 * <ul>
 *   <li>{@link #snapshot}: {@code DataflowMonitor.snapshot()} + {@code toBytes()}.
 *   <li>{@link #restore}: {@code MonitorSnapshot.fromBytes} + {@code DataflowMonitor.restore}
 *       of the bytes taken in setup.
 *   <li>{@link #roundTrip}: both, snapshot to bytes to restored monitor.
 * </ul>
 *
 * <p>The snapshot's size in bytes is printed once per trial in setup
 * ({@code snapshot size: workload=... bytes=...}, in the JMH log).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class SnapshotBench {
  /** Ticks evaluated before the snapshots are taken. */
  static final int TICKS = 64;

  /** {@code counter} or {@code cutover_100}. */
  @Param({"counter", "cutover_100"})
  public String workload;

  private DataflowProgram program;
  private DataflowMonitor monitor;
  private byte[] bytes;

  /** The specification text of a workload of this benchmark. */
  static String spec(String workload) {
    if (workload.equals("cutover_100")) {
      return CutoverBench.spec(100, 0);
    }
    return Workload.named(workload).spec;
  }

  /** A monitor of {@code program} that has evaluated {@link #TICKS} ticks of {@code x}. */
  static DataflowMonitor run(DataflowProgram program) {
    DataflowMonitor m = DataflowMonitor.create(program);
    Row in = m.inputs().newRow();
    Row out = m.outputs().newRow();
    for (int i = 0; i < TICKS; i++) {
      in.setInt(0, Inputs.X[i]);
      m.evaluate(in, out);
    }
    return m;
  }

  /** Compiles the workload, runs it and takes the snapshot that {@link #restore} reads. */
  @Setup
  public void setUp() {
    program = DataflowProgram.compile(workload + ".dsrv", spec(workload));
    monitor = run(program);
    bytes = monitor.snapshot().toBytes();
    System.out.println("snapshot size: workload=" + workload + " bytes=" + bytes.length);
  }

  /** Snapshot and encode. */
  @Benchmark
  public byte[] snapshot() {
    return monitor.snapshot().toBytes();
  }

  /** Decode and restore. */
  @Benchmark
  public DataflowMonitor restore() {
    return DataflowMonitor.restore(program, MonitorSnapshot.fromBytes(bytes)).monitor();
  }

  /** Snapshot, encode, decode and restore. */
  @Benchmark
  public DataflowMonitor roundTrip() {
    byte[] b = monitor.snapshot().toBytes();
    return DataflowMonitor.restore(program, MonitorSnapshot.fromBytes(b)).monitor();
  }

  /** Fails the run if the restored monitor does not continue where the original stands. */
  @TearDown
  public void check() {
    DataflowMonitor restored = restore();
    Row in = monitor.inputs().newRow();
    in.setInt(0, 7);
    Row a = monitor.outputs().newRow();
    Row b = restored.outputs().newRow();
    monitor.evaluate(in, a);
    restored.evaluate(in, b);
    for (int k = 0; k < a.width(); k++) {
      if (a.kind(k) != b.kind(k) || a.bits(k) != b.bits(k)) {
        throw new IllegalStateException("restored output " + k + " differs");
      }
    }
  }
}
