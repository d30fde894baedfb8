package io.dataflow.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Clock;
import io.dataflow.core.spi.ControlRequest;
import io.dataflow.core.spi.Source;
import io.dataflow.core.spi.SourceContext;
import io.dataflow.core.SystemClock;
import io.dataflow.core.Tick;
import io.dataflow.core.TickBatch;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.dataflow.io.internal.EncodedControlRequest;

/**
 * Pull sources on a queue that is nearly always full: they never wait, keep what did not fit,
 * and deliver everything in order; ticks with the same names share one shape.
 */
class PullSourceTest {
  /** A one-slot queue that the test drains by hand. */
  private static final class OneSlot implements SourceContext {
    final ArrayDeque<Object> slot = new ArrayDeque<>();
    final List<Object> delivered = new ArrayList<>();
    int refusals;

    private boolean put(Object item) {
      if (!slot.isEmpty()) {
        refusals++;
        return false;
      }
      slot.add(item);
      return true;
    }

    void drain() {
      delivered.addAll(slot);
      slot.clear();
    }

    @Override
    public String sourceName() {
      return "in";
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
      return put(batch);
    }

    @Override
    public void submit(TickBatch batch, long deadlineNanos) {
      throw new AssertionError("a pull source must not wait");
    }

    @Override
    public void submitControl(ControlRequest request, long deadlineNanos) {
      throw new AssertionError("a pull source must not wait");
    }

    @Override
    public boolean offerControl(ControlRequest request) {
      return put(request);
    }

    @Override
    public boolean tryComplete() {
      return put("END");
    }

    @Override
    public boolean tryFail(Throwable error) {
      return put(error);
    }

    @Override
    public void complete() {
      throw new AssertionError("a pull source must not wait");
    }

    @Override
    public void fail(Throwable error) {
      throw new AssertionError("a pull source must not wait");
    }

    @Override
    public boolean isClosed() {
      return false;
    }
  }

  private static List<Object> run(Source source) throws Exception {
    OneSlot ctx = new OneSlot();
    source.open(ctx);
    for (int i = 0; i < 10_000 && !ctx.delivered.contains("END")
        && ctx.delivered.stream().noneMatch(Throwable.class::isInstance); i++) {
      source.poll(0);
      source.poll(0); // the slot is full now: this one must keep its item
      ctx.drain();
    }
    source.close();
    if (ctx.delivered.size() > 1) {
      assertThat(ctx.refusals).isPositive(); // more than one item met a full slot
    }
    return ctx.delivered;
  }

  private static List<String> describe(List<Object> items) {
    List<String> out = new ArrayList<>();
    for (Object o : items) {
      if (o instanceof TickBatch b) {
        for (Tick t : b.ticks()) {
          out.add(t.asMap().toString());
        }
      } else if (o instanceof ControlRequest c) {
        out.add("control");
      } else {
        out.add(o instanceof Throwable e ? "error: " + e.getMessage() : o.toString());
      }
    }
    return out;
  }

  @Test
  void aTraceFileIsDeliveredCompletelyInOrderThroughAOneSlotQueue() throws Exception {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 100; i++) {
      b.append(i).append(": x = ").append(i).append('\n');
      if (i == 70) {
        b.append("@reconfigure {specification: \"in x\\nout z = x\"}\n");
      }
    }
    List<Object> items = run(TraceFileSource.of("in", new StringReader(b.toString()),
        "t.input"));
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      expected.add("{x=Int(" + i + ")}");
      if (i == 70) {
        expected.add("control");
      }
    }
    expected.add("END");
    assertThat(describe(items)).containsExactlyElementsOf(expected);
    List<Tick> ticks = items.stream().filter(TickBatch.class::isInstance)
        .flatMap(o -> ((TickBatch) o).ticks().stream()).toList();
    assertThat(ticks).allMatch(t -> t.shape() == ticks.get(0).shape());
  }

  @Test
  void aBadLineEndsTheTraceAfterEveryTickBeforeIt() throws Exception {
    List<Object> items = run(TraceFileSource.of("in",
        new StringReader("0: x = 1\n1: x = 2\n2: x = )\n3: x = 4\n"), "t.input"));
    List<String> seen = describe(items);
    assertThat(seen.subList(0, 2)).containsExactly("{x=Int(1)}", "{x=Int(2)}");
    assertThat(seen).hasSize(3);
    assertThat(seen.get(2)).startsWith("error: ").contains("t.input:3");
  }

  @Test
  void aJsonLinesFileIsDeliveredCompletelyInOrder(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("t.jsonl");
    Files.writeString(file, "{\"x\": 1}\n{\"$reconfigure\": {\"specification\": \"in x\"}}\n"
        + "{\"x\": 2, \"y\": true}\n{\"x\": 3, \"y\": false}\n");
    List<Object> items = run(JsonLinesSource.file("in", file));
    assertThat(describe(items)).containsExactly("{x=Int(1)}", "control",
        "{x=Int(2), y=Bool(true)}", "{x=Int(3), y=Bool(false)}", "END");
    List<Tick> ticks = items.stream().filter(TickBatch.class::isInstance)
        .flatMap(o -> ((TickBatch) o).ticks().stream()).toList();
    assertThat(ticks.get(1).shape()).isSameAs(ticks.get(2).shape());
  }

  /**
   * The JSON Lines file's usual line finds its own end while it is read: with blocks of 16 to 23
   * bytes, lines reach the end of the bytes read at every place (in a name, a value, between
   * {@code \r} and {@code \n}), where the line must be read again after the next block, never
   * taken as ending there. Generated files of usual lines, blanks, comments, control lines, the
   * general path's lines and mistakes, with every terminator: the same ticks, requests and
   * error (message, line and column) as in blocks of 64 KiB.
   */
  @Test
  void aJsonLinesFileSplitByEveryBlocksEndReadsTheSame(@TempDir Path dir) throws Exception {
    long seed = Long.getLong("dataflow.seed", 20261202L);
    java.util.Random rnd = new java.util.Random(seed + 3);
    String[] ends = {"\n", "\n", "\n", "\r\n", "\r"};
    for (int n = 0; n < 60; n++) {
      StringBuilder text = new StringBuilder();
      int lines = 1 + rnd.nextInt(30);
      for (int i = 0; i < lines; i++) {
        int k = rnd.nextInt(20);
        text.append(k == 0 ? JsonLineScannerTest.line(rnd)
            : k == 1 ? "{\"$reconfigure\": {\"specification\": \"in x\"}}"
            : k == 2 ? "" : k == 3 ? "  // a comment longer than a block"
            : k == 4 ? "{x: 1, \"y\": \"a string longer than a block\"}"
            : "{\"x\": " + (rnd.nextInt(2000) - 1000) + ", \"y\": "
                + (rnd.nextBoolean() ? "true" : "-12345678901.5e-3") + "}");
        if (i < lines - 1 || rnd.nextBoolean()) {
          text.append(ends[rnd.nextInt(ends.length)]);
        }
      }
      Path file = dir.resolve("blocks" + n + ".jsonl");
      Files.writeString(file, text.toString());
      List<String> expected = describe(run(JsonLinesSource.file("in", file)));
      for (int size = 16; size < 24; size++) {
        assertThat(describe(run(JsonLinesSource.file("in", file, size))))
            .as("seed %d, file %d, blocks of %d:%n%s", seed + 3, n, size, text)
            .containsExactlyElementsOf(expected);
      }
    }
  }

  @Test
  void inMemoryItemsAreDeliveredCompletelyInOrder() throws Exception {
    List<Object> src = new ArrayList<>();
    src.add(Tick.of("x", io.dataflow.core.Value.of(1)));
    src.add(io.dataflow.core.spi.ControlRequest.class.cast(
        new EncodedControlRequest("{specification: 'in x'}", null)));
    src.add(Tick.of("x", io.dataflow.core.Value.of(2)));
    List<Object> items = run(InMemorySource.ofItems("in", src));
    assertThat(describe(items)).containsExactly("{x=Int(1)}", "control", "{x=Int(2)}", "END");
  }

  @Test
  void eachFileSourceResumesAfterTheItemsACheckpointCounted(@TempDir Path dir) throws Exception {
    StringBuilder trace = new StringBuilder();
    StringBuilder jsonl = new StringBuilder();
    List<Object> memory = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      trace.append(i).append(": x = ").append(i).append('\n');
      jsonl.append("{\"x\": ").append(i).append("}\n");
      memory.add(Tick.of("x", io.dataflow.core.Value.of(i)));
      if (i == 20) {
        trace.append("@reconfigure {specification: \"in x\\nout z = x\"}\n");
        jsonl.append("{\"$reconfigure\": {\"specification\": \"in x\"}}\n");
        memory.add(new EncodedControlRequest("{specification: 'in x'}", null));
      }
    }
    Path jsonlFile = dir.resolve("t.jsonl");
    Files.writeString(jsonlFile, jsonl.toString());
    for (int k : new int[] {0, 1, 20, 21, 22, 41}) {
      List<String> all = describe(run(TraceFileSource.of("in",
          new StringReader(trace.toString()), "t.input")));
      // Items are ticks and control items, as the runtime counts them.
      List<String> expected = all.subList(k, all.size());
      Source t = TraceFileSource.of("in", new StringReader(trace.toString()), "t.input");
      t.resumeAfter(k);
      assertThat(describe(run(t))).as("trace after %d", k).containsExactlyElementsOf(expected);
      Source j = JsonLinesSource.file("in", jsonlFile);
      j.resumeAfter(k);
      assertThat(describe(run(j))).as("jsonl after %d", k).containsExactlyElementsOf(expected);
      Source m = InMemorySource.ofItems("in", memory);
      m.resumeAfter(k);
      assertThat(describe(run(m))).as("memory after %d", k).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void resumingPastTheEndOfTheInputSaysSo() throws Exception {
    Source t = TraceFileSource.of("in", new StringReader("0: x = 1\n1: x = 2\n"), "t.input");
    t.resumeAfter(5);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> t.open(new OneSlot()))
        .isInstanceOf(java.io.IOException.class)
        .hasMessage("t.input has 2 items, but the checkpoint to resume from consumed 5");
    Source m = InMemorySource.ofItems("in", List.of(Tick.of("x", io.dataflow.core.Value.of(1))));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> m.resumeAfter(2))
        .hasMessage("source 'in' has 1 items; cannot resume after 2");
  }
}
