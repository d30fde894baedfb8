package io.dataflow.testkit;

import io.dataflow.core.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Converts plain Java values to language values, for concise tests. */
public final class Values {
  private Values() {}

  /**
   * {@code Integer}/{@code Long} to Int, {@code Double}/{@code Float} to Float, {@code String}
   * to Str, {@code Boolean} to Bool, {@code List} to List, {@code Map} to Map; a
   * {@link Value} stays as it is.
   */
  public static Value of(Object o) {
    if (o instanceof Value v) {
      return v;
    }
    if (o instanceof Integer || o instanceof Long || o instanceof Short || o instanceof Byte) {
      return Value.of(((Number) o).longValue());
    }
    if (o instanceof Double || o instanceof Float) {
      return Value.of(((Number) o).doubleValue());
    }
    if (o instanceof String s) {
      return Value.of(s);
    }
    if (o instanceof Boolean b) {
      return Value.of(b);
    }
    if (o instanceof List<?> l) {
      List<Value> items = new ArrayList<>();
      for (Object x : l) {
        items.add(of(x));
      }
      return new Value.List(items);
    }
    if (o instanceof Map<?, ?> m) {
      Map<String, Value> entries = new LinkedHashMap<>();
      m.forEach((k, v) -> entries.put((String) k, of(v)));
      return new Value.Map(new java.util.TreeMap<>(entries));
    }
    throw new IllegalArgumentException("no language value for " + o);
  }

  /** Alternating names and values to a map: {@code row("x", 1, "y", 2.5)}. */
  public static Map<String, Value> row(Object... namesAndValues) {
    if (namesAndValues.length % 2 != 0) {
      throw new IllegalArgumentException("row needs name/value pairs");
    }
    Map<String, Value> m = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      m.put((String) namesAndValues[i], of(namesAndValues[i + 1]));
    }
    return m;
  }
}
