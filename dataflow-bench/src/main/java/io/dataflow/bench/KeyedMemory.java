package io.dataflow.bench;

import io.dataflow.core.Row;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.KeyedMonitor;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Resident bytes per key of a {@link KeyedMonitor} (issue 16): heap used after GC before and
 * after one tick of each of {@code N} keys (default 1,000,000) of the counter specification,
 * divided by N. The keys ({@code Long}s) are made before the first measurement, so the number
 * is what the keyed monitor holds (its map and each key's state); the keys' own size is printed
 * too. Run: {@code java -cp dataflow-bench/target/benchmarks.jar io.dataflow.bench.KeyedMemory
 * [N]}, with a heap large enough for the keys and their state.
 */
public final class KeyedMemory {
  private KeyedMemory() {}

  /** The counter specification. */
  static final String COUNTER = "in x: Int\nout z: Int\nz = default(z[1], 0) + x\n";

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    KeyedMonitor monitor = KeyedMonitor.create(DataflowProgram.compile("counter.dsrv", COUNTER));
    Row in = monitor.inputs().newRow();
    Row out = monitor.outputs().newRow();
    long beforeKeys = usedAfterGc();
    Long[] keys = new Long[n];
    for (int i = 0; i < n; i++) {
      keys[i] = (long) i + 1_000; // not from the Long cache
    }
    long before = usedAfterGc();
    for (int i = 0; i < n; i++) {
      in.setInt(0, i);
      monitor.evaluate(keys[i], i, in, out);
    }
    long after = usedAfterGc();
    System.out.printf("keys=%d state bytes/key=%.1f key objects bytes/key=%.1f%n", n,
        (after - before) / (double) n, (before - beforeKeys) / (double) n);
    if (monitor.size() != n || keys.length != n) {
      throw new AssertionError("keys lost");
    }
  }

  private static long usedAfterGc() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return memory.getHeapMemoryUsage().getUsed();
  }
}
