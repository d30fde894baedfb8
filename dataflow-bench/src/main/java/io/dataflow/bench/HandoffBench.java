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
  private HandoffCounters counters; // null unless -Dhandoff.counters=true
  /**
   * What the sink adds up, on the owner thread, in an object of its own: as fields of this
   * state they shared a cache line with {@code runtime} and {@code clock}, which the producers
   * read on every offer, so every tick moved that line between the two cores (issue 21).
   */
  private final Tally tally = new Tally();

  /** Padding before {@link Tally}'s fields (superclass fields are laid out first). */
  @SuppressWarnings("unused")
  static class TallyPadBefore {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
  }

  /** The sink's count and sum (owner thread only, read after termination). */
  static class TallyFields extends TallyPadBefore {
    long rows;
    long sum;
  }

  /** ... and padding after them: 128 bytes either side, nothing else on their lines. */
  @SuppressWarnings("unused")
  static final class Tally extends TallyFields {
    long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
  }

  /** One producer thread's cursor over the precomputed ticks. */
  @State(Scope.Thread)
  public static class Producer {
    private Tick[] ticks;
    private TickBatch[] batches;
    private TickBatch[] columnBatches;
    private int next;
    private long offered; // this producer's thread; read after the trial
    private long expected; // the sum of x + y over the ticks offered
    private long backOffs; // full-queue back-offs of this producer (the counters only)
    private long threadId; // this producer's thread (the counters only)
    private long depthSamples; // queue depth samples, every 1024 ticks (the counters only)
    private long depthLow; // ... of which at most 64 items queued
    private long depthHigh; // ... of which at least capacity - 64 queued

    /** Makes this thread's ticks and registers it with the benchmark. */
    @Setup(Level.Trial)
    public void setUp(HandoffBench bench) {
      Workload w = bench.workload;
      threadId = Thread.currentThread().getId();
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
          tally.rows++;
          tally.sum += v.getInt(0);
        });
        break;
      case "boxed":
        destination = Sinks.callback(r -> {
          tally.rows++;
          tally.sum += r.values().get("z").asLong();
        });
        break;
      default:
        throw new IllegalArgumentException("unknown sink '" + sink + "'");
    }
    ReconfigurableDataflowRuntimeBuilder b = ReconfigurableDataflowRuntimeBuilder.create()
        .specification("simple_add.dsrv", workload.spec)
        .destination("sum", destination)
        .options(o -> o.withName("handoff"));
    if (HandoffCounters.ENABLED) {
      counters = new HandoffCounters();
      b.clock(counters);
    }
    runtime = b.build();
    clock = runtime.clock();
    runtime.start();
  }

  /** One producer, single ticks. */
  @Benchmark
  @Threads(1)
  public void offerOne(Producer p) {
    offer(p, p.nextTick());
  }

  /** Four producers, single ticks. */
  @Benchmark
  @Threads(4)
  public void offerFour(Producer p) {
    offer(p, p.nextTick());
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

  private void offer(Producer p, Tick t) {
    if (HandoffCounters.ENABLED && (p.offered & 1023) == 0) {
      int depth = runtime.status().queueDepth();
      p.depthSamples++;
      p.depthLow += depth <= 64 ? 1 : 0;
      p.depthHigh += depth >= 4096 - 64 ? 1 : 0;
    }
    while (!runtime.offer(t)) {
      p.backOffs++;
      clock.backOff(); // a full queue: wait for the owner on the clock, never spin hot
    }
  }

  /** The producers' offered ticks, back-offs and thread ids (the counters only). */
  private long[] totals() {
    long offered = 0;
    long backOffs = 0;
    long samples = 0;
    long low = 0;
    long high = 0;
    List<Long> ids = new ArrayList<>();
    for (Producer p : producers) {
      offered += p.offered;
      backOffs += p.backOffs;
      samples += p.depthSamples;
      low += p.depthLow;
      high += p.depthHigh;
      ids.add(p.threadId);
    }
    long[] out = new long[5 + ids.size()];
    out[0] = offered;
    out[1] = backOffs;
    out[2] = samples;
    out[3] = low;
    out[4] = high;
    for (int i = 0; i < ids.size(); i++) {
      out[5 + i] = ids.get(i);
    }
    return out;
  }

  /** Per iteration, with {@code -Dhandoff.counters=true}: the counters' baseline. */
  @Setup(Level.Iteration)
  public void countersBefore() {
    if (counters != null) {
      counters.mark(totals());
    }
  }

  /** Per iteration, with {@code -Dhandoff.counters=true}: prints what the hand-off did. */
  @TearDown(Level.Iteration)
  public void countersAfter() {
    if (counters != null) {
      java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
      m.put("P:bench", this);
      int k = 0;
      for (Producer p : producers) {
        m.put("P:producer" + k, p);
        m.put("P:ticks" + k++, p.ticks);
      }
      Object ingress = HandoffCounters.field(runtime, "ingress");
      m.put("P:ownerLoop", runtime);
      m.put("P:ingress", ingress);
      m.put("P:queue", HandoffCounters.field(ingress, "queue"));
      m.put("P:X", Inputs.X);
      m.put("P:Y", Inputs.Y);
      m.put("O:ownerLoop", runtime);
      Object engine = HandoffCounters.field(runtime, "engine");
      m.put("O:engine", engine);
      m.put("O:lastCounter", HandoffCounters.field(runtime, "lastCounter"));
      m.put("O:input", HandoffCounters.field(engine, "input"));
      m.put("O:output", HandoffCounters.field(engine, "output"));
      m.put("O:monitor", HandoffCounters.field(engine, "monitor"));
      m.put("O:window", HandoffCounters.field(runtime, "window"));
      m.put("O:output", HandoffCounters.field(runtime, "output"));
      m.put("O:carried", HandoffCounters.field(runtime, "carried"));
      m.put("O:writer", HandoffCounters.field(engine, "writer"));
      m.put("O:rejected", HandoffCounters.field(ingress, "rejected"));
      m.put("O:wakeups", HandoffCounters.field(ingress, "wakeups"));
      System.out.println(counters.line(totals()) + HandoffCounters.spans(m) + " | "
          + HandoffCounters.lines(this, "tally", "runtime", "clock") + " | "
          + HandoffCounters.lines(runtime, "ingress", "ticksTaken", "statusStale", "busyCycles",
              "statusAt", "lastSource", "lastCounter", "state"));
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
    long rows = tally.rows;
    long sum = tally.sum;
    if (r.ticksIn() != offered || rows != offered || sum != expected) {
      throw new IllegalStateException("offered " + offered + " ticks (sum " + expected
          + "), the runtime evaluated " + r.ticksIn() + " and the sink saw " + rows
          + " rows (sum " + sum + ")");
    }
  }
}
