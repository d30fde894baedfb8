package io.dataflow.io;

import io.dataflow.core.Kind;
import io.dataflow.core.TickColumns;
import io.dataflow.core.ValueFormat;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The text output format of {@link TextOutputWriter} (one line {@code name[tick] = Value} per
 * present output value), formatted into bytes: Int and Bool without a string, the other kinds
 * through {@link ValueFormat}.
 *
 * <p>Thread-safety: owner thread only.
 */
final class Utf8TextWriter extends Utf8OutputWriter {
  private static final byte[] INT = ascii("] = Int(");
  private static final byte[] BOOL_TRUE = ascii("] = Bool(true)\n");
  private static final byte[] BOOL_FALSE = ascii("] = Bool(false)\n");
  private static final byte[] EQUALS = ascii("] = ");

  Utf8TextWriter(OutputStream out, boolean closeTarget) {
    super(out, closeTarget);
  }

  @Override
  byte[] nameBytes(String name) {
    return (name + "[").getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Tick {@code t} of a batch's columns, a line per present value. Each line is written here,
   * through the buffer and the position held in locals, with one room check: the name, the tick
   * number (formatted once a row, copied for its further lines) and an Int or a Bool; other values
   * through {@link ValueFormat}. Like {@link Utf8JsonLinesWriter#row}, it is longer than C2 inlines
   * into a hot caller on purpose, so that it is compiled once, by itself (docs/decisions.md, "A
   * writer's row is one method, too long to inline").
   */
  @Override
  void row(long tick, TickColumns c, int t) throws IOException {
    byte[][] names = this.names;
    int tickAt = 0; // the tick's digits in the buffer, once written for the row's first line
    int tickLength = 0;
    int tickDrains = 0;
    for (int i = 0, n = c.width(); i < n; i++) {
      byte kind = c.kind(i, t);
      if (kind == Kind.NOVAL) {
        continue;
      }
      byte[] name = names[i];
      // The name, the tick (20), "] = Int(" and an Int (20) and ")\n"; the other lines' parts
      // before the value are shorter.
      ensure(name.length + 50);
      byte[] b = buf;
      int p = pos;
      System.arraycopy(name, 0, b, p, name.length);
      p += name.length;
      if (tickLength > 0 && tickDrains == drains) {
        // a further line of the row: its tick's digits are still in the buffer
        System.arraycopy(b, tickAt, b, p, tickLength);
        p += tickLength;
      } else {
        tickAt = p;
        p = digits(b, p, tick);
        tickLength = p - tickAt;
        tickDrains = drains;
      }
      if (kind == Kind.INT) {
        System.arraycopy(INT, 0, b, p, INT.length);
        p = digits(b, p + INT.length, c.bits(i, t));
        b[p] = ')';
        b[p + 1] = '\n';
        pos = p + 2;
      } else if (kind == Kind.BOOL) {
        byte[] rest = c.bits(i, t) != 0 ? BOOL_TRUE : BOOL_FALSE;
        System.arraycopy(rest, 0, b, p, rest.length);
        pos = p + rest.length;
      } else {
        System.arraycopy(EQUALS, 0, b, p, EQUALS.length);
        pos = p + EQUALS.length;
        StringBuilder sb = chars();
        ValueFormat.appendTo(sb, kind, c.bits(i, t), c.ref(i, t));
        putText(sb);
        put((byte) '\n');
      }
    }
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
