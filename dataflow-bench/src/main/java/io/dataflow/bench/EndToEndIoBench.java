package io.dataflow.bench;

import io.dataflow.core.Clock;
import io.dataflow.core.ExecutionPolicy;
import io.dataflow.core.ExitReport;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.SystemClock;
import io.dataflow.core.TickBatch;
import io.dataflow.core.spi.ControlRequest;
import io.dataflow.core.spi.OutputWriter;
import io.dataflow.core.spi.Source;
import io.dataflow.core.spi.SourceContext;
import io.dataflow.io.JsonLinesSource;
import io.dataflow.io.Sinks;
import io.dataflow.io.TraceFileSource;
import io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadFactory;
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
 * The I/O of {@code bin/dataflow run} without the JVM's start (issue 21), per tick of
 * {@code z = x + y} over {@value #TICKS} ticks of two Int inputs:
 *
 * <ul>
 *   <li>{@code read}: the source alone, a trace file or a JSON Lines file, polled into a
 *       context that takes every batch (parsing and batching);
 *   <li>{@code write}: the writer alone, one output row per op (text or JSON Lines into a
 *       stream that discards);
 *   <li>{@code run}: the whole run in the caller's thread, as {@code run} does it (the source,
 *       the runtime with the monitor's batch path, the writer).
 * </ul>
 *
 * <p>{@code dataflow-bench/scripts/end-to-end.sh} measures the same through the launcher.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class EndToEndIoBench {
  static final int TICKS = 200_000;
  private static final String SPEC = "in x: Int\nin y: Int\nout z: Int\nz = x + y\n";

  /** The input: {@code trace} or {@code jsonl}. */
  @Param({"trace", "jsonl"})
  public String input;

  /** The output format: {@code text} or {@code jsonl}. */
  @Param({"text", "jsonl"})
  public String format;

  private Path dir;
  private Path file;
  private OutputWriter writer;
  private RowLayout layout;
  private Row row;
  private long tick;

  /** Writes the input file. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("end-to-end-io");
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < TICKS; i++) {
      if (input.equals("trace")) {
        sb.append(i).append(": x = ").append(i % 100000).append("\n   y = ")
            .append(i * 7 % 1000).append('\n');
      } else {
        sb.append("{\"x\": ").append(i % 100000).append(", \"y\": ").append(i * 7 % 1000)
            .append("}\n");
      }
    }
    file = dir.resolve(input.equals("trace") ? "add.input" : "add.jsonl");
    Files.writeString(file, sb);
    writer = output();
    layout = RowLayout.of("z");
    row = layout.newRow();
  }

  /** Removes the input file. */
  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    Files.deleteIfExists(file);
    Files.deleteIfExists(dir);
  }

  private OutputWriter output() {
    OutputStream discard = OutputStream.nullOutputStream();
    return format.equals("text") ? Sinks.text(discard) : Sinks.jsonLines(discard);
  }

  private Source source() {
    return input.equals("trace") ? TraceFileSource.open("trace", file)
        : JsonLinesSource.file("trace", file);
  }

  /** Reads the whole file through the source. */
  @Benchmark
  @OperationsPerInvocation(TICKS)
  public long read() throws Exception {
    Taking ctx = new Taking();
    Source s = source();
    try {
      s.open(ctx);
      while (!ctx.ended) {
        s.poll(0);
      }
    } finally {
      s.close();
    }
    if (ctx.ticks != TICKS) {
      throw new IllegalStateException("read " + ctx.ticks + " ticks, not " + TICKS);
    }
    return ctx.ticks;
  }

  /** Formats one output row. */
  @Benchmark
  public void write() throws IOException {
    row.setInt(0, tick * 3);
    writer.feed(tick++, layout, row);
    if ((tick & 255) == 0) {
      writer.flush();
    }
  }

  /** The whole run in this thread. */
  @Benchmark
  @OperationsPerInvocation(TICKS)
  public long run() {
    ExitReport report = ReconfigurableDataflowRuntimeBuilder.create()
        .specification("add.dsrv", SPEC)
        .source(source())
        .destination("stdout", output())
        .options(o -> o.withPolicy(ExecutionPolicy.BUFFERED))
        .build()
        .runInCallerThread();
    if (!report.isCompleted() || report.ticksIn() != TICKS) {
      throw new IllegalStateException("run failed: " + report);
    }
    return report.ticksIn();
  }

  /** A source context that takes everything at once (the reader alone). */
  private static final class Taking implements SourceContext {
    long ticks;
    boolean ended;

    @Override
    public String sourceName() {
      return "trace";
    }

    @Override
    public Clock clock() {
      return SystemClock.INSTANCE;
    }

    @Override
    public ThreadFactory threadFactory() {
      return Thread::new;
    }

    @Override
    public boolean offer(TickBatch batch) {
      ticks += batch.size();
      batch.evaluated(); // as the runtime does: the source may fill the columns again
      return true;
    }

    @Override
    public void submit(TickBatch batch, long deadlineNanos) {
      offer(batch);
    }

    @Override
    public void submitControl(ControlRequest request, long deadlineNanos) {}

    @Override
    public boolean offerControl(ControlRequest request) {
      return true;
    }

    @Override
    public boolean tryComplete() {
      ended = true;
      return true;
    }

    @Override
    public boolean tryFail(Throwable error) {
      throw new IllegalStateException(error);
    }

    @Override
    public void complete() {
      ended = true;
    }

    @Override
    public void fail(Throwable error) {
      throw new IllegalStateException(error);
    }

    @Override
    public boolean isClosed() {
      return false;
    }
  }
}
