package io.dataflow.bench;

import io.dataflow.core.TickBatch;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The runtime stepped in the benchmark thread (the testkit harness's mode): each invocation
 * offers one batch through the handle and runs one duty cycle ({@code doWork()}), which
 * evaluates the batch and feeds the output writer. {@link #stepped} uses batches of
 * {@value #BATCH} ticks (the buffered flush interval) and reports per tick;
 * {@link #stepped1} offers one tick per batch, the per-item overhead in full.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SteppedRuntimeBench {
  /** Ticks per batch of {@link #stepped}. */
  public static final int BATCH = 256;

  /** One runtime per benchmark thread. */
  @State(Scope.Thread)
  public abstract static class Fixture {
    /** The workload ({@link Workload#NAMES}). */
    @Param({"simple_add", "counter", "threshold", "window3", "arith", "chain32", "defer",
        "dynamic"})
    public String workload;

    RuntimeFixture f;
    private long primed;

    abstract int batchSize();

    /** Builds the runtime, starts it (first duty cycle) and evaluates the priming ticks. */
    @Setup(Level.Trial)
    public void setUp() {
      f = new RuntimeFixture(workload, batchSize(), 64);
      f.runtime.doWork(); // NEW -> RUNNING: opens the sessions
      TickBatch p = f.primingBatch();
      if (p != null) {
        offer(p);
        f.runtime.doWork();
        primed = p.size();
      }
      f.check(primed);
    }

    final void offer(TickBatch b) {
      if (!f.runtime.offer(b)) {
        throw new IllegalStateException("the ingress refused a batch: " + f.runtime.status());
      }
    }

    /** Checks that every tick offered was evaluated, then shuts the runtime down. */
    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
      f.check(primed + f.offered());
      f.runtime.endOfInput();
      f.runtime.stop(java.time.Duration.ofSeconds(5));
      for (int k = 0; k < 1000 && !f.runtime.isTerminated(); k++) {
        if (f.runtime.doWork() == 0) {
          f.runtime.awaitOutputClosed(java.time.Duration.ofMillis(10));
        }
      }
    }
  }

  /** Batches of {@value SteppedRuntimeBench#BATCH} ticks. */
  public static class Batched extends Fixture {
    @Override
    int batchSize() {
      return BATCH;
    }
  }

  /** Batches of one tick. */
  public static class Single extends Fixture {
    @Override
    int batchSize() {
      return 1;
    }
  }

  /** One batch of {@value #BATCH} ticks, offered and evaluated by one duty cycle. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int stepped(Batched s) {
    s.offer(s.f.nextBatch());
    return s.f.runtime.doWork();
  }

  /** One tick, offered as its own batch and evaluated by one duty cycle. */
  @Benchmark
  public int stepped1(Single s) {
    s.offer(s.f.nextBatch());
    return s.f.runtime.doWork();
  }
}
