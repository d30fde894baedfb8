package io.dataflow.pipeline.spi;

import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Value;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The outputs of one key's tick.
 *
 * @param key the key
 * @param tick the key's own tick index (from 0)
 * @param partition the partition of the record that produced it
 * @param offset the record's offset
 * @param layout the names of the row's slots (the output streams in force at this tick)
 * @param row the values; NoVal for a stream without output at this tick. The row belongs to
 *     this output: a sink may keep it
 */
public record KeyedOutput(Object key, long tick, int partition, long offset, RowLayout layout,
    Row row) {
  /** The present values by stream name, in declaration order. */
  public Map<String, Value> values() {
    Map<String, Value> out = new LinkedHashMap<>();
    for (int i = 0; i < layout.width(); i++) {
      if (row.kind(i) != io.dataflow.core.Kind.NOVAL) {
        out.put(layout.name(i), row.get(i));
      }
    }
    return out;
  }
}
