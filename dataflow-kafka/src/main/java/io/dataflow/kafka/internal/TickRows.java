package io.dataflow.kafka.internal;

import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Tick;
import io.dataflow.core.TickShape;
import java.util.IdentityHashMap;
import java.util.function.Consumer;

/**
 * Fills a program's input row from a tick, caching the slots of each tick shape; names that
 * are not inputs are ignored with one warning each.
 *
 * <p>Thread-safety: owner thread only.
 */
public final class TickRows {
  private final RowLayout layout;
  private final Consumer<String> warnings;
  private final IdentityHashMap<TickShape, int[]> slots = new IdentityHashMap<>();
  private final java.util.Set<String> unknown = new java.util.HashSet<>();

  /** Rows of {@code layout}; unknown names go to {@code warnings} once. */
  public TickRows(RowLayout layout, Consumer<String> warnings) {
    this.layout = layout;
    this.warnings = warnings;
  }

  /** Clears {@code row} and sets the tick's values. */
  public void fill(Tick tick, Row row) {
    int[] map = slots.get(tick.shape());
    if (map == null) {
      map = new int[tick.shape().size()];
      for (int i = 0; i < map.length; i++) {
        map[i] = layout.slotOf(tick.shape().name(i));
        if (map[i] < 0 && unknown.add(tick.shape().name(i))) {
          warnings.accept("records carry '" + tick.shape().name(i) + "', which is not an input"
              + " of the specification; its values are ignored");
        }
      }
      slots.put(tick.shape(), map);
    }
    row.clear();
    for (int i = 0; i < map.length; i++) {
      if (map[i] >= 0) {
        row.set(map[i], tick.value(i));
      }
    }
  }
}
