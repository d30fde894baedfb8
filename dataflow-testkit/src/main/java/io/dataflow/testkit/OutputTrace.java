package io.dataflow.testkit;

import io.dataflow.core.Value;
import io.dataflow.io.OutputRow;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The output of a run: the ticks that had a present output, in order. Read it per tick, per
 * stream, or as the text output format.
 *
 * <p>Thread-safety: immutable.
 */
public final class OutputTrace {
  private final List<OutputRow> rows;

  /** A trace of the given rows (copied). */
  public OutputTrace(List<OutputRow> rows) {
    this.rows = List.copyOf(rows);
  }

  /** The rows, in tick order. */
  public List<OutputRow> rows() {
    return rows;
  }

  /** The text output format, one line per present value ({@code z[0] = Int(3)}). */
  public List<String> lines() {
    List<String> out = new ArrayList<>();
    for (OutputRow r : rows) {
      for (Map.Entry<String, Value> e : r.values().entrySet()) {
        out.add(e.getKey() + "[" + r.tick() + "] = " + e.getValue());
      }
    }
    return out;
  }

  /** The text output format as one string, each line ending in a newline. */
  public String text() {
    StringBuilder sb = new StringBuilder();
    for (String l : lines()) {
      sb.append(l).append('\n');
    }
    return sb.toString();
  }

  /** The present values of one stream by tick. */
  public Map<Long, Value> values(String stream) {
    Map<Long, Value> m = new LinkedHashMap<>();
    for (OutputRow r : rows) {
      Value v = r.values().get(stream);
      if (v != null) {
        m.put(r.tick(), v);
      }
    }
    return m;
  }

  /** The value of a stream at a tick, if present. */
  public Optional<Value> valueAt(String stream, long tick) {
    for (OutputRow r : rows) {
      if (r.tick() == tick) {
        return Optional.ofNullable(r.values().get(stream));
      }
    }
    return Optional.empty();
  }

  /** The outputs of one tick (empty when none was present). */
  public Map<String, Value> at(long tick) {
    for (OutputRow r : rows) {
      if (r.tick() == tick) {
        return r.values();
      }
    }
    return Map.of();
  }

  /** True when no tick had a present output. */
  public boolean isEmpty() {
    return rows.isEmpty();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OutputTrace t && t.rows.equals(rows);
  }

  @Override
  public int hashCode() {
    return rows.hashCode();
  }

  @Override
  public String toString() {
    return text();
  }
}
