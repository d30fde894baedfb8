package io.dataflow.runs.internal;

import java.util.Map;
import java.util.TreeMap;

/**
 * Canonical JSON of strings, nulls and nested maps: object keys sorted by UTF-16 code unit (as
 * RFC 8785), no whitespace, strings escaped minimally ({@code \"}, {@code \\}, control
 * characters as two-character escapes or six-character hex escapes). Equal requests give equal
 * bytes, so their hashes compare. Thread-safety: stateless.
 */
public final class CanonicalJson {
  private CanonicalJson() {}

  /** The canonical text of {@code value}: a {@code Map<String, ?>}, a {@code String} or null. */
  public static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    append(sb, value);
    return sb.toString();
  }

  private static void append(StringBuilder sb, Object value) {
    if (value == null) {
      sb.append("null");
    } else if (value instanceof String s) {
      string(sb, s);
    } else if (value instanceof Map<?, ?> m) {
      TreeMap<String, Object> sorted = new TreeMap<>();
      m.forEach((k, v) -> sorted.put((String) k, v));
      sb.append('{');
      boolean first = true;
      for (Map.Entry<String, Object> e : sorted.entrySet()) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        string(sb, e.getKey());
        sb.append(':');
        append(sb, e.getValue());
      }
      sb.append('}');
    } else {
      throw new IllegalArgumentException("canonical JSON holds strings and maps, not "
          + value.getClass().getName());
    }
  }

  private static void string(StringBuilder sb, String s) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    sb.append('"');
  }
}
