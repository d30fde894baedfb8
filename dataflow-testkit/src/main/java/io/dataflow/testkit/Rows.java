package io.dataflow.testkit;

import io.dataflow.core.Kind;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Value;
import io.dataflow.io.OutputRow;
import java.util.LinkedHashMap;
import java.util.Map;

/** Boxing of output rows for recording sinks. */
final class Rows {
  private Rows() {}

  static OutputRow box(long tick, RowLayout layout, Row row) {
    Map<String, Value> values = new LinkedHashMap<>();
    for (int i = 0; i < row.width(); i++) {
      if (row.kind(i) != Kind.NOVAL) {
        values.put(layout.name(i), row.get(i));
      }
    }
    return new OutputRow(tick, values);
  }
}
