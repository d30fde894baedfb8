package io.dataflow.io;

import io.dataflow.core.Kind;
import io.dataflow.io.internal.NameTable;
import io.dataflow.io.internal.PendingTick;
import java.nio.charset.StandardCharsets;

/**
 * Reads the usual JSON Lines tick from its bytes, without a string per name or a boxed value:
 * a flat object in strict JSON whose names are plain (ASCII letters, digits, {@code _}) and
 * whose values are integers of up to 18 digits, numbers with a fraction or an exponent,
 * {@code true}, {@code false}, {@code null} or strings of printable ASCII without escapes, with
 * spaces or tabs around. Any other line is {@link #GENERAL}: the source decodes it and Jackson
 * reads it (the JSON5 conveniences, nested values, control lines, every error), so this scanner
 * never decides what a line means when it is not sure, and never reports an error.
 *
 * <p>Thread-safety: one reading thread.
 */
final class JsonLineScanner {
  /** A tick: its values are {@link #pending()}. */
  static final int TICK = 0;
  /** Only spaces or tabs, or a {@code //} comment line: skipped. */
  static final int BLANK = 1;
  /** For the general path. */
  static final int GENERAL = 2;

  private final PendingTick pending = new PendingTick();
  private final NameTable names = new NameTable();
  private byte kind;
  private long bits;
  private Object ref;

  /** The values of the last {@link #TICK}, in the line's order (the last of a name wins). */
  PendingTick pending() {
    return pending;
  }

  /** Scans the line in {@code b} from {@code from} to {@code to}. */
  int scan(byte[] b, int from, int to) {
    int i = blanks(b, from, to);
    if (i == to || (b[i] == '/' && i + 1 < to && b[i + 1] == '/')) {
      return BLANK;
    }
    if (b[i] != '{') {
      return GENERAL;
    }
    return object(b, i, to) == to ? TICK : general();
  }

  /**
   * Reads a usual tick line that starts at {@code from} and ends at its first {@code \n} or
   * {@code \r} before {@code limit}, or at {@code limit} (the end of the stream): the index of
   * the line's end, with its values {@link #pending()}; -1 for any other line (blank, a
   * comment, the general path), which the caller reads again with {@link #scan}. The line's
   * bytes are read once: no token of the usual line holds a terminator, so the first one ends
   * it (docs/performance.md, "Issue 21, twelfth round").
   */
  int scanLine(byte[] b, int from, int limit) {
    int i = blanks(b, from, limit);
    if (i == limit || b[i] != '{') {
      return -1;
    }
    int end = object(b, i, limit);
    if (end == limit || (end >= 0 && (b[end] == '\n' || b[end] == '\r'))) {
      return end;
    }
    pending.clear();
    return -1;
  }

  /**
   * Reads the object at {@code i} (a {@code '{'}) into {@link #pending()}: the index after it
   * and the blanks that follow, or -1 for the general path.
   */
  private int object(byte[] b, int i, int to) {
    pending.clear();
    i = blanks(b, i + 1, to);
    if (i < to && b[i] == '}') {
      return blanks(b, i + 1, to);
    }
    while (true) {
      if (i >= to || b[i] != '"') {
        return -1;
      }
      int nameStart = ++i;
      while (i < to && plainNameByte(b[i])) {
        i++;
      }
      if (i == nameStart || i >= to || b[i] != '"') {
        return -1;
      }
      int nameEnd = i;
      i = blanks(b, i + 1, to);
      if (i >= to || b[i] != ':') {
        return -1;
      }
      i = value(b, blanks(b, i + 1, to), to);
      if (i < 0) {
        return -1;
      }
      pending.put(names.intern(b, nameStart, nameEnd), kind, bits, ref);
      i = blanks(b, i, to);
      if (i < to && b[i] == ',') {
        i = blanks(b, i + 1, to);
        continue;
      }
      if (i < to && b[i] == '}') {
        return blanks(b, i + 1, to);
      }
      return -1;
    }
  }

  private int general() {
    pending.clear();
    return GENERAL;
  }

  /** Reads one value into the fields; the index after it, or -1 for the general path. */
  private int value(byte[] b, int from, int to) {
    if (from >= to) {
      return -1;
    }
    byte c = b[from];
    ref = null;
    bits = 0;
    switch (c) {
      case '"': {
        int i = from + 1;
        while (i < to && b[i] != '"') {
          if (b[i] < 0x20 || b[i] == '\\' || b[i] == 0x7f) {
            return -1; // non-ASCII (negative), controls, escapes
          }
          i++;
        }
        if (i >= to) {
          return -1;
        }
        kind = Kind.STR;
        ref = new String(b, from + 1, i - from - 1, StandardCharsets.ISO_8859_1);
        return i + 1;
      }
      case 't':
        kind = Kind.BOOL;
        bits = 1;
        return word(b, from, to, "true");
      case 'f':
        kind = Kind.BOOL;
        return word(b, from, to, "false");
      case 'n':
        kind = Kind.UNIT;
        return word(b, from, to, "null");
      default:
        return number(b, from, to);
    }
  }

  private static int word(byte[] b, int from, int to, String word) {
    int n = word.length();
    if (to - from < n) {
      return -1;
    }
    for (int k = 0; k < n; k++) {
      if (b[from + k] != word.charAt(k)) {
        return -1;
      }
    }
    return from + n; // what follows must be a separator: the caller checks
  }

  /** Strict JSON numbers: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
  private int number(byte[] b, int from, int to) {
    int i = from;
    boolean negative = b[i] == '-';
    if (negative) {
      i++;
    }
    int digits = i;
    long v = 0;
    while (i < to && b[i] >= '0' && b[i] <= '9') {
      if (i - digits == 18) {
        return -1; // perhaps out of range: Jackson and the value codec decide
      }
      v = v * 10 + (b[i++] - '0');
    }
    if (i == digits || (b[digits] == '0' && i - digits > 1)) {
      return -1;
    }
    boolean isFloat = false;
    if (i < to && b[i] == '.') {
      int f = ++i;
      while (i < to && b[i] >= '0' && b[i] <= '9') {
        i++;
      }
      if (i == f) {
        return -1;
      }
      isFloat = true;
    }
    if (i < to && (b[i] == 'e' || b[i] == 'E')) {
      i++;
      if (i < to && (b[i] == '-' || b[i] == '+')) {
        i++;
      }
      int e = i;
      while (i < to && b[i] >= '0' && b[i] <= '9') {
        i++;
      }
      if (i == e) {
        return -1;
      }
      isFloat = true;
    }
    if (isFloat) {
      kind = Kind.FLOAT;
      bits = Double.doubleToRawLongBits(Double.parseDouble(
          new String(b, from, i - from, StandardCharsets.ISO_8859_1)));
    } else {
      kind = Kind.INT;
      bits = negative ? -v : v;
    }
    return i;
  }

  private static boolean plainNameByte(byte c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
        || c == '_';
  }

  private static int blanks(byte[] b, int from, int to) {
    int i = from;
    while (i < to && (b[i] == ' ' || b[i] == '\t')) {
      i++;
    }
    return i;
  }
}
