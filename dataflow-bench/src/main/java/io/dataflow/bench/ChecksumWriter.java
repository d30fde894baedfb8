package io.dataflow.bench;

import io.dataflow.core.spi.OutputWriter;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;

/**
 * An output writer that consumes each row by adding its first slot's payload bits to a
 * checksum (so the runtime paths consume their results as the monitor path does, and a test
 * can compare them with the baseline). It allocates nothing.
 *
 * <p>Thread-safety: written by the owner thread; read it after the runtime terminated.
 */
final class ChecksumWriter implements OutputWriter {
  private long checksum; // owner thread only
  private long rows; // owner thread only

  @Override
  public void feed(long tick, RowLayout layout, Row row) {
    checksum += row.bits(0);
    rows++;
  }

  @Override
  public void flush() {}

  @Override
  public void close() {}

  /** The sum of the first slot's payload bits over every row fed. */
  long checksum() {
    return checksum;
  }

  /** The rows fed. */
  long rows() {
    return rows;
  }
}
