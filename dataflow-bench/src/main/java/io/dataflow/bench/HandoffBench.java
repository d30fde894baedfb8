package io.dataflow.bench;

import io.dataflow.core.Clock;
import io.dataflow.core.DataflowRuntime;
import io.dataflow.core.ExitReport;
import io.dataflow.core.Tick;
import io.dataflow.core.TickBatch;
import io.dataflow.core.TickColumns;
import io.dataflow.core.spi.OutputWriter;
import io.dataflow.io.Sinks;
import io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
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
import org.openjdk.jmh.annotations.Threads;

/**
 * The runtime's hand-off from producer threads to its owner thread (issue 21), through the
 * public API only: a runtime of {@code simple_add} built by
 * {@link ReconfigurableDataflowRuntimeBuilder} with the default options (a queue of 4096
 * items, buffered output) and one destination, started on its own thread; the JMH threads are
 * the producers. Reported in ticks per second (one op is one tick):
 *
 * <ul>
 *   <li>{@code offerOne}: one producer offering single ticks ({@link DataflowRuntime#offer(Tick)});
 *       on a full queue it backs off on the runtime's clock and offers again;
 *   <li>{@code offerFour}: the same from four producers at once (ticks per second in all);
 *   <li>{@code submitBatch}: one producer submitting batches of {@value #BATCH} ticks
 *       ({@link DataflowRuntime#submit(TickBatch, Duration)}, which waits on the clock for room);
 *   <li>{@code submitColumns}: the same ticks in columnar batches ({@link TickBatch#ofColumns}).
 * </ul>
 *
 * <p>The destination ({@code sink}): {@code view} is {@link Sinks#viewCallback}, which reads the
 * output's Int from the reusable view (no allocation per row); {@code boxed} is
 * {@link Sinks#callback}, which boxes each row into an {@code OutputRow} (what the issue
 * measured). Both add up the output {@code z}. The producer allocates only what the hand-off
 * itself needs: the ticks are made once in setup. Teardown ends the input and checks that every
 * tick offered was evaluated exactly once with the right sum.
 *
 * <p>Thread-safety: the runtime is shared by the producers; each producer has its own cursor.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@State(Scope.Benchmark)
public class HandoffBench {
  /** Ticks per submitted batch. */
  public static final int BATCH = 256;
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  /** The destination: {@code view} (no boxing) or {@code boxed} (an OutputRow per row). */
  @Param({"view", "boxed"})
  public String sink;

  private final Workload workload = Workload.named("simple_add");
  private final ConcurrentLinkedQueue<Producer> producers = new ConcurrentLinkedQueue<>();
  private DataflowRuntime runtime;
  private Clock clock;
  private long rows; // owner thread only, read after termination
  private long sum; // owner thread only, read after termination

  /** One producer thread's cursor over the precomputed ticks. */
  @State(Scope.Thread)
  public static class Producer {
    private Tick[] ticks;
    private TickBatch[] batches;
    private TickBatch[] columnBatches;
    private int next;
    private long offered; // this producer's thread; read after the trial
    private long expected; // the sum of x + y over the ticks offered

    /** Makes this thread's ticks and registers it with the benchmark. */
    @Setup(Level.Trial)
    public void setUp(HandoffBench bench) {
      Workload w = bench.workload;
      ticks = new Tick[Inputs.SIZE];
      for (int i = 0; i < ticks.length; i++) {
        ticks[i] = w.tick(i);
      }
      batches = new TickBatch[Inputs.SIZE / BATCH];
      for (int b = 0; b < batches.length; b++) {
        List<Tick> batch = new ArrayList<>(BATCH);
        for (int k = 0; k < BATCH; k++) {
          batch.add(ticks[b * BATCH + k]);
        }
        batches[b] = TickBatch.of(batch);
      }
      // The same ticks in columns: what a reader or a producer that fills columns hands over.
      columnBatches = new TickBatch[batches.length];
      int width = w.shape.size();
      for (int b = 0; b < batches.length; b++) {
        TickColumns c = new TickColumns(width, BATCH);
        for (int k = 0; k < BATCH; k++) {
          Tick t = ticks[b * BATCH + k];
          for (int s = 0; s < width; s++) {
            c.set(s, k, t.value(s));
          }
        }
        c.setSize(BATCH);
        columnBatches[b] = TickBatch.ofColumns(w.shape, c);
      }
      bench.producers.add(this);
    }

    Tick nextTick() {
      int i = next;
      next = (i + 1) & Inputs.MASK;
      offered++;
      expected += Inputs.X[i] + Inputs.Y[i];
      return ticks[i];
    }

    TickBatch nextBatch(boolean columnar) {
      int i = next;
      next = (i + BATCH) & Inputs.MASK;
      offered += BATCH;
      for (int k = i; k < i + BATCH; k++) {
        expected += Inputs.X[k] + Inputs.Y[k];
      }
      return columnar ? columnBatches[i / BATCH] : batches[i / BATCH];
    }
  }

  /** Builds and starts the runtime. */
  @Setup(Level.Trial)
  public void setUp() {
    OutputWriter destination;
    switch (sink) {
      case "view":
        destination = Sinks.viewCallback(v -> {
          rows++;
          sum += v.getInt(0);
        });
        break;
      case "boxed":
        destination = Sinks.callback(r -> {
          rows++;
          sum += r.values().get("z").asLong();
        });
        break;
      default:
        throw new IllegalArgumentException("unknown sink '" + sink + "'");
    }
    runtime = ReconfigurableDataflowRuntimeBuilder.create()
        .specification("simple_add.dsrv", workload.spec)
        .destination("sum", destination)
        .options(o -> o.withName("handoff"))
        .build();
    clock = runtime.clock();
    runtime.start();
  }

  /** One producer, single ticks. */
  @Benchmark
  @Threads(1)
  public void offerOne(Producer p) {
    offer(p.nextTick());
  }

  /** Four producers, single ticks. */
  @Benchmark
  @Threads(4)
  public void offerFour(Producer p) {
    offer(p.nextTick());
  }

  /** One producer, batches of {@value #BATCH}. */
  @Benchmark
  @Threads(1)
  @OperationsPerInvocation(BATCH)
  public void submitBatch(Producer p) {
    runtime.submit(p.nextBatch(false), TIMEOUT);
  }

  /**
   * One producer, columnar batches of {@value #BATCH} (the same ticks in
   * {@link TickBatch#ofColumns}), which the runtime evaluates through the monitor's batch path.
   */
  @Benchmark
  @Threads(1)
  @OperationsPerInvocation(BATCH)
  public void submitColumns(Producer p) {
    runtime.submit(p.nextBatch(true), TIMEOUT);
  }

  private void offer(Tick t) {
    while (!runtime.offer(t)) {
      clock.backOff(); // a full queue: wait for the owner on the clock, never spin hot
    }
  }

  /** Ends the input, waits for the runtime and checks every tick was evaluated once. */
  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    runtime.endOfInput();
    ExitReport r = runtime.awaitTermination(TIMEOUT);
    if (r.outcome() != ExitReport.Outcome.COMPLETED) {
      throw new IllegalStateException("the runtime did not complete: " + r);
    }
    long offered = 0;
    long expected = 0;
    for (Producer p : producers) {
      offered += p.offered;
      expected += p.expected;
    }
    if (r.ticksIn() != offered || rows != offered || sum != expected) {
      throw new IllegalStateException("offered " + offered + " ticks (sum " + expected
          + "), the runtime evaluated " + r.ticksIn() + " and the sink saw " + rows
          + " rows (sum " + sum + ")");
    }
  }
}
