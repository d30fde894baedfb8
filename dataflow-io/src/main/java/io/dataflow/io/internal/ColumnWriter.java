package io.dataflow.io.internal;

import io.dataflow.core.RowLayout;
import io.dataflow.core.TickColumns;
import java.io.IOException;

/**
 * A writer that also takes a batch's output columns whole (the byte writers behind
 * {@code Sinks.text} and {@code Sinks.jsonLines}): {@link OutputPipelineSession} hands a batch
 * to a destination that receives every stream this way, one call per batch instead of a
 * projection and a call per row (docs/decisions.md, "A batch's outputs go to a byte writer in
 * columns").
 *
 * <p>Thread-safety: owner thread only.
 */
public interface ColumnWriter {
  /**
   * Writes ticks {@code from} to {@code to - 1} of {@code columns}, the outputs of ticks
   * {@code firstTick}, {@code firstTick + 1}, ...: the same bytes as the writer's
   * {@code feed(tick, layout, row)} of each tick in order. Afterwards {@link #written()} tells
   * how many of the rows were written, also when this throws.
   */
  void feed(long firstTick, RowLayout layout, TickColumns columns, int from, int to)
      throws IOException;

  /** How many rows the last {@link #feed(long, RowLayout, TickColumns, int, int)} wrote. */
  int written();
}
