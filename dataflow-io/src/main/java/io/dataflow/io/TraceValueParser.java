package io.dataflow.io;

import io.dataflow.core.Value;
import io.dataflow.core.ValueFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Parses one value of a trace file: Int ({@code -3}), Float ({@code 1.5}, {@code 1e6}, must
 * contain {@code .} or an exponent; also {@code inf}, {@code -inf}, {@code NaN}), a string
 * with the specification's escapes, {@code true}, {@code false}, {@code ()}, lists
 * ({@code List(1, 2)} or {@code [1, 2]}) and maps ({@code Map("k": 1)} or {@code {"k": 1}}).
 * A {@code //} comment may follow the value.
 */
final class TraceValueParser {
  private final String text;
  private int pos;

  /** A failure with the offset in the text where it happened. */
  static final class Failure extends Exception {
    private static final long serialVersionUID = 1L;
    final int offset;

    Failure(int offset, String message) {
      super(message, null, false, false);
      this.offset = offset;
    }
  }

  private int nesting;

  private TraceValueParser(String text, int start) {
    this.text = text;
    this.pos = start;
  }

  /** Parses the value starting at {@code start}; the rest of the line may only be a comment. */
  static Value parse(String text, int start) throws Failure {
    TraceValueParser p = new TraceValueParser(text, start);
    p.skipSpace();
    if (p.pos >= text.length()) {
      throw new Failure(p.pos, "expected a value");
    }
    Value v = p.value();
    p.skipSpace();
    if (p.pos < text.length() && !text.startsWith("//", p.pos)) {
      throw new Failure(p.pos, "unexpected text after the value: '" + text.substring(p.pos)
          + "'");
    }
    return v;
  }

  /** Lists and maps may nest this deep: values are printed and compared recursively. */
  static final int MAX_NESTING = 256;

  private Value value() throws Failure {
    if (++nesting > MAX_NESTING) {
      throw new Failure(pos, "value nested more than " + MAX_NESTING + " levels deep");
    }
    try {
      return unnested();
    } finally {
      nesting--;
    }
  }

  private Value unnested() throws Failure {
    skipSpace();
    if (pos >= text.length()) {
      throw new Failure(pos, "expected a value");
    }
    char c = text.charAt(pos);
    if (c == '"') {
      return string();
    }
    if (c == '[') {
      pos++;
      return new Value.List(items(']'));
    }
    if (c == '{') {
      pos++;
      return map('}');
    }
    if (c == '(') {
      int at = pos;
      pos++;
      skipSpace();
      if (pos < text.length() && text.charAt(pos) == ')') {
        pos++;
        return Value.UNIT;
      }
      throw new Failure(at, "expected '()'");
    }
    if (c == '-' || c == '+' || (c >= '0' && c <= '9')) {
      return number();
    }
    if (Character.isLetter(c)) {
      int start = pos;
      while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos))
          || text.charAt(pos) == '_')) {
        pos++;
      }
      String word = text.substring(start, pos);
      switch (word) {
        case "true":
          return Value.TRUE;
        case "false":
          return Value.FALSE;
        case "inf":
          return Value.of(Double.POSITIVE_INFINITY);
        case "NaN":
          return Value.of(Double.NaN);
        case "List":
          expect('(');
          return new Value.List(items(')'));
        case "Map":
          expect('(');
          return map(')');
        default:
          throw new Failure(start, "unknown value '" + word + "'");
      }
    }
    throw new Failure(pos, "unexpected character '" + c + "'");
  }

  private Value number() throws Failure {
    int start = pos;
    if (text.charAt(pos) == '-' || text.charAt(pos) == '+') {
      pos++;
    }
    if (text.startsWith("inf", pos)) {
      pos += 3;
      return Value.of(text.charAt(start) == '-' ? Double.NEGATIVE_INFINITY
          : Double.POSITIVE_INFINITY);
    }
    int digits = pos;
    while (pos < text.length() && isDigit(text.charAt(pos))) {
      pos++;
    }
    if (pos == digits) {
      throw new Failure(start, "expected a number");
    }
    boolean isFloat = false;
    if (pos + 1 < text.length() && text.charAt(pos) == '.' && isDigit(text.charAt(pos + 1))) {
      isFloat = true;
      pos++;
      while (pos < text.length() && isDigit(text.charAt(pos))) {
        pos++;
      }
    }
    if (pos < text.length() && (text.charAt(pos) == 'e' || text.charAt(pos) == 'E')) {
      int e = pos + 1;
      if (e < text.length() && (text.charAt(e) == '-' || text.charAt(e) == '+')) {
        e++;
      }
      if (e < text.length() && isDigit(text.charAt(e))) {
        isFloat = true;
        pos = e;
        while (pos < text.length() && isDigit(text.charAt(pos))) {
          pos++;
        }
      }
    }
    if (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos))
        || text.charAt(pos) == '.')) {
      throw new Failure(start, "malformed number");
    }
    String literal = text.substring(start, pos);
    if (isFloat) {
      return Value.of(Double.parseDouble(literal));
    }
    try {
      return Value.of(Long.parseLong(literal.startsWith("+") ? literal.substring(1) : literal));
    } catch (NumberFormatException ex) {
      throw new Failure(start, "integer out of range: " + literal);
    }
  }

  private Value string() throws Failure {
    int start = pos;
    pos++;
    int bodyStart = pos;
    while (true) {
      if (pos >= text.length()) {
        throw new Failure(start, "unterminated string");
      }
      char c = text.charAt(pos);
      if (c == '"') {
        break;
      }
      if (c == '\\') {
        pos++;
      }
      pos++;
    }
    String body = text.substring(bodyStart, pos);
    pos++;
    try {
      return Value.of(ValueFormat.unescape(body));
    } catch (ValueFormat.BadEscapeException e) {
      throw new Failure(bodyStart + e.offset(), e.getMessage());
    }
  }

  private List<Value> items(char close) throws Failure {
    List<Value> items = new ArrayList<>();
    skipSpace();
    while (pos < text.length() && text.charAt(pos) != close) {
      Value v = value();
      if (!v.isPresent()) {
        throw new Failure(pos, "a list cannot hold " + v);
      }
      items.add(v);
      skipSpace();
      if (pos < text.length() && text.charAt(pos) == ',') {
        pos++;
        skipSpace();
      } else {
        break;
      }
    }
    expect(close);
    return items;
  }

  private Value map(char close) throws Failure {
    TreeMap<String, Value> entries = new TreeMap<>(ValueFormat.CODE_POINT_ORDER);
    skipSpace();
    while (pos < text.length() && text.charAt(pos) != close) {
      skipSpace();
      if (pos >= text.length() || text.charAt(pos) != '"') {
        throw new Failure(pos, "expected a quoted map key");
      }
      String key = ((Value.Str) string()).value();
      expect(':');
      entries.put(key, value());
      skipSpace();
      if (pos < text.length() && text.charAt(pos) == ',') {
        pos++;
        skipSpace();
      } else {
        break;
      }
    }
    expect(close);
    return new Value.Map(entries);
  }

  private void expect(char c) throws Failure {
    skipSpace();
    if (pos >= text.length() || text.charAt(pos) != c) {
      throw new Failure(pos, "expected '" + c + "'");
    }
    pos++;
  }

  /** ASCII only: Character.isDigit accepts other scripts' digits, which parseDouble rejects. */
  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private void skipSpace() {
    while (pos < text.length() && (text.charAt(pos) == ' ' || text.charAt(pos) == '\t'
        || text.charAt(pos) == '\r')) {
      pos++;
    }
  }
}
