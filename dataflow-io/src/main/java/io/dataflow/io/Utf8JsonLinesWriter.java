package io.dataflow.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.dataflow.core.Kind;
import io.dataflow.core.TickColumns;
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

  /**
   * Tick {@code t} of a batch's columns, one line. The whole row is written here, through the
   * buffer and the position held in locals, with one room check per part: the prefix and the tick
   * number, then per value its name with an Int, a Bool or Unit; other values through {@link
   * #value}. This method is longer than C2 inlines into a hot caller (325 bytes of bytecode, {@code
   * -XX:FreqInlineSize}) on purpose: it is compiled once, by itself, and not again inside every
   * compile of the output session's and the engine's loops that call it (docs/decisions.md, "A
   * writer's row is one method, too long to inline").
   */
  @Override
  void row(long tick, TickColumns c, int t) throws IOException {
    int n = c.width();
    int first = 0;
    while (first < n && c.kind(first, t) == Kind.NOVAL) {
      first++;
    }
    if (first == n) {
      return; // no present output: no line, as in the text format
    }
    byte[][] names = this.names;
    ensure(TICK.length + 20 + OUTPUTS.length);
    byte[] b = buf;
    int p = pos;
    System.arraycopy(TICK, 0, b, p, TICK.length);
    p = digits(b, p + TICK.length, tick);
    System.arraycopy(OUTPUTS, 0, b, p, OUTPUTS.length);
    pos = p + OUTPUTS.length;
    for (int i = first; i < n; i++) {
      byte kind = c.kind(i, t);
      if (kind == Kind.NOVAL) {
        continue;
      }
      byte[] name = names[i];
      ensure(name.length + 21); // a comma, the name, and an Int (20), a Bool or Unit
      b = buf;
      p = pos;
      if (i != first) {
        b[p++] = ',';
      }
      System.arraycopy(name, 0, b, p, name.length);
      p += name.length;
      if (kind == Kind.INT) {
        p = digits(b, p, c.bits(i, t));
      } else if (kind == Kind.BOOL) {
        byte[] word = c.bits(i, t) != 0 ? TRUE : FALSE;
        System.arraycopy(word, 0, b, p, word.length);
        p += word.length;
      } else if (kind == Kind.UNIT) {
        System.arraycopy(NULL, 0, b, p, NULL.length);
        p += NULL.length;
      } else {
        pos = p;
        value(kind, c.bits(i, t), c.ref(i, t));
        continue;
      }
      pos = p;
    }
    ensure(3);
    b = buf;
    p = pos;
    b[p] = '}';
    b[p + 1] = '}';
    b[p + 2] = '\n';
    pos = p + 3;
  }

  /** A value of another kind than Int, Bool and Unit, after its name. */
  private void value(byte kind, long bits, Object ref) throws IOException {
    switch (kind) {
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
