package io.dataflow.bench;

import io.dataflow.core.Row;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.KeyedMonitor;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@code groupsum}: a running sum of {@code val} per key ({@link KeyedMonitor}, issue 16), one
 * event per invocation, keys in a fixed pseudo-random order (so consecutive events rarely share
 * a key and each pays the load and store of its key's state). The keys are {@code Long}s made
 * once. Memory per key: {@link KeyedMemory}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class KeyedMonitorBench {
  /** The specification: per key, the running sum of its values. */
  static final String GROUPSUM = "in val: Int\nout sum: Int\nsum = default(sum[1], 0) + val\n";

  /**
   * Other specifications of one {@code Int} input, run by the same loop: a window of three
   * samples ({@code window3}: history rings deeper than 1) and three outputs with a comparison
   * ({@code three}), to see that what speeds up {@code groupsum} slows nothing else.
   */
  static final java.util.Map<String, String> SPECS = java.util.Map.of(
      "groupsum", GROUPSUM,
      "window3", "in val: Int\nout w: Int = default(val[1], 0) + default(val[2], 0)"
          + " + default(val[3], 0)\n",
      "three", "in val: Int\nout s: Int = default(s[1], 0) + val\n"
          + "out c: Int = default(c[1], 0) + 1\nout m: Bool = s > 10\n");

  /** How many keys the events spread over. */
  @Param({"1000"})
  public int keys;

  /** The specification, by its name in {@link #SPECS}. */
  @Param({"groupsum"})
  public String spec = "groupsum";

  private KeyedMonitor monitor;
  private Long[] order;
  private Row in;
  private Row out;
  private int next;
  private long clock;

  @Setup
  public void setup() {
    monitor = KeyedMonitor.create(DataflowProgram.compile(spec + ".dsrv", SPECS.get(spec)));
    Long[] boxed = new Long[keys];
    for (int i = 0; i < keys; i++) {
      boxed[i] = (long) i;
    }
    // long enough to visit every key (1 << 16 up to 16k keys, as before)
    order = new Long[Math.max(1 << 16, Integer.highestOneBit(keys) << 3)];
    java.util.SplittableRandom r = new java.util.SplittableRandom(16);
    for (int i = 0; i < order.length; i++) {
      order[i] = boxed[r.nextInt(keys)];
    }
    in = monitor.inputs().newRow();
    out = monitor.outputs().newRow();
  }

  /** The keys in the order the benchmark visits them (for {@code KeyedPipelineCpu floor}). */
  Long[] order() {
    return order;
  }

  @Benchmark
  public long groupsum() {
    int i = next++ & (order.length - 1);
    in.setInt(0, i & 7);
    monitor.evaluate(order[i], clock++, in, out);
    return out.bits(0);
  }
}
