package io.dataflow.io;

import io.dataflow.core.spi.OutputWriter;
import java.io.IOException;
import java.io.Writer;

/**
 * The part the character-based writers share: a {@link Writer} that {@link #close()} closes
 * only when the writer owns it (a file), and merely flushes otherwise (stdout).
 *
 * <p>Thread-safety: owner thread only.
 */
abstract class CharacterOutputWriter implements OutputWriter {
  final Writer out;
  private final boolean closeTarget;

  CharacterOutputWriter(Writer out, boolean closeTarget) {
    this.out = out;
    this.closeTarget = closeTarget;
  }

  @Override
  public final void flush() throws IOException {
    out.flush();
  }

  @Override
  public final void close() throws IOException {
    if (closeTarget) {
      out.close();
    } else {
      out.flush();
    }
  }
}
