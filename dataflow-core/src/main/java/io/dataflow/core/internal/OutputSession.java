package io.dataflow.core.internal;

import io.dataflow.core.Clock;
import io.dataflow.core.spi.OutputWriter;

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
