package io.dataflow.io.internal;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * The lines of a UTF-8 byte stream, split without decoding: after {@link #next()}, the line is
 * {@link #buffer()} from {@link #start()} to {@link #end()} (terminator excluded). Lines end
 * where {@link java.io.BufferedReader#readLine()} ends them: at {@code \n}, {@code \r} or
 * {@code \r\n}; a last line without a terminator is a line, an empty stream has none.
 * {@link #text()} decodes the current line as the character readers would, for the parsers'
 * general (and error) paths.
 *
 * <p>{@link #hasBufferedLine()} tells whether the next line is already read, so a live reader
 * can hand over what it has before a read that may block. A reader that finds a line's end
 * itself while it parses the line reads its bytes once: {@link #peek()}, then {@link #take}.
 *
 * <p>Thread-safety: one reading thread.
 */
public final class ByteLines implements Closeable {
  private final InputStream in;
  private byte[] buf;
  private int pos; // the start of the unread bytes
  private int limit; // the end of the bytes read
  private int whole; // the end of the whole lines read: after the last terminator, or limit at eof
  private int start;
  private int end;
  private int lineNo;
  private boolean eof;
  private boolean skipLf; // the previous line ended with \r: a \n right after belongs to it

  /** Lines of {@code in}, read in blocks of 64 KiB. */
  public ByteLines(InputStream in) {
    this(in, 1 << 16);
  }

  /** Lines of {@code in}, read in blocks of {@code bufferSize} bytes (a longer line grows it). */
  public ByteLines(InputStream in, int bufferSize) {
    this.in = in;
    this.buf = new byte[Math.max(16, bufferSize)];
  }

  /**
   * Moves to the next line; false at the end of the stream.
   *
   * @throws IOException when reading fails
   */
  public boolean next() throws IOException {
    while (true) {
      if (skipLf && pos < limit) {
        if (buf[pos] == '\n') {
          pos++;
        }
        skipLf = false;
      }
      int i = scan();
      if (i >= 0) {
        start = pos;
        end = i;
        lineNo++;
        pos = i + 1;
        skipLf = buf[i] == '\r';
        return true;
      }
      if (eof) {
        if (pos < limit && !skipLf) {
          start = pos;
          end = limit;
          lineNo++;
          pos = limit;
          return true;
        }
        return false;
      }
      fill();
    }
  }

  /** The index of the terminator of the line at {@code pos}, or -1 when it is not read yet. */
  private int scan() {
    byte[] b = buf;
    for (int i = pos, n = limit; i < n; i++) {
      byte c = b[i];
      if (c == '\n' || c == '\r') {
        return i;
      }
    }
    return -1;
  }

  /**
   * Where the next line starts in {@link #buffer()}, reading more when the line does not end
   * in the bytes read so far; -1 at the end of the stream. For a reader that finds the line's
   * end while it parses the line, in one pass over its bytes, and then {@link #take}s it (or
   * calls {@link #next()} for the same line): the line ends at its first {@code \n} or
   * {@code \r}, which comes before {@link #wholeLimit()}, or at the end of the stream, which is
   * {@link #wholeLimit()} when {@link #atEnd()}. So a line never reaches the end of the bytes
   * read part way (docs/performance.md, "Issue 21, tenth round").
   *
   * @throws IOException when reading fails
   */
  public int peek() throws IOException {
    while (true) {
      if (skipLf && pos < limit) {
        if (buf[pos] == '\n') {
          pos++;
        }
        skipLf = false;
      }
      if (pos < whole) {
        return pos;
      }
      if (eof) {
        return -1;
      }
      fill();
    }
  }

  /** The end of the whole lines read (see {@link #peek()}). */
  public int wholeLimit() {
    return whole;
  }

  /** True when the stream's end is read: the last line may end at {@link #wholeLimit()}. */
  public boolean atEnd() {
    return eof;
  }

  /**
   * Makes the line from {@link #peek()} to {@code end} the current line, as {@link #next()}
   * would have: {@code end} is its terminator ({@code \n} or {@code \r}, the first after
   * {@link #peek()}), or the end of the stream.
   */
  public void take(int end) {
    start = pos;
    this.end = end;
    lineNo++;
    if (end < limit) {
      pos = end + 1;
      skipLf = buf[end] == '\r';
    } else {
      pos = limit;
    }
  }

  /** True when the next line (or the end of the stream) is known without another read. */
  public boolean hasBufferedLine() {
    if (eof) {
      return true;
    }
    int from = pos;
    if (skipLf && from < limit && buf[from] == '\n') {
      from++;
    }
    for (int i = from; i < limit; i++) {
      if (buf[i] == '\n' || buf[i] == '\r') {
        return true;
      }
    }
    return false;
  }

  /** Reads more: keeps the unread bytes, growing the buffer for a line longer than it. */
  private void fill() throws IOException {
    if (pos > 0) {
      System.arraycopy(buf, pos, buf, 0, limit - pos);
      limit -= pos;
      whole = Math.max(0, whole - pos);
      pos = 0;
    }
    if (limit == buf.length) {
      buf = java.util.Arrays.copyOf(buf, buf.length * 2);
    }
    int n = in.read(buf, limit, buf.length - limit);
    if (n < 0) {
      eof = true;
      whole = limit;
    } else {
      for (int k = limit + n - 1; k >= limit; k--) {
        if (buf[k] == '\n' || buf[k] == '\r') {
          whole = k + 1;
          break;
        }
      }
      limit += n;
    }
  }

  /** The bytes of the current line (from {@link #start()} to {@link #end()}). */
  public byte[] buffer() {
    return buf;
  }

  /** Where the current line starts in {@link #buffer()}. */
  public int start() {
    return start;
  }

  /** Where the current line ends in {@link #buffer()} (its terminator, or the end). */
  public int end() {
    return end;
  }

  /** The number of the current line, from 1 (0 before the first). */
  public int lineNo() {
    return lineNo;
  }

  /** The current line decoded (UTF-8; malformed bytes become U+FFFD, as a reader does). */
  public String text() {
    return new String(buf, start, end - start, StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws IOException {
    in.close();
  }
}
