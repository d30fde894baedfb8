package io.dataflow.core.internal;

import io.dataflow.core.Clock;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.TickColumns;
import io.dataflow.core.spi.OutputWriter;
import java.io.IOException;

/**
 * The active destinations of a runtime (module {@code dataflow-io} provides
 * {@code OutputPipelineSession}): an {@link OutputWriter} that routes each output stream to the
 * destinations that own it.
 *
 * <p>Thread-safety: owner thread only, except {@link #abandon()}.
 */
public interface OutputSession extends OutputWriter {
  /**
   * Called once on the owner thread when the runtime starts, before the first row: a session
   * that retries with backoff schedules its retries on these timers.
   */
  default void open(Clock clock, TimerQueue timers) throws Exception {}

  /**
   * Called on the owner thread right before {@link #close()} is started on the runtime's
   * closer thread: stop using the owner's timers (retries then happen inside close).
   */
  default void beforeClose() {}

  /**
   * Accepts the outputs of a batch at once: ticks {@code from} to {@code to - 1} of
   * {@code columns} are the outputs of ticks {@code firstTick}, {@code firstTick + 1}, ... The
   * same rows, in the same order, with the same failures, as {@link #feed(long, RowLayout, Row)}
   * of each tick copied into {@code row} (a scratch row of the layout's width); a destination
   * that takes columns whole gets them in one call, so that routing and the copy into a row leave
   * the per-row path. Afterwards {@link #fed()} tells how many of the rows were accepted, also
   * when this throws.
   *
   * @throws IOException when a destination fails, as {@link #feed(long, RowLayout, Row)} does
   */
  void feed(long firstTick, RowLayout layout, TickColumns columns, int from, int to, Row row)
      throws IOException;

  /**
   * How many rows the last {@link #feed(long, RowLayout, TickColumns, int, int, Row)} accepted
   * before it returned or threw (a row is accepted when every destination took it).
   */
  int fed();

  /** The output interface revision (advances when a reconfiguration changes the bindings). */
  long revision();

  /**
   * Gives up on rows not yet written because the shutdown deadline passed; called from the
   * owner thread while a close is still running elsewhere.
   *
   * @return how many rows were abandoned
   */
  default long abandon() {
    return 0;
  }
}
