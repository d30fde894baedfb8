package io.dataflow.io.internal;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;

/**
 * The lines of a JSON Lines input that carry content: blank lines and {@code //} comment lines
 * are skipped, and the number of the last line read (from 1) is kept for messages.
 *
 * <p>Thread-safety: one reader thread.
 */
public final class ContentLines implements Closeable {
  private final BufferedReader in;
  private int lineNo;

  /** Lines of {@code in}. */
  public ContentLines(BufferedReader in) {
    this.in = in;
  }

  /** The next line with content, or null at the end. */
  public String next() throws IOException {
    String line;
    while ((line = in.readLine()) != null) {
      lineNo++;
      String trimmed = line.strip();
      if (!trimmed.isEmpty() && !trimmed.startsWith("//")) {
        return line;
      }
    }
    return null;
  }

  /** The number of the last line read (0 before the first). */
  public int lineNo() {
    return lineNo;
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
