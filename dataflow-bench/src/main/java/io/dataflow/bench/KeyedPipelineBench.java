package io.dataflow.bench;

import io.dataflow.core.Row;
import io.dataflow.core.Tick;
import io.dataflow.core.TickShape;
import io.dataflow.core.Value;
import io.dataflow.pipeline.DataflowPipeline;
import io.dataflow.pipeline.PipelineExitReport;
import io.dataflow.pipeline.io.InMemoryCheckpointer;
import io.dataflow.pipeline.io.InMemoryPartitionedSource;
import io.dataflow.pipeline.spi.Acknowledgement;
import io.dataflow.pipeline.spi.KeyedOutput;
import io.dataflow.pipeline.spi.KeyedOutputs;
import io.dataflow.pipeline.spi.KeyedSink;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
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

/**
 * The keyed pipeline end to end, on its real threads (a controller and {@value #DRIVERS}
 * drivers): one invocation builds a {@link DataflowPipeline} over an in-memory source of
 * {@value #RECORDS} prebuilt records in {@value #PARTITIONS} partitions, runs it to the
 * source's end ({@link DataflowPipeline#run()}: poll, hand-off to the drivers, the keyed
 * monitor per record, output rows, sink batches, acknowledgements, commits, the final
 * checkpoint of every lane at shutdown) and checks that every record produced its output and
 * that the outputs add up to what the specification computes. Reported per record
 * ({@code @OperationsPerInvocation}), so a pipeline's start and stop (thread start, a few
 * milliseconds) is spread over the records.
 *
 * <ul>
 *   <li>{@code counter}: {@code n = default(n[1], 0) + 1} over {@value #COUNTER_KEYS} keys, in
 *       ticks per second.
 *   <li>{@code groupsum}: {@code sum = default(sum[1], 0) + val} over {@value #GROUPSUM_KEYS}
 *       keys, in ns per event.
 * </ul>
 *
 * <p>Keys go round-robin (record {@code i} is key {@code i % keys}, in the partition its key
 * hashes to), so consecutive records of a lane never share a key. The sink counts the outputs
 * and sums their first slot (so it reads what a real sink would read) and acknowledges at once.
 * {@code commitEvery} is the checkpoint period: 60 s measures the tick path (one checkpoint, at
 * the end); 1 s (the default) adds a checkpoint of every lane (every key's state encoded) per
 * second. The monitor alone on the same specification: {@link KeyedMonitorBench}.
 */
@State(Scope.Benchmark)
public class KeyedPipelineBench {
  /** Records per pipeline run (one invocation). */
  public static final int RECORDS = 2_000_000;
  /** Source partitions (the pipeline's lanes). */
  public static final int PARTITIONS = 8;
  /** Driver threads. */
  public static final int DRIVERS = 2;
  /** Keys of the counter. */
  public static final int COUNTER_KEYS = 100_000;
  /** Keys of groupsum. */
  public static final int GROUPSUM_KEYS = 1_000;

  /** The keyed counter: its output is the key's tick count. */
  static final String COUNTER = "in x: Int\nout n: Int\nn = default(n[1], 0) + 1\n";

  /**
   * How long a run may take before it counts as hung: JMH's own iteration timeout. A run of the
   * counter with checkpoints every second takes minutes (see docs/performance.md).
   */
  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(10);

  /** The pipeline's checkpoint and commit period (ISO-8601, {@link Duration#parse}). */
  @Param({"PT60S", "PT1S"})
  public String commitEvery;

  private Duration commit;

  /** Parses the parameter. */
  @Setup(Level.Trial)
  public void setUp() {
    commit = Duration.parse(commitEvery);
  }

  /** One specification with its prebuilt source, sink and expected result. */
  abstract static class Input {
    InMemoryPartitionedSource source;
    final CountingSink sink = new CountingSink();
    long expectedSum;

    /** Builds {@value #RECORDS} records over {@code keys} keys; input {@code name} is i & 7. */
    void build(int keys, String name, boolean sumsValues) {
      TickShape shape = TickShape.of(name);
      // Eight shared ticks: the records differ in key, not in tick objects, so the source
      // costs one record per event and the drivers resolve the shape once.
      Tick[] ticks = new Tick[8];
      for (int v = 0; v < ticks.length; v++) {
        ticks[v] = shape.tick(Value.of((long) v));
      }
      Long[] boxed = new Long[keys];
      for (int k = 0; k < keys; k++) {
        boxed[k] = (long) k;
      }
      long[] state = new long[keys];
      long sum = 0;
      InMemoryPartitionedSource.Builder b = InMemoryPartitionedSource.builder(PARTITIONS);
      for (int i = 0; i < RECORDS; i++) {
        int k = i % keys;
        int v = i & 7;
        b.add(boxed[k], ticks[v]);
        state[k] += sumsValues ? v : 1;
        sum += state[k];
      }
      source = b.build();
      expectedSum = sum;
    }

    abstract String name();

    abstract String text();
  }

  /** The counter's input. */
  @State(Scope.Benchmark)
  public static class CounterInput extends Input {
    /** Builds the records once per trial. */
    @Setup(Level.Trial)
    public void setUp() {
      build(COUNTER_KEYS, "x", false);
    }

    @Override
    String name() {
      return "counter.dsrv";
    }

    @Override
    String text() {
      return COUNTER;
    }
  }

  /** groupsum's input. */
  @State(Scope.Benchmark)
  public static class GroupsumInput extends Input {
    /** Builds the records once per trial. */
    @Setup(Level.Trial)
    public void setUp() {
      build(GROUPSUM_KEYS, "val", true);
    }

    @Override
    String name() {
      return "groupsum.dsrv";
    }

    @Override
    String text() {
      return KeyedMonitorBench.GROUPSUM;
    }
  }

  /** The keyed counter end to end, in ticks per second. */
  @Benchmark
  @BenchmarkMode(Mode.Throughput)
  @OutputTimeUnit(TimeUnit.SECONDS)
  @OperationsPerInvocation(RECORDS)
  public long counter(CounterInput input) throws Exception {
    return run(input);
  }

  /** groupsum end to end, in ns per event. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.NANOSECONDS)
  @OperationsPerInvocation(RECORDS)
  public long groupsum(GroupsumInput input) throws Exception {
    return run(input);
  }

  private long run(Input input) throws Exception {
    input.sink.reset();
    // The source is reused: open() starts every partition at the checkpointer's position, so
    // a fresh checkpointer replays all records. A run ends with nothing paused, but a
    // resume of every partition makes sure.
    input.source.resume(allPartitions());
    PipelineExitReport report;
    try (DataflowPipeline pipeline = DataflowPipeline.builder()
        .specification(input.name(), input.text())
        .source(input.source)
        .sink(input.sink)
        .checkpointer(new InMemoryCheckpointer())
        .options(o -> o.withName("bench").withDrivers(DRIVERS).withCommitEvery(commit))
        .build()) {
      pipeline.start();
      report = pipeline.awaitTermination(RUN_TIMEOUT);
    }
    if (!report.ok()) {
      throw new IllegalStateException("the pipeline did not complete: " + report);
    }
    long outputs = input.sink.outputs.sum();
    long sum = input.sink.sum.sum();
    if (outputs != RECORDS || sum != input.expectedSum) {
      throw new IllegalStateException("expected " + RECORDS + " outputs summing to "
          + input.expectedSum + ", got " + outputs + " summing to " + sum);
    }
    return sum;
  }

  private static Set<Integer> allPartitions() {
    Integer[] all = new Integer[PARTITIONS];
    for (int p = 0; p < PARTITIONS; p++) {
      all[p] = p;
    }
    return Set.of(all);
  }

  /**
   * Counts outputs and sums their first slot, then acknowledges: the cheapest sink that still
   * reads what it is sent. Called by both drivers at once, so the totals are {@link LongAdder}s
   * (one add per batch of up to 512 outputs, not per output).
   */
  static final class CountingSink implements KeyedSink {
    final LongAdder outputs = new LongAdder();
    final LongAdder sum = new LongAdder();

    void reset() {
      outputs.reset();
      sum.reset();
    }

    @Override
    public void send(List<KeyedOutput> batch, Acknowledgement ack) {
      long s = 0;
      for (int i = 0, n = batch.size(); i < n; i++) {
        Row row = batch.get(i).row();
        s += row.bits(0);
      }
      outputs.add(batch.size());
      sum.add(s);
      ack.succeeded();
    }

    /** The columns in place: no object per output. */
    @Override
    public void send(KeyedOutputs batch, Acknowledgement ack) {
      long s = 0;
      for (int i = 0, n = batch.size(); i < n; i++) {
        s += batch.bits(i, 0);
      }
      outputs.add(batch.size());
      sum.add(s);
      ack.succeeded();
    }

    @Override
    public void close() {
      // nothing to release: the sink outlives each pipeline and is reused by the next
    }
  }
}
