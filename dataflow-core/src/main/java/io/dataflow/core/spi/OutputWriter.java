package io.dataflow.core.spi;

import java.io.IOException;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Row;

/**
 * Where output rows go: a text or JSON Lines stream, a callback, a collection, a transport.
 *
 * <p>The engine calls {@link #feed} once per tick in tick order (ticks are never merged or
 * reordered), {@link #flush} when the execution policy says so, and {@link #close} once at the
 * end. The row is reused after {@code feed} returns, so a writer copies or encodes what it
 * keeps. The first exception a writer throws is sticky: the runtime stops feeding it and
 * reports the failure.
 *
 * <p>Thread-safety: owner thread only; a writer is called by one thread at a time.
 */
public interface OutputWriter extends AutoCloseable {
  /**
   * Accepts the outputs of one tick.
   *
   * @param tick the logical tick number
   * @param layout the output streams, in the declaration order of the active specification
   * @param row one value per output stream; NoVal for streams without a value this tick
   */
  void feed(long tick, RowLayout layout, Row row) throws IOException;

  /** Pushes buffered rows to their destination. */
  void flush() throws IOException;

  /** Flushes and releases the destination. Called once. */
  @Override
  void close() throws IOException;
}
