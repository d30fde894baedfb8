package io.dataflow.bench;

import io.dataflow.core.snapshot.MonitorSnapshot;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * {@link SnapshotBench}'s operations outside JMH, timed by this thread's CPU time: on a machine
 * shared with other work the best of many batches is the steadiest measure of what one
 * operation costs (the loop issue 15's passes compare; docs/performance.md, "Snapshots").
 * Usage: {@code SnapshotCpu WORKLOAD PHASE [batches] [ops]} with {@code WORKLOAD} one of
 * {@code counter} or {@code cutover_100} and {@code PHASE} one of {@code snapshot}
 * ({@code snapshot().toBytes()}), {@code fromBytes}, {@code load} (the restore of a snapshot
 * decoded before the loop), {@code create} ({@code DataflowMonitor.create}), {@code restore}
 * (decoding and restore, the benchmark's) and {@code roundtrip} (the three, the benchmark's);
 * defaults 30 batches of 20000 operations for {@code counter}, 150 of 200 for
 * {@code cutover_100}. Prints the best batch's CPU time per operation, the bytes the last batch
 * allocated per operation and the load average.
 */
public final class SnapshotCpu {
  private SnapshotCpu() {}

  /** Read by nobody: keeps each operation's result alive. */
  static Object sink;

  /** Runs the phase and prints one line. */
  public static void main(String[] args) {
    String workload = args.length > 0 ? args[0] : "counter";
    String phase = args.length > 1 ? args[1] : "roundtrip";
    boolean small = workload.equals("counter");
    int batches = args.length > 2 ? Integer.parseInt(args[2]) : small ? 30 : 150;
    int ops = args.length > 3 ? Integer.parseInt(args[3]) : small ? 20000 : 200;
    DataflowProgram program = DataflowProgram.compile(workload + ".dsrv",
        SnapshotBench.spec(workload));
    DataflowMonitor m = SnapshotBench.run(program);
    byte[] bytes = m.snapshot().toBytes();
    MonitorSnapshot decoded = MonitorSnapshot.fromBytes(bytes);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    com.sun.management.ThreadMXBean allocation =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long best = Long.MAX_VALUE;
    long bytes0 = 0;
    for (int b = 0; b < batches; b++) {
      if (b == batches - 1) {
        bytes0 = allocation.getThreadAllocatedBytes(Thread.currentThread().getId());
      }
      long t0 = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < ops; i++) {
        sink = switch (phase) {
          case "snapshot" -> m.snapshot().toBytes();
          case "fromBytes" -> MonitorSnapshot.fromBytes(bytes);
          case "load" -> DataflowMonitor.restore(program, decoded).monitor();
          case "create" -> DataflowMonitor.create(program);
          case "restore" -> DataflowMonitor.restore(program, MonitorSnapshot.fromBytes(bytes))
              .monitor();
          case "roundtrip" -> DataflowMonitor.restore(program,
              MonitorSnapshot.fromBytes(m.snapshot().toBytes())).monitor();
          default -> throw new IllegalArgumentException("unknown phase " + phase);
        };
      }
      best = Math.min(best, threads.getCurrentThreadCpuTime() - t0);
    }
    long allocated = allocation.getThreadAllocatedBytes(Thread.currentThread().getId()) - bytes0;
    System.out.printf("%s %s %.1f ns/op (best of %d batches of %d), %.0f B/op, load %.2f%n",
        workload, phase, best / (double) ops, batches, ops, allocated / (double) ops,
        ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }
}
