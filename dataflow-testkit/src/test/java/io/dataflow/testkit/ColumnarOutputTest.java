package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.ExecutionPolicy;
import io.dataflow.core.ExitReport;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.RuntimeState;
import io.dataflow.core.TickBatch;
import io.dataflow.core.TickColumns;
import io.dataflow.core.TickShape;
import io.dataflow.core.internal.OwnerLoop;
import io.dataflow.core.spi.OutputWriter;
import io.dataflow.io.Sinks;
import io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A columnar batch's outputs go to a byte writer that is the run's only destination in one call
 * per batch, or per run of ticks up to the next flush (docs/decisions.md, "A batch's outputs go
 * to a byte writer in columns"): the same bytes, the same flushes at the same places, the same
 * output tick count, also when the writer fails part way, as the same writer fed a row at a
 * time (here hidden behind a plain {@link OutputWriter}, which takes the row path).
 */
class ColumnarOutputTest {
  private static final String ADD = "in x\nin y\nout z\nz = x + y";
  private static final int[] BATCHES = {1, 7, 256, 300, 2, 250, 1500, 3, 600, 2000};

  @Test
  void batchesWriteTheSameBytesAndFlushesAsRows() {
    for (ExecutionPolicy policy : new ExecutionPolicy[] {ExecutionPolicy.SYNCHRONOUS,
        new ExecutionPolicy(100), ExecutionPolicy.BUFFERED,
        new ExecutionPolicy(Integer.MAX_VALUE), new ExecutionPolicy(Integer.MAX_VALUE, true)}) {
      for (boolean json : new boolean[] {false, true}) {
        Recording columns = new Recording(Long.MAX_VALUE);
        Recording rows = new Recording(Long.MAX_VALUE);
        ExitReport c = run(writer(json, columns), policy);
        ExitReport r = run(new RowByRow(writer(json, rows)), policy);
        assertThat(c.outcome()).isEqualTo(ExitReport.Outcome.COMPLETED);
        assertThat(c.ticksOut()).as("%s", policy).isEqualTo(r.ticksOut()).isEqualTo(ticks());
        assertThat(columns.toByteArray()).as("%s, json %s", policy, json)
            .isEqualTo(rows.toByteArray());
        assertThat(columns.flushedAt).as("%s, json %s", policy, json)
            .isEqualTo(rows.flushedAt);
      }
    }
  }

  @Test
  void withTwoDestinationsEachGetsTheRowsOneGetsAlone() {
    // Two destinations: the session feeds them a row at a time, each row to both in turn.
    for (boolean json : new boolean[] {false, true}) {
      Recording alone = new Recording(Long.MAX_VALUE);
      Recording first = new Recording(Long.MAX_VALUE);
      Recording second = new Recording(Long.MAX_VALUE);
      ExecutionPolicy policy = new ExecutionPolicy(100);
      ExitReport a = run(writer(json, alone), policy);
      ExitReport two = run(writer(json, first), writer(json, second), policy);
      assertThat(two.ticksOut()).isEqualTo(a.ticksOut()).isEqualTo(ticks());
      assertThat(first.toByteArray()).isEqualTo(alone.toByteArray());
      assertThat(second.toByteArray()).isEqualTo(alone.toByteArray());
      assertThat(first.flushedAt).isEqualTo(alone.flushedAt);
    }
  }

  @Test
  void aFailingWriterCountsTheRowsBeforeTheFailureAsRowsDo() {
    // The stream fails at the first drain of the 64 KiB buffer (in the middle of a batch when
    // nothing flushes before), at a flush, or at the close.
    boolean midRun = false;
    for (long failAfter : new long[] {0, 1_000, 70_000}) {
      for (ExecutionPolicy policy : new ExecutionPolicy[] {new ExecutionPolicy(100),
          new ExecutionPolicy(Integer.MAX_VALUE)}) {
        for (boolean json : new boolean[] {false, true}) {
          Recording columns = new Recording(failAfter);
          Recording rows = new Recording(failAfter);
          ExitReport c = run(writer(json, columns), policy);
          RowByRow byRow = new RowByRow(writer(json, rows));
          ExitReport r = run(byRow, policy);
          assertThat(c.outcome()).isEqualTo(r.outcome());
          assertThat(c.component()).isEqualTo(r.component());
          assertThat(c.reason()).isEqualTo(r.reason());
          assertThat(c.ticksOut()).as("fail after %d, %s, json %s", failAfter, policy, json)
              .isEqualTo(r.ticksOut()).isEqualTo(byRow.taken);
          assertThat(c.ticksIn()).isEqualTo(r.ticksIn());
          assertThat(columns.toByteArray()).isEqualTo(rows.toByteArray());
          midRun |= c.ticksOut() > 0 && c.ticksOut() < ticks();
        }
      }
    }
    assertThat(midRun).as("some writer failed in the middle of the run").isTrue();
  }

  private static int ticks() {
    int n = 0;
    for (int b : BATCHES) {
      n += b;
    }
    return n;
  }

  private static OutputWriter writer(boolean json, OutputStream out) {
    return json ? Sinks.jsonLines(out) : Sinks.text(out);
  }

  /** The same writer, fed a row at a time by the session; counts the rows it took. */
  private static final class RowByRow implements OutputWriter {
    private final OutputWriter w;
    long taken;

    RowByRow(OutputWriter w) {
      this.w = w;
    }

    @Override
    public void feed(long tick, RowLayout layout, Row row) throws IOException {
      w.feed(tick, layout, row);
      taken++;
    }

    @Override
    public void flush() throws IOException {
      w.flush();
    }

    @Override
    public void close() throws IOException {
      w.close();
    }
  }

  /** {@code z = x + y} over the batches, the writer the only destination, stepped here. */
  private static ExitReport run(OutputWriter writer, ExecutionPolicy policy) {
    return run(writer, null, policy);
  }

  private static ExitReport run(OutputWriter writer, OutputWriter tap, ExecutionPolicy policy) {
    ManualClock clock = new ManualClock();
    ReconfigurableDataflowRuntimeBuilder b = ReconfigurableDataflowRuntimeBuilder.create()
        .clock(clock)
        .options(DataflowHarness.DEFAULT_OPTIONS.withPolicy(policy))
        .specification("add.dsrv", ADD)
        .destination("out", writer);
    if (tap != null) {
      b.tap("tap", tap);
    }
    OwnerLoop runtime = (OwnerLoop) b.build();
    TickShape shape = TickShape.of("x", "y");
    long tick = 0;
    for (int size : BATCHES) {
      TickColumns columns = new TickColumns(2, size);
      for (int t = 0; t < size; t++, tick++) {
        columns.setInt(0, t, tick * 1_000_003L % 9_999_991);
        if (tick % 5 != 0) {
          columns.setInt(1, t, -tick);
        }
      }
      columns.setSize(size);
      if (!runtime.offer(TickBatch.ofColumns(shape, columns))) {
        break; // the run failed: it admits nothing more
      }
      step(runtime);
    }
    runtime.endOfInput();
    for (int i = 0; i < 10_000 && !runtime.isTerminated(); i++) {
      if (runtime.doWork() == 0 && runtime.state() == RuntimeState.CLOSING) {
        try {
          runtime.awaitOutputClosed(Duration.ofSeconds(5));
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    assertThat(runtime.isTerminated()).isTrue();
    return runtime.exitReport();
  }

  private static void step(OwnerLoop runtime) {
    for (int i = 0; i < 1000 && runtime.doWork() > 0; i++) {
      // until idle
    }
  }

  /** Keeps what is written and where each flush came; fails writes past a number of bytes. */
  private static final class Recording extends OutputStream {
    final List<Integer> flushedAt = new ArrayList<>();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final long failAfter;

    Recording(long failAfter) {
      this.failAfter = failAfter;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (bytes.size() + (long) len > failAfter) {
        throw new IOException("injected write failure");
      }
      bytes.write(b, off, len);
    }

    @Override
    public void flush() {
      flushedAt.add(bytes.size());
    }

    byte[] toByteArray() {
      return bytes.toByteArray();
    }
  }
}
