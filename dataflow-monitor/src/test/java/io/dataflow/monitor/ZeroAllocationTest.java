package io.dataflow.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Row;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * Steady-state evaluation of a scalar specification allocates nothing
 * (docs/performance.md#zero-allocation; issue 7). Not a timing test: it counts the bytes the
 * calling thread allocates, using the JVM's per-thread allocation counter, over {@value #MEASURED}
 * ticks after {@value #WARM_UP} warm-up ticks (enough for the JIT to compile the tick path, so what
 * is measured is the compiled steady state, not the interpreter).
 *
 * <p>The inputs vary per tick (read from a precomputed array) and every output is folded into a
 * checksum that is asserted, so the work cannot be skipped.
 *
 * <p>Reading the counter does not allocate ({@code getThreadAllocatedBytes(long)} for the current
 * thread reads a field of the VM thread); {@link #counterOverhead()} measures two back-to-back
 * reads and the assertions subtract that, so the tolerance is exactly what the measurement itself
 * costs, which is 0 bytes on JDK 17 and 25.
 */
class ZeroAllocationTest {
  private static final int WARM_UP = 200_000;
  private static final int MEASURED = 100_000;
  private static final int ROUNDS = 20;
  private static final int MASK = 1023;
  private static final long[] X = new long[MASK + 1];
  private static final long[] Y = new long[MASK + 1];
  private static final double[] F = new double[MASK + 1];

  static {
    java.util.Random r = new java.util.Random(42);
    for (int i = 0; i <= MASK; i++) {
      X[i] = r.nextInt(1024);
      Y[i] = r.nextInt(1024);
      F[i] = r.nextInt(600) / 100.0;
    }
  }

  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  @SuppressWarnings("deprecation") // Thread.getId(): threadId() exists only from JDK 19
  private static long allocatedBytes() {
    return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
  }

  /** The bytes two back-to-back counter reads report (the measurement's own cost). */
  private static long counterOverhead() {
    long a = allocatedBytes();
    long b = allocatedBytes();
    return b - a;
  }

  /** Sets the inputs of tick {@code i}. */
  private interface Feed {
    void fill(Row in, int i);
  }

  /** What {@link #measure} saw: the bytes of each measured round and the output checksum. */
  private record Result(java.util.List<Long> rounds, long checksum, int ticks) {
    long lastRound() {
      return rounds.get(rounds.size() - 1);
    }
  }

  /**
   * Runs {@code spec}: {@value #WARM_UP} warm-up ticks, then rounds of {@value #MEASURED} ticks
   * until a round allocates nothing, at most {@value #ROUNDS} rounds. The JIT compiles the tick
   * path on background threads; on a busy machine its optimized version (whose escape analysis
   * matters here) can arrive after the warm-up, and until then the interpreter allocates. A tick
   * path that allocates once compiled allocates in every round and fails.
   */
  private static Result measure(String spec, Feed feed) {
    return measure(spec, m -> {
      Row in = m.inputs().newRow();
      Row out = m.outputs().newRow();
      return i -> {
        feed.fill(in, i);
        m.evaluate(in, out);
        return out.bits(0);
      };
    });
  }

  /** {@link #measure(String, Feed)} for any tick path: {@code path} evaluates tick i. */
  private static Result measure(String spec,
      java.util.function.Function<DataflowMonitor, java.util.function.IntToLongFunction> path) {
    assertThat(THREADS.isThreadAllocatedMemorySupported()).isTrue();
    THREADS.setThreadAllocatedMemoryEnabled(true);
    DataflowMonitor m = DataflowMonitor.create(DataflowProgram.compile("bench.dsrv", spec));
    java.util.function.IntToLongFunction tick = path.apply(m);
    long sum = run(tick, 0, WARM_UP);
    int ticks = WARM_UP;
    java.util.List<Long> rounds = new java.util.ArrayList<>();
    do {
      long overhead = counterOverhead();
      long before = allocatedBytes();
      sum += run(tick, ticks, MEASURED);
      long after = allocatedBytes();
      ticks += MEASURED;
      rounds.add(after - before - overhead);
    } while (rounds.get(rounds.size() - 1) != 0 && rounds.size() < ROUNDS);
    return new Result(rounds, sum, ticks);
  }

  private static long run(java.util.function.IntToLongFunction tick, int from, int n) {
    long sum = 0;
    for (int i = from; i < from + n; i++) {
      sum += tick.applyAsLong(i & MASK);
    }
    return sum;
  }

  private static long expected(java.util.function.IntToLongFunction perTick, int ticks) {
    long sum = 0;
    for (int i = 0; i < ticks; i++) {
      sum += perTick.applyAsLong(i & MASK);
    }
    return sum;
  }

  @Test
  void simpleAddAllocatesNothingInSteadyState() {
    Result r = measure("in x: Int\nin y: Int\nout z: Int\nz = x + y", (in, i) -> {
      in.setInt(0, X[i]);
      in.setInt(1, Y[i]);
    });
    assertThat(r.checksum()).as("checksum").isEqualTo(expected(i -> X[i] + Y[i], r.ticks()));
    assertThat(r.lastRound()).as("bytes allocated per %d ticks of simple_add, by round: %s",
        MEASURED, r.rounds()).isZero();
  }

  @Test
  void simpleAddThroughTheTypedHandlesAllocatesNothingInSteadyState() {
    Result r = measure("in x: Int\nin y: Int\nout z: Int\nz = x + y", m -> {
      MonitorInput x = m.input("x");
      MonitorInput y = m.input("y");
      MonitorOutput z = m.output("z");
      return i -> {
        x.setInt(X[i]);
        y.setInt(Y[i]);
        m.step();
        return z.getInt();
      };
    });
    assertThat(r.checksum()).as("checksum").isEqualTo(expected(i -> X[i] + Y[i], r.ticks()));
    assertThat(r.lastRound()).as("bytes allocated per %d ticks of simple_add (step), by round: "
        + "%s", MEASURED, r.rounds()).isZero();
  }

  @Test
  void simpleAddInBatchesOfColumnsAllocatesNothingInSteadyState() {
    Result r = measure("in x: Int\nin y: Int\nout z: Int\nz = x + y", m -> {
      io.dataflow.core.TickColumns in = m.inputs().newColumns(1);
      io.dataflow.core.TickColumns out = m.outputs().newColumns(1);
      in.setSize(1);
      return i -> {
        in.setInt(0, 0, X[i]);
        in.setInt(1, 0, Y[i]);
        m.evaluate(in, out);
        return out.getInt(0, 0);
      };
    });
    assertThat(r.checksum()).as("checksum").isEqualTo(expected(i -> X[i] + Y[i], r.ticks()));
    assertThat(r.lastRound()).as("bytes allocated per %d ticks of simple_add (columns), by "
        + "round: %s", MEASURED, r.rounds()).isZero();
  }

  @Test
  void counterAllocatesNothingInSteadyState() {
    Result r = measure("in x: Int\nout z: Int\nz = default(z[1], 0) + x",
        (in, i) -> in.setInt(0, X[i]));
    long z = 0;
    long sum = 0;
    for (int i = 0; i < r.ticks(); i++) {
      z += X[i & MASK];
      sum += z;
    }
    assertThat(r.checksum()).as("checksum").isEqualTo(sum);
    assertThat(r.lastRound()).as("bytes allocated per %d ticks of counter, by round: %s",
        MEASURED, r.rounds()).isZero();
  }

  /**
   * The typed input {@code x: Float} is checked every tick by comparing tags (a compiled
   * {@code TypeCheck}); a check that boxed the slot used to allocate 24 bytes per tick here.
   */
  @Test
  void thresholdAllocatesNothingInSteadyState() {
    Result r = measure("in x: Float\nout alert: Bool\nalert = x > 3.0",
        (in, i) -> in.setFloat(0, F[i]));
    assertThat(r.checksum()).as("checksum").isEqualTo(expected(i -> F[i] > 3.0 ? 1 : 0,
        r.ticks()));
    assertThat(r.lastRound()).as("bytes allocated per %d ticks of threshold, by round: %s",
        MEASURED, r.rounds()).isZero();
  }
}
