package io.dataflow.io;

import io.dataflow.core.Value;
import java.util.Map;

/**
 * The present outputs of one tick, boxed, in declaration order.
 *
 * @param tick the logical tick number
 * @param values the present output values by stream name (NoVal streams are absent)
 */
public record OutputRow(long tick, Map<String, Value> values) {
  /** Copies the values. */
  public OutputRow {
    values = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(values));
  }
}
