package io.dataflow.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.dataflow.core.Kind;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.ValueFormat;
import io.dataflow.io.internal.JsonValues;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

/**
 * The JSON Lines output of {@link JsonLinesOutputWriter}
 * ({@code {"tick":0,"outputs":{"z":3,"ok":true}}}), formatted into bytes: Int, Bool, Unit,
 * finite Floats and plain ASCII strings directly, every other value (and every name) through
 * Jackson's generator exactly as {@link JsonLinesOutputWriter} writes it.
 *
 * <p>Thread-safety: owner thread only.
 */
final class Utf8JsonLinesWriter extends Utf8OutputWriter {
  private static final JsonFactory FACTORY = new JsonFactory();
  private static final byte[] TICK = Utf8TextWriter.ascii("{\"tick\":");
  private static final byte[] OUTPUTS = Utf8TextWriter.ascii(",\"outputs\":{");
  private static final byte[] TRUE = Utf8TextWriter.ascii("true");
  private static final byte[] FALSE = Utf8TextWriter.ascii("false");
  private static final byte[] NULL = Utf8TextWriter.ascii("null");
  private final StringWriter generated = new StringWriter(64);

  Utf8JsonLinesWriter(OutputStream out, boolean closeTarget) {
    super(out, closeTarget);
  }

  /** {@code "name":} as Jackson writes a field name. */
  @Override
  byte[] nameBytes(String name) throws IOException {
    generated.getBuffer().setLength(0);
    try (JsonGenerator g = FACTORY.createGenerator(generated)) {
      g.writeStartObject();
      g.writeFieldName(name);
      g.writeNull();
      g.writeEndObject();
    }
    String s = generated.toString(); // {"name":null}
    return s.substring(1, s.length() - "null}".length()).getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public void feed(long tick, RowLayout layout, Row row) throws IOException {
    int n = row.width();
    int first = 0;
    while (first < n && row.kind(first) == Kind.NOVAL) {
      first++;
    }
    if (first == n) {
      return; // no present output: no line, as in the text format
    }
    useLayout(layout);
    put(TICK);
    putLong(tick);
    put(OUTPUTS);
    for (int i = first; i < n; i++) {
      byte kind = row.kind(i);
      if (kind == Kind.NOVAL) {
        continue;
      }
      if (i != first) {
        put((byte) ',');
      }
      put(names[i]);
      value(kind, row.bits(i), row.ref(i));
    }
    ensure(3);
    buf[pos++] = '}';
    buf[pos++] = '}';
    buf[pos++] = '\n';
  }

  private void value(byte kind, long bits, Object ref) throws IOException {
    switch (kind) {
      case Kind.INT:
        putLong(bits);
        return;
      case Kind.BOOL:
        put(bits != 0 ? TRUE : FALSE);
        return;
      case Kind.UNIT:
        put(NULL);
        return;
      case Kind.FLOAT: {
        double d = Double.longBitsToDouble(bits);
        if (Double.isFinite(d)) {
          putText(ValueFormat.formatFloat(d)); // as JsonGenerator.writeNumber(String): raw
          return;
        }
        break;
      }
      case Kind.STR:
        if (plain((String) ref)) {
          String s = (String) ref;
          ensure(s.length() + 2);
          buf[pos++] = '"';
          for (int i = 0; i < s.length(); i++) {
            buf[pos++] = (byte) s.charAt(i);
          }
          buf[pos++] = '"';
          return;
        }
        break;
      default:
        break;
    }
    generated.getBuffer().setLength(0);
    try (JsonGenerator g = FACTORY.createGenerator(generated)) {
      JsonValues.write(g, Kind.box(kind, bits, ref));
    }
    putText(generated.getBuffer());
  }

  /** Printable ASCII without a quote or a backslash: Jackson writes it unescaped. */
  private static boolean plain(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\') {
        return false;
      }
    }
    return true;
  }
}
