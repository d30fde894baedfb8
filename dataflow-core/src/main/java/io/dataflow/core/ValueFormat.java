package io.dataflow.core;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;

/**
 * The text rendering of values (docs/language.md#text-output) and the string rules shared by the
 * specification lexer, the trace reader and the writers.
 *
 * <p>Floats print like Rust's {@code {:?}}: the shortest digits that round-trip, in plain
 * notation with at least one fractional digit when {@code 1e-4 <= |x| < 1e16}, otherwise in
 * exponent form ({@code 1e16}, {@code 2.5e-7}). JDK 17's {@code Double.toString} is not always
 * shortest, so the digits are computed here.
 *
 * <p>Thread-safety: stateless.
 */
public final class ValueFormat {
  /** Orders strings by Unicode code point (not by UTF-16 unit). */
  public static final Comparator<String> CODE_POINT_ORDER = ValueFormat::compareCodePoints;

  private ValueFormat() {}

  /** Renders a value in the text output format: {@code Int(3)}, {@code List([Int(1)])}, ... */
  public static String format(Value value) {
    StringBuilder sb = new StringBuilder(16);
    appendTo(sb, value);
    return sb.toString();
  }

  /** Appends the text rendering of a value. */
  public static void appendTo(StringBuilder sb, Value value) {
    if (value instanceof Value.List list) {
      sb.append("List([");
      Iterator<Value> it = list.elements().iterator();
      while (it.hasNext()) {
        appendTo(sb, it.next());
        if (it.hasNext()) {
          sb.append(", ");
        }
      }
      sb.append("])");
    } else if (value instanceof Value.Map map) {
      sb.append("Map({");
      Iterator<Map.Entry<String, Value>> it = map.entries().entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<String, Value> e = it.next();
        sb.append(quote(e.getKey())).append(": ");
        appendTo(sb, e.getValue());
        if (it.hasNext()) {
          sb.append(", ");
        }
      }
      sb.append("})");
    } else {
      sb.append(value.toString());
    }
  }

  /**
   * Appends the text rendering of an unboxed value (see {@link Kind}); scalars are written
   * without allocating a {@link Value}.
   */
  public static void appendTo(StringBuilder sb, byte kind, long bits, Object ref) {
    switch (kind) {
      case Kind.INT:
        sb.append("Int(").append(bits).append(')');
        break;
      case Kind.BOOL:
        sb.append(bits != 0 ? "Bool(true)" : "Bool(false)");
        break;
      case Kind.FLOAT:
        sb.append("Float(").append(formatFloat(Double.longBitsToDouble(bits))).append(')');
        break;
      case Kind.STR:
        sb.append("Str(").append(quote((String) ref)).append(')');
        break;
      default:
        appendTo(sb, Kind.box(kind, bits, ref));
    }
  }

  /** Quotes a string: {@code "} and {@code \} are escaped, as are newline, tab and controls. */
  public static String quote(String s) {
    StringBuilder sb = new StringBuilder(s.length() + 2);
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          sb.append("\\\"");
          break;
        case '\\':
          sb.append("\\\\");
          break;
        case '\n':
          sb.append("\\n");
          break;
        case '\t':
          sb.append("\\t");
          break;
        case '\r':
          sb.append("\\r");
          break;
        case '\0':
          sb.append("\\0");
          break;
        default:
          if (c < 0x20 || c == 0x7f) {
            // Rust's escape_debug form, so output stays one line per value.
            sb.append("\\u{").append(Integer.toHexString(c)).append('}');
          } else {
            sb.append(c);
          }
      }
    }
    return sb.append('"').toString();
  }

  /**
   * Decodes the escapes of a string literal body ({@code \n \t \" \\ \'}).
   *
   * @return the decoded string
   * @throws IllegalArgumentException with the offset of a bad escape in its message
   */
  public static String unescape(CharSequence body) {
    StringBuilder sb = null;
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c != '\\') {
        if (sb != null) {
          sb.append(c);
        }
        continue;
      }
      if (sb == null) {
        sb = new StringBuilder(body.length());
        sb.append(body, 0, i);
      }
      int escapeAt = i;
      if (++i >= body.length()) {
        throw new BadEscapeException(escapeAt, "unterminated escape");
      }
      char e = body.charAt(i);
      switch (e) {
        case 'n':
          sb.append('\n');
          break;
        case 't':
          sb.append('\t');
          break;
        case '"':
          sb.append('"');
          break;
        case '\\':
          sb.append('\\');
          break;
        case '\'':
          sb.append('\'');
          break;
        default:
          throw new BadEscapeException(escapeAt, "unknown escape '\\" + e + "'");
      }
    }
    return sb == null ? body.toString() : sb.toString();
  }

  /** A bad escape in a string literal; {@link #offset()} is where the backslash is. */
  public static final class BadEscapeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final int offset;

    BadEscapeException(int offset, String message) {
      super(message);
      this.offset = offset;
    }

    /** The offset of the backslash within the literal body. */
    public int offset() {
      return offset;
    }
  }

  /** Compares two strings by Unicode code point. */
  public static int compareCodePoints(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char ca = a.charAt(i);
      char cb = b.charAt(i);
      if (ca != cb) {
        // Surrogates (high code points) sort after every BMP char, unlike in UTF-16 order.
        boolean sa = Character.isSurrogate(ca);
        boolean sb = Character.isSurrogate(cb);
        if (sa != sb) {
          return sa ? 1 : -1;
        }
        return ca - cb;
      }
    }
    return a.length() - b.length();
  }

  /** Formats a double like Rust's {@code {:?}} (without the {@code Float(...)} wrapper). */
  public static String formatFloat(double d) {
    if (Double.isNaN(d)) {
      return "NaN";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "inf" : "-inf";
    }
    if (d == 0.0) {
      return (Double.doubleToRawLongBits(d) < 0) ? "-0.0" : "0.0";
    }
    double abs = Math.abs(d);
    BigDecimal shortest = shortestRoundTrip(abs);
    String digits = shortest.unscaledValue().toString();
    int exp = digits.length() - 1 - shortest.scale(); // value = d.ddd * 10^exp
    StringBuilder sb = new StringBuilder(24);
    if (d < 0) {
      sb.append('-');
    }
    if (abs >= 1e16 || abs < 1e-4) {
      sb.append(digits.charAt(0));
      if (digits.length() > 1) {
        sb.append('.').append(digits, 1, digits.length());
      }
      sb.append('e').append(exp);
    } else if (exp >= 0) {
      if (digits.length() <= exp + 1) {
        sb.append(digits);
        for (int i = digits.length(); i <= exp; i++) {
          sb.append('0');
        }
        sb.append(".0");
      } else {
        sb.append(digits, 0, exp + 1).append('.').append(digits, exp + 1, digits.length());
      }
    } else {
      sb.append("0.");
      for (int i = -1; i > exp; i--) {
        sb.append('0');
      }
      sb.append(digits);
    }
    return sb.toString();
  }

  /** The decimal with the fewest significant digits that parses back to {@code abs} exactly. */
  private static BigDecimal shortestRoundTrip(double abs) {
    BigDecimal exact = new BigDecimal(abs);
    for (int p = 1; p <= 17; p++) {
      // Rust's {:?} breaks a tie between two shortest candidates upwards (Dragon4's "round up
      // when the remainder is exactly half"), not to even: 562949953421312.25 prints ...312.3.
      BigDecimal nearest = exact.round(new MathContext(p, RoundingMode.HALF_UP));
      if (nearest.doubleValue() == abs) {
        return nearest.stripTrailingZeros();
      }
      // At a power of two the rounding interval is lopsided: the nearest p-digit decimal may
      // miss while the one on the other side still round-trips.
      BigDecimal down = exact.round(new MathContext(p, RoundingMode.DOWN));
      BigDecimal up = exact.round(new MathContext(p, RoundingMode.UP));
      BigDecimal other = nearest.compareTo(down) == 0 ? up : down;
      if (other.doubleValue() == abs) {
        return other.stripTrailingZeros();
      }
    }
    return exact.round(MathContext.DECIMAL64).stripTrailingZeros();
  }
}
