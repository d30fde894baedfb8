package io.dataflow.io;

import io.dataflow.core.Value;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Test support: reads a whole trace text, keeping the items returned before any error. */
final class TraceRun {
  static final String FILE = "trace.input";

  final List<TraceReader.Item> items = new ArrayList<>();
  TraceException error;

  private TraceRun() {}

  /** Reads {@code text} to its end or its first error; a second error would fail the test. */
  static TraceRun of(String text) {
    TraceRun run = new TraceRun();
    TraceReader reader = new TraceReader(FILE, new StringReader(text));
    try {
      TraceReader.Item item;
      while ((item = reader.next()) != null) {
        run.items.add(item);
      }
    } catch (TraceException e) {
      run.error = e;
      if (reader.next() != null) {
        throw new AssertionError("an item after the error");
      }
    }
    return run;
  }

  /** The ticks read, each rendered as {@code number: name=Value, ...}. */
  List<String> ticks() {
    List<String> out = new ArrayList<>();
    for (TraceReader.Item item : items) {
      if (item instanceof TraceReader.Tick t) {
        out.add(render(t));
      }
    }
    return out;
  }

  /** Every item, ticks rendered as in {@link #ticks()}, requests as {@code @json at line:col}. */
  List<String> all() {
    List<String> out = new ArrayList<>();
    for (TraceReader.Item item : items) {
      if (item instanceof TraceReader.Tick t) {
        out.add(render(t));
      } else if (item instanceof TraceReader.Reconfigure r) {
        out.add("@" + r.json() + " at " + r.location().line() + ":" + r.location().column());
      }
    }
    return out;
  }

  /** The only tick's values. */
  Map<String, Value> onlyTickValues() {
    if (error != null) {
      throw new AssertionError("unexpected error", error);
    }
    if (items.size() != 1 || !(items.get(0) instanceof TraceReader.Tick t)) {
      throw new AssertionError("expected one tick, got " + all());
    }
    return new LinkedHashMap<>(t.values());
  }

  private static String render(TraceReader.Tick t) {
    StringBuilder sb = new StringBuilder().append(t.number()).append(':');
    String sep = " ";
    for (Map.Entry<String, Value> e : t.values().entrySet()) {
      sb.append(sep).append(e.getKey()).append('=').append(e.getValue());
      sep = ", ";
    }
    return sb.toString();
  }
}
