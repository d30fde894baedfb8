package io.dataflow.io;

import io.dataflow.core.Kind;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
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

  @Override
  public void feed(long tick, RowLayout layout, Row row) throws IOException {
    useLayout(layout);
    for (int i = 0, n = row.width(); i < n; i++) {
      byte kind = row.kind(i);
      if (kind == Kind.NOVAL) {
        continue;
      }
      put(names[i]);
      putLong(tick);
      if (kind == Kind.INT) {
        put(INT);
        putLong(row.bits(i));
        ensure(2);
        buf[pos++] = ')';
        buf[pos++] = '\n';
      } else if (kind == Kind.BOOL) {
        put(row.bits(i) != 0 ? BOOL_TRUE : BOOL_FALSE);
      } else {
        put(EQUALS);
        StringBuilder sb = chars();
        ValueFormat.appendTo(sb, kind, row.bits(i), row.ref(i));
        putText(sb);
        put((byte) '\n');
      }
    }
  }

  static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
