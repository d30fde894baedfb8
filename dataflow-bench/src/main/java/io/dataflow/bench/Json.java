package io.dataflow.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader for JMH's result file: objects become {@code Map<String, Object>}, arrays
 * {@code List<Object>}, numbers {@code Double}, plus strings, booleans and null. JMH writes
 * non-finite scores as the strings {@code "NaN"}, {@code "Infinity"}; {@link #number} reads
 * those too.
 *
 * <p>Thread-safety: a reader is used by one thread.
 */
final class Json {
  private final String s;
  private int pos;

  private Json(String s) {
    this.s = s;
  }

  /** Parses one JSON document. */
  static Object parse(String text) {
    Json j = new Json(text);
    Object v = j.value();
    j.skipSpace();
    if (j.pos != text.length()) {
      throw j.error("trailing characters");
    }
    return v;
  }

  /** A number or a non-finite number written as a string, else NaN. */
  static double number(Object v) {
    if (v instanceof Double d) {
      return d;
    }
    if (v instanceof String str) {
      try {
        return Double.parseDouble(str);
      } catch (NumberFormatException e) {
        return Double.NaN;
      }
    }
    return Double.NaN;
  }

  private Object value() {
    skipSpace();
    if (pos >= s.length()) {
      throw error("unexpected end");
    }
    char c = s.charAt(pos);
    switch (c) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return string();
      case 't':
        return literal("true", Boolean.TRUE);
      case 'f':
        return literal("false", Boolean.FALSE);
      case 'n':
        return literal("null", null);
      default:
        return numberToken();
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> m = new LinkedHashMap<>();
    pos++;
    skipSpace();
    if (peek() == '}') {
      pos++;
      return m;
    }
    while (true) {
      skipSpace();
      String key = string();
      skipSpace();
      expect(':');
      m.put(key, value());
      skipSpace();
      if (peek() == ',') {
        pos++;
      } else {
        expect('}');
        return m;
      }
    }
  }

  private List<Object> array() {
    List<Object> l = new ArrayList<>();
    pos++;
    skipSpace();
    if (peek() == ']') {
      pos++;
      return l;
    }
    while (true) {
      l.add(value());
      skipSpace();
      if (peek() == ',') {
        pos++;
      } else {
        expect(']');
        return l;
      }
    }
  }

  private String string() {
    expect('"');
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (pos >= s.length()) {
        throw error("unterminated string");
      }
      char c = s.charAt(pos++);
      if (c == '"') {
        return sb.toString();
      }
      if (c != '\\') {
        sb.append(c);
        continue;
      }
      char e = s.charAt(pos++);
      switch (e) {
        case 'n':
          sb.append('\n');
          break;
        case 't':
          sb.append('\t');
          break;
        case 'r':
          sb.append('\r');
          break;
        case 'b':
          sb.append('\b');
          break;
        case 'f':
          sb.append('\f');
          break;
        case 'u':
          sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
          pos += 4;
          break;
        default:
          sb.append(e); // \" \\ \/
      }
    }
  }

  private Double numberToken() {
    int start = pos;
    while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
      pos++;
    }
    if (start == pos) {
      throw error("unexpected character '" + s.charAt(pos) + "'");
    }
    return Double.parseDouble(s.substring(start, pos));
  }

  private Object literal(String word, Object v) {
    if (!s.startsWith(word, pos)) {
      throw error("expected " + word);
    }
    pos += word.length();
    return v;
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private char peek() {
    return pos < s.length() ? s.charAt(pos) : '\0';
  }

  private void skipSpace() {
    while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("JSON at offset " + pos + ": " + what);
  }
}
