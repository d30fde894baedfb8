package io.dataflow.testkit;

import io.dataflow.core.Value;
import io.dataflow.testkit.ReferenceModel.Node;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses the expressions {@link SpecGenerator} writes into {@link ReferenceModel} nodes, with
 * the precedence of docs/language.md#operators, and defines the operators' value semantics from
 * docs/language.md#arithmetic. Independent of the monitor's parser on purpose.
 */
final class ExprParser {
  private final String src;
  private final ReferenceModel model;
  private int pos;

  ExprParser(String src, ReferenceModel model) {
    this.src = src;
    this.model = model;
  }

  Node parse() {
    Node n = expr();
    skip();
    if (pos != src.length()) {
      throw error("trailing text");
    }
    return n;
  }

  private Node expr() {
    if (keyword("if")) {
      Node c = expr();
      expectKeyword("then");
      Node a = expr();
      expectKeyword("else");
      Node b = expr();
      return model.ifThenElse(c, a, b);
    }
    Node left = implies();
    while (symbol("++")) {
      left = model.strict(a -> Value.of(str(a[0]) + str(a[1])), left, implies());
    }
    return left;
  }

  private Node implies() {
    Node left = or();
    while (symbol("=>")) {
      left = model.strict(a -> Value.of(!bool(a[0]) || bool(a[1])), left, or());
    }
    return left;
  }

  private Node or() {
    Node left = and();
    while (symbol("||") || keyword("or")) {
      left = model.strict(a -> Value.of(bool(a[0]) | bool(a[1])), left, and());
    }
    return left;
  }

  private Node and() {
    Node left = equality();
    while (symbol("&&") || keyword("and")) {
      left = model.strict(a -> Value.of(bool(a[0]) & bool(a[1])), left, equality());
    }
    return left;
  }

  private Node equality() {
    Node left = compare();
    while (true) {
      if (symbol("==")) {
        left = model.strict(a -> Value.of(equal(a[0], a[1])), left, compare());
      } else if (symbol("!=")) {
        left = model.strict(a -> Value.of(!equal(a[0], a[1])), left, compare());
      } else {
        return left;
      }
    }
  }

  private Node compare() {
    Node left = additive();
    while (true) {
      String op = symbol("<=") ? "<=" : symbol(">=") ? ">=" : symbol("<") ? "<"
          : symbol(">") ? ">" : null;
      if (op == null) {
        return left;
      }
      left = model.strict(a -> Value.of(order(op, a[0], a[1])), left, additive());
    }
  }

  private Node additive() {
    Node left = term();
    while (true) {
      if (peek("++")) {
        return left;
      }
      char op = symbol("+") ? '+' : symbol("-") ? '-' : 0;
      if (op == 0) {
        return left;
      }
      left = model.strict(a -> arithmetic(op, a[0], a[1]), left, term());
    }
  }

  private Node term() {
    Node left = unary();
    while (true) {
      if (peek("**")) {
        return left;
      }
      char op = symbol("*") ? '*' : symbol("/") ? '/' : symbol("%") ? '%' : 0;
      if (op == 0) {
        return left;
      }
      left = model.strict(a -> arithmetic(op, a[0], a[1]), left, unary());
    }
  }

  private Node unary() {
    if (symbol("-")) {
      return model.strict(a -> negate(a[0]), unary());
    }
    if (!peek("!=") && symbol("!") || keyword("not")) {
      return model.strict(a -> Value.of(!bool(a[0])), unary());
    }
    return power();
  }

  private Node power() {
    Node base = postfix();
    if (symbol("**")) {
      return model.strict(a -> pow(a[0], a[1]), base, unary());
    }
    return base;
  }

  private Node postfix() {
    int start = pos;
    Node n = atom();
    String direct = directName(src.substring(start, pos).trim());
    while (symbol("[")) {
      skip();
      int from = pos;
      while (pos < src.length() && Character.isDigit(src.charAt(pos))) {
        pos++;
      }
      int k = Integer.parseInt(src.substring(from, pos));
      expect("]");
      n = k == 0 ? model.current(n) : model.delay(n, k, direct);
      direct = null;
    }
    return n;
  }

  /** The name of {@code x}, {@code (x)}, {@code ((x))}: grouping is not an operator. */
  private static String directName(String text) {
    String t = text;
    while (t.startsWith("(") && t.endsWith(")")) {
      t = t.substring(1, t.length() - 1).trim();
    }
    boolean literal = t.equals("true") || t.equals("false");
    return !literal && t.matches("[A-Za-z_][A-Za-z0-9_]*") ? t : null;
  }

  private Node atom() {
    skip();
    if (symbol("(")) {
      Node e = expr();
      expect(")");
      return e;
    }
    char c = src.charAt(pos);
    if (c == '"') {
      return model.constant(Value.of(string()));
    }
    if (Character.isDigit(c)) {
      return model.constant(number());
    }
    String name = identifier();
    if (name.equals("true") || name.equals("false")) {
      return model.constant(Value.of(name.equals("true")));
    }
    skip();
    if (pos < src.length() && src.charAt(pos) == '(') {
      return call(name);
    }
    return model.reference(name);
  }

  private Node call(String fn) {
    expect("(");
    List<Node> args = new ArrayList<>();
    do {
      args.add(expr());
    } while (symbol(","));
    expect(")");
    switch (fn) {
      case "default":
        return model.defaultOf(args.get(0), args.get(1));
      case "init":
        return model.init(args.get(0), args.get(1));
      case "update":
        return model.update(args.get(0), args.get(1));
      case "latch":
        return model.latch(args.get(0), args.get(1));
      case "is_defined":
        return model.isDefined(args.get(0));
      case "when":
        return model.when(args.get(0));
      case "abs":
        return model.strict(a -> a[0] instanceof Value.Int i ? Value.of(exact(() ->
            Math.absExact(i.value()))) : Value.of(Math.abs(num(a[0]))), args.get(0));
      case "sqrt":
        return model.strict(a -> Value.of(Math.sqrt(num(a[0]))), args.get(0));
      case "sin":
        return model.strict(a -> Value.of(Math.sin(num(a[0]))), args.get(0));
      case "cos":
        return model.strict(a -> Value.of(Math.cos(num(a[0]))), args.get(0));
      case "tan":
        return model.strict(a -> Value.of(Math.tan(num(a[0]))), args.get(0));
      default:
        throw error("unknown function " + fn);
    }
  }

  // ---------------------------------------------------------------- value semantics

  static Value arithmetic(char op, Value a, Value b) {
    if (a instanceof Value.Int x && b instanceof Value.Int y) {
      long l = x.value();
      long r = y.value();
      switch (op) {
        case '+':
          return Value.of(exact(() -> Math.addExact(l, r)));
        case '-':
          return Value.of(exact(() -> Math.subtractExact(l, r)));
        case '*':
          return Value.of(exact(() -> Math.multiplyExact(l, r)));
        case '/':
          if (r == 0 || (l == Long.MIN_VALUE && r == -1)) {
            throw new IllegalStateException("runtime error: " + l + " / " + r);
          }
          return Value.of(l / r);
        default:
          if (r == 0) {
            throw new IllegalStateException("runtime error: " + l + " % " + r);
          }
          return Value.of(l % r);
      }
    }
    double l = num(a);
    double r = num(b);
    switch (op) {
      case '+':
        return Value.of(l + r);
      case '-':
        return Value.of(l - r);
      case '*':
        return Value.of(l * r);
      case '/':
        return Value.of(l / r);
      default:
        return Value.of(l % r);
    }
  }

  static Value pow(Value a, Value b) {
    if (a instanceof Value.Int x && b instanceof Value.Int y && y.value() >= 0) {
      long r = 1;
      for (long i = 0; i < y.value(); i++) {
        long acc = r;
        r = exact(() -> Math.multiplyExact(acc, x.value()));
      }
      return Value.of(r);
    }
    return Value.of(Math.pow(num(a), num(b)));
  }

  static Value negate(Value a) {
    if (a instanceof Value.Int i) {
      return Value.of(exact(() -> Math.negateExact(i.value())));
    }
    return Value.of(-num(a));
  }

  /** Structural and type-sensitive; IEEE on floats. */
  static boolean equal(Value a, Value b) {
    if (a instanceof Value.Float x && b instanceof Value.Float y) {
      return x.value() == y.value();
    }
    return a.getClass() == b.getClass() && a.equals(b);
  }

  static boolean order(String op, Value a, Value b) {
    int c;
    if (a instanceof Value.Int x && b instanceof Value.Int y) {
      c = Long.compare(x.value(), y.value());
    } else if (a instanceof Value.Str x && b instanceof Value.Str y) {
      c = compareCodePoints(x.value(), y.value());
    } else if (a instanceof Value.Bool x && b instanceof Value.Bool y) {
      c = Boolean.compare(x.value(), y.value());
    } else {
      double l = num(a);
      double r = num(b);
      if (Double.isNaN(l) || Double.isNaN(r)) {
        return false;
      }
      c = l < r ? -1 : l > r ? 1 : 0;
    }
    switch (op) {
      case "<":
        return c < 0;
      case "<=":
        return c <= 0;
      case ">":
        return c > 0;
      default:
        return c >= 0;
    }
  }

  private static int compareCodePoints(String a, String b) {
    int[] x = a.codePoints().toArray();
    int[] y = b.codePoints().toArray();
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      if (x[i] != y[i]) {
        return Integer.compare(x[i], y[i]);
      }
    }
    return Integer.compare(x.length, y.length);
  }

  private interface LongOp {
    long get();
  }

  private static long exact(LongOp op) {
    try {
      return op.get();
    } catch (ArithmeticException e) {
      throw new IllegalStateException("runtime error: integer overflow", e);
    }
  }

  static double num(Value v) {
    if (v instanceof Value.Int i) {
      return i.value();
    }
    if (v instanceof Value.Float f) {
      return f.value();
    }
    throw new IllegalStateException("not a number: " + v);
  }

  static boolean bool(Value v) {
    if (v instanceof Value.Bool b) {
      return b.value();
    }
    throw new IllegalStateException("not a Bool: " + v);
  }

  static String str(Value v) {
    if (v instanceof Value.Str s) {
      return s.value();
    }
    throw new IllegalStateException("not a Str: " + v);
  }

  // ---------------------------------------------------------------- lexing

  private Value number() {
    int start = pos;
    while (pos < src.length() && Character.isDigit(src.charAt(pos))) {
      pos++;
    }
    boolean isFloat = false;
    if (pos + 1 < src.length() && src.charAt(pos) == '.'
        && Character.isDigit(src.charAt(pos + 1))) {
      isFloat = true;
      pos++;
      while (pos < src.length() && Character.isDigit(src.charAt(pos))) {
        pos++;
      }
    }
    if (pos < src.length() && (src.charAt(pos) == 'e' || src.charAt(pos) == 'E')) {
      isFloat = true;
      pos++;
      if (src.charAt(pos) == '-' || src.charAt(pos) == '+') {
        pos++;
      }
      while (pos < src.length() && Character.isDigit(src.charAt(pos))) {
        pos++;
      }
    }
    String text = src.substring(start, pos);
    return isFloat ? Value.of(Double.parseDouble(text)) : Value.of(Long.parseLong(text));
  }

  private String string() {
    StringBuilder sb = new StringBuilder();
    pos++;
    while (src.charAt(pos) != '"') {
      char c = src.charAt(pos++);
      if (c == '\\') {
        char e = src.charAt(pos++);
        sb.append(e == 'n' ? '\n' : e == 't' ? '\t' : e);
      } else {
        sb.append(c);
      }
    }
    pos++;
    return sb.toString();
  }

  private String identifier() {
    skip();
    int start = pos;
    while (pos < src.length()
        && (Character.isLetterOrDigit(src.charAt(pos)) || src.charAt(pos) == '_')) {
      pos++;
    }
    if (start == pos) {
      throw error("expected a name");
    }
    return src.substring(start, pos);
  }

  private void skip() {
    while (pos < src.length() && Character.isWhitespace(src.charAt(pos))) {
      pos++;
    }
  }

  private boolean peek(String s) {
    skip();
    return src.startsWith(s, pos);
  }

  private boolean symbol(String s) {
    if (peek(s)) {
      pos += s.length();
      return true;
    }
    return false;
  }

  private boolean keyword(String k) {
    skip();
    int end = pos + k.length();
    if (src.startsWith(k, pos) && (end == src.length()
        || !(Character.isLetterOrDigit(src.charAt(end)) || src.charAt(end) == '_'))) {
      pos = end;
      return true;
    }
    return false;
  }

  private void expect(String s) {
    if (!symbol(s)) {
      throw error("expected '" + s + "'");
    }
  }

  private void expectKeyword(String k) {
    if (!keyword(k)) {
      throw error("expected '" + k + "'");
    }
  }

  private IllegalStateException error(String message) {
    return new IllegalStateException(message + " at " + pos + " in " + src);
  }
}
