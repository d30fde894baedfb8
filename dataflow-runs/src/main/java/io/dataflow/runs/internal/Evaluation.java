package io.dataflow.runs.internal;

import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Value;
import io.dataflow.io.OutputRow;
import io.dataflow.io.TextOutputWriter;
import io.dataflow.io.TraceReader;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.runs.RunException;
import io.dataflow.runs.RunInput;
import io.dataflow.runs.RunRequest;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pinned specification over the finite input, in the caller's thread, with a
 * {@link DataflowMonitor} fed by the {@link TraceReader} and rendered by the
 * {@link TextOutputWriter}: the same parts as {@code dataflow run}, without a runtime, because a
 * bounded input needs no owner loop. Rows stay in memory (ephemeral); the output digest is over
 * their rendering.
 */
public final class Evaluation {
  /** How often (in ticks) the attempt is offered a lease renewal while it evaluates. */
  static final int RENEW_EVERY_TICKS = 4096;

  /**
   * What an evaluation produced.
   *
   * @param rows the output rows, in tick order (a tick with no present output has none)
   * @param rendered the rows in the text output format
   * @param outputDigest SHA-256 of {@code rendered} in UTF-8
   * @param sourceDigest SHA-256 of the input's bytes
   */
  public record Result(List<OutputRow> rows, String rendered, String outputDigest,
      String sourceDigest) {}

  private Evaluation() {}

  /**
   * Compiles the request's specification.
   *
   * @throws io.dataflow.monitor.SpecException when it does not compile
   */
  public static DataflowProgram compile(RunRequest request) {
    return DataflowProgram.compile(request.specificationName(), request.specification(),
        request.typingMode());
  }

  /**
   * Evaluates {@code program} over {@code input}; {@code renew} runs every
   * {@value #RENEW_EVERY_TICKS} ticks (the attempt renews its lease there).
   *
   * @throws IOException when the input cannot be read
   * @throws RunException when the input reconfigures or names a stream that is not an input
   * @throws io.dataflow.core.DataflowException when the trace is malformed or a tick fails
   */
  public static Result evaluate(DataflowProgram program, RunInput input, Runnable renew)
      throws IOException {
    byte[] bytes = input.read();
    String sourceDigest = Digests.sha256Hex(bytes);
    DataflowMonitor monitor = DataflowMonitor.create(program);
    RowLayout inputs = program.inputs();
    RowLayout outputs = program.outputs();
    Row in = inputs.newRow();
    Row out = outputs.newRow();
    StringWriter text = new StringWriter();
    TextOutputWriter writer = new TextOutputWriter(text, false);
    List<OutputRow> rows = new ArrayList<>();
    try (TraceReader reader = new TraceReader(input.name(),
        new StringReader(new String(bytes, StandardCharsets.UTF_8)))) {
      long ticks = 0;
      for (TraceReader.Item item = reader.next(); item != null; item = reader.next()) {
        if (item instanceof TraceReader.Reconfigure r) {
          throw new RunException(r.location() + ": the input of a durable run cannot"
              + " reconfigure it (its specification is pinned)");
        }
        TraceReader.Tick tick = (TraceReader.Tick) item;
        in.clear();
        for (Map.Entry<String, Value> e : tick.values().entrySet()) {
          int slot = inputs.slotOf(e.getKey());
          if (slot < 0) {
            throw new RunException(input.name() + ":" + tick.line() + ": '" + e.getKey()
                + "' is not an input of " + program.name());
          }
          in.set(slot, e.getValue());
        }
        monitor.evaluate(in, out);
        writer.feed(tick.number(), outputs, out);
        OutputRow row = row(tick.number(), outputs, out);
        if (!row.values().isEmpty()) {
          rows.add(row);
        }
        if (++ticks % RENEW_EVERY_TICKS == 0) {
          renew.run();
        }
      }
      writer.flush();
    }
    String rendered = text.toString();
    return new Result(rows, rendered, Digests.sha256Hex(rendered), sourceDigest);
  }

  private static OutputRow row(long tick, RowLayout layout, Row out) {
    Map<String, Value> values = new LinkedHashMap<>();
    for (int i = 0; i < out.width(); i++) {
      if (out.isPresent(i)) {
        values.put(layout.name(i), out.get(i));
      }
    }
    return new OutputRow(tick, values);
  }
}
