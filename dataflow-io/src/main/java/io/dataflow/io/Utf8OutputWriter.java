package io.dataflow.io;

import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.TickColumns;
import io.dataflow.core.spi.OutputWriter;
import io.dataflow.io.internal.ColumnWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The part the byte-level writers share: rows are formatted straight into a byte buffer
 * (UTF-8), which goes to the stream when it fills and on {@link #flush()}. {@link #close()}
 * closes the stream only when the writer owns it (a file), and merely flushes otherwise
 * (stdout). The output is byte for byte what the character writers
 * ({@link TextOutputWriter}, {@link JsonLinesOutputWriter}) write through a UTF-8 writer.
 *
 * <p>Thread-safety: owner thread only.
 */
abstract class Utf8OutputWriter implements OutputWriter, ColumnWriter {
  private static final int BUFFER = 1 << 16;
  private final OutputStream out;
  private final boolean closeTarget;
  byte[] buf = new byte[BUFFER];
  int pos;
  /** How many times the buffer went to the stream: what was written before is gone from it. */
  int drains;
  private RowLayout layout; // the layout the cached names belong to
  /** Per output slot: its name as the format writes it before a value, UTF-8. */
  byte[][] names;
  private final StringBuilder chars = new StringBuilder(64);
  private int written; // rows of the last columnar feed
  private TickColumns one; // a row's values as one tick, for feed(tick, layout, row)

  Utf8OutputWriter(OutputStream out, boolean closeTarget) {
    this.out = out;
    this.closeTarget = closeTarget;
  }

  /** The name prefix of each slot of {@code layout}, as {@link #names} holds them. */
  abstract byte[] nameBytes(String name) throws IOException;

  /**
   * A batch's rows, one {@link #row} call each. The loop is all there is here, so that its
   * compiles (on-stack, then normal) stay small; {@link #row} is compiled by itself.
   */
  @Override
  public final void feed(long firstTick, RowLayout layout, TickColumns columns, int from,
      int to) throws IOException {
    useLayout(layout);
    int t = from;
    try {
      for (; t < to; t++) {
        row(firstTick + (t - from), columns, t);
      }
    } finally {
      written = t - from;
    }
  }

  /**
   * One row: copied into a one-tick column set and written by {@link #row}, so that each format
   * is written in one place. {@code run} and {@code live} hand whole batches to the columnar
   * {@link #feed(long, RowLayout, TickColumns, int, int)}; rows come here only where the output
   * session cannot (several destinations, bound streams, taps, a retrying writer), and the copy
   * costs a few nanoseconds per slot there.
   */
  @Override
  public final void feed(long tick, RowLayout layout, Row row) throws IOException {
    useLayout(layout);
    TickColumns one = this.one;
    if (one == null || one.width() != row.width()) {
      one = new TickColumns(row.width(), 1);
      this.one = one;
    }
    one.copyFrom(row, 0);
    row(tick, one, 0);
  }

  @Override
  public final int written() {
    return written;
  }

  /**
   * Tick {@code t} of {@code columns}, the outputs of tick {@code tick}, after
   * {@link #useLayout} of their layout: the one place each format's row is written. Longer
   * than C2 inlines into a hot caller (docs/decisions.md,
   * "A writer's row is one method, too long to inline").
   */
  abstract void row(long tick, TickColumns columns, int t) throws IOException;

  /** Makes {@link #names} those of {@code l} (once per layout: reconfigurations change it). */
  final void useLayout(RowLayout l) throws IOException {
    if (l != layout) {
      byte[][] n = new byte[l.width()][];
      for (int i = 0; i < n.length; i++) {
        n[i] = nameBytes(l.name(i));
      }
      names = n;
      layout = l;
    }
  }

  /** Room for {@code n} more bytes in {@link #buf} at {@link #pos}. */
  final void ensure(int n) throws IOException {
    if (buf.length - pos < n) {
      drain();
      if (buf.length < n) {
        buf = new byte[Math.max(n, buf.length * 2)];
      }
    }
  }

  private void drain() throws IOException {
    if (pos > 0) {
      out.write(buf, 0, pos);
      pos = 0;
      drains++;
    }
  }

  final void put(byte b) throws IOException {
    ensure(1);
    buf[pos++] = b;
  }

  final void put(byte[] bytes) throws IOException {
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buf, pos, bytes.length);
    pos += bytes.length;
  }

  /** Writes a long in decimal. */
  final void putLong(long v) throws IOException {
    ensure(20);
    pos = digits(buf, pos, v);
  }

  /**
   * Writes {@code v} in decimal into {@code b} at {@code p}, where there is room for 20 bytes,
   * and returns the position after it. For the writers' rows, which keep the buffer and the
   * position in locals.
   */
  static int digits(byte[] b, int p, long v) {
    if (v >= 0 && v <= Integer.MAX_VALUE) {
      return intDigits(b, p, (int) v); // int arithmetic: the usual tick numbers and values
    }
    if (v == Long.MIN_VALUE) {
      System.arraycopy(MIN_LONG, 0, b, p, MIN_LONG.length);
      return p + MIN_LONG.length;
    }
    if (v < 0) {
      b[p++] = '-';
      v = -v;
    }
    int len = 1;
    for (long x = v; x >= 10; x /= 10) {
      len++;
    }
    int q = p + len;
    do {
      b[--q] = (byte) ('0' + (int) (v % 10));
      v /= 10;
    } while (v != 0);
    return p + len;
  }

  private static int intDigits(byte[] b, int p, int v) {
    // The digit count without a branch per magnitude: a ladder of comparisons let C2 compile
    // only the magnitudes seen so far, and each longer number (tick 100000, 1000000, ...) then
    // deoptimised the writer and everything it was inlined into.
    int t = ((32 - Integer.numberOfLeadingZeros(v | 1)) * 1233) >>> 12; // about log10
    int len = t + 1 - (((v | 1) - POW10[t]) >>> 31); // one fewer when v < 10^t
    int q = p + len;
    while (v >= 100) { // two digits a division, as Integer.toString does
      int d = v / 100;
      int r = v - d * 100;
      v = d;
      b[--q] = ONES[r];
      b[--q] = TENS[r];
    }
    if (v >= 10) {
      b[--q] = ONES[v];
      b[--q] = TENS[v];
    } else {
      b[--q] = (byte) ('0' + v);
    }
    return p + len;
  }

  private static final byte[] MIN_LONG =
      "-9223372036854775808".getBytes(StandardCharsets.US_ASCII);
  private static final int[] POW10 = {
      1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};
  private static final byte[] TENS = new byte[100];
  private static final byte[] ONES = new byte[100];

  static {
    for (int i = 0; i < 100; i++) {
      TENS[i] = (byte) ('0' + i / 10);
      ONES[i] = (byte) ('0' + i % 10);
    }
  }

  /** A scratch builder for text formatted with the character formatters. */
  final StringBuilder chars() {
    chars.setLength(0);
    return chars;
  }

  /** Writes {@code s} as UTF-8 (unpaired surrogates become '?', as a UTF-8 writer does). */
  final void putText(CharSequence s) throws IOException {
    int n = s.length();
    ensure(n);
    int p = pos;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x80) {
        put(s.toString().getBytes(StandardCharsets.UTF_8)); // the rare non-ASCII text
        return;
      }
      buf[p++] = (byte) c;
    }
    pos = p;
  }

  @Override
  public final void flush() throws IOException {
    drain();
    out.flush();
  }

  @Override
  public final void close() throws IOException {
    if (closeTarget) {
      try {
        drain();
      } finally {
        out.close();
      }
    } else {
      flush();
    }
  }
}
