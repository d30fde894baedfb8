package io.dataflow.bench;

import io.dataflow.core.ExitReport;
import io.dataflow.core.TickBatch;
import java.time.Duration;
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
 * The runtime on its own owner thread ({@code start()}), fed by the benchmark thread as the
 * producer: each op submits one batch of {@value #BATCH} ticks, waiting while the ingress queue
 * is full. The queue is small ({@value #QUEUE} batches), so after warm-up the producer runs at
 * the owner's pace and ns per tick is the inverse of the runtime's throughput (ticks/s =
 * 1e9 / ns). Teardown ends the input and checks that every submitted tick was evaluated.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class ThreadedRuntimeBench {
  /** Ticks per submitted batch. */
  public static final int BATCH = 256;
  /** Ingress capacity in batches. */
  public static final int QUEUE = 64;
  private static final Duration SUBMIT_TIMEOUT = Duration.ofSeconds(10);

  /** The workload ({@link Workload#NAMES}). */
  @Param({"simple_add", "counter", "threshold", "window3", "arith", "chain32", "defer",
      "dynamic"})
  public String workload;

  private RuntimeFixture f;
  private long primed;

  /** Builds and starts the runtime and submits the priming ticks. */
  @Setup(Level.Trial)
  public void setUp() {
    f = new RuntimeFixture(workload, BATCH, QUEUE);
    f.runtime.start();
    TickBatch p = f.primingBatch();
    if (p != null) {
      f.runtime.submit(p, SUBMIT_TIMEOUT);
      primed = p.size();
    }
  }

  /** One batch. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void threaded() {
    f.runtime.submit(f.nextBatch(), SUBMIT_TIMEOUT);
  }

  /** Ends the input, waits for the runtime and checks it evaluated every tick. */
  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    f.runtime.endOfInput();
    ExitReport r = f.runtime.awaitTermination(Duration.ofSeconds(30));
    if (r.outcome() != ExitReport.Outcome.COMPLETED) {
      throw new IllegalStateException("the runtime did not complete: " + r);
    }
    f.check(primed + f.offered());
  }
}
