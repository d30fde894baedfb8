package io.dataflow.monitor.lang;

import io.dataflow.core.SourceLocation;
import io.dataflow.core.Value;
import io.dataflow.monitor.lang.Ast.BinOp;
import io.dataflow.monitor.lang.Ast.Expr;
import io.dataflow.monitor.lang.Ast.Pos;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Recursive-descent parser: one method per grammar rule, in precedence order (lowest first).
 *
 * <pre>{@code
 * spec     := (decl | equation)*
 * decl     := ('in' | 'out' | 'aux' | 'var') NAME (':' type)? ('=' expr)?
 * equation := NAME '=' expr
 * expr     := 'if' expr 'then' expr 'else' expr | lambda | concat
 * concat   := implies ('++' implies)*
 * implies  := or ('=>' or)*
 * or       := and (('||' | 'or') and)*
 * and      := equality (('&&' | 'and') equality)*
 * equality := compare (('==' | '!=') compare)*
 * compare  := additive (('<' | '<=' | '>' | '>=') additive)*
 * additive := term (('+' | '-') term)*
 * term     := unary (('*' | '/' | '%') unary)*
 * unary    := ('-' | '!' | 'not') unary | power
 * power    := postfix ('**' unary)?
 * postfix  := atom ('[' INT ']' | '(' args ')')*
 * }</pre>
 */
public final class Parser {
  /** Built-in functions called by plain name. */
  static final Set<String> PLAIN_BUILTINS =
      Set.of("default", "init", "is_defined", "when", "update", "latch",
          "abs", "sin", "cos", "tan", "sqrt");
  /** Built-in functions called as {@code List.name} / {@code Map.name}. */
  static final Set<String> LIST_BUILTINS =
      Set.of("get", "append", "concat", "head", "tail", "len", "map", "filter", "fold");
  static final Set<String> MAP_BUILTINS = Set.of("get", "insert", "remove", "has_key");

  /**
   * How deeply the parser may recurse (each parenthesis, if, lambda or prefix operator is about
   * two levels). The parser and every later pass recurse over the tree, so the limits keep a
   * hostile or generated text from running any of them off the end of the thread's stack.
   */
  static final int MAX_NESTING = 400;
  /** How deep an expression tree may be; in a chain {@code a + b + c} each operator is a level. */
  static final int MAX_DEPTH = 400;

  private final String file;
  private final List<Token> tokens;
  private int current;
  private int nesting;

  private Parser(String file, List<Token> tokens) {
    this.file = file;
    this.tokens = tokens;
  }

  /** Parses a whole specification. */
  static Ast.Spec parseSpec(String file, String source) {
    Parser p = new Parser(file, Lexer.tokenize(file, source));
    Ast.Spec spec = p.spec();
    for (Ast.Equation eq : spec.equations()) {
      p.checkDepth(eq.expr());
    }
    return spec;
  }

  /** Parses one expression that must span the whole text (a dynamic property's body). */
  public static Expr parseExpression(String file, String source) {
    Parser p = new Parser(file, Lexer.tokenize(file, source));
    Expr e = p.expr();
    if (!p.check(TokenKind.EOF)) {
      throw p.error(p.peek(), "expected end of expression, found " + p.peek().describe());
    }
    p.checkDepth(e);
    return e;
  }

  /** Rejects a tree deeper than {@link #MAX_DEPTH}, naming where it gets too deep. */
  private void checkDepth(Expr root) {
    java.util.ArrayDeque<Expr> nodes = new java.util.ArrayDeque<>();
    java.util.ArrayDeque<Integer> depths = new java.util.ArrayDeque<>();
    nodes.push(root);
    depths.push(1);
    while (!nodes.isEmpty()) {
      Expr e = nodes.pop();
      int d = depths.pop();
      if (d > MAX_DEPTH) {
        throw new CompileError(new SourceLocation(file, e.pos().line(), e.pos().column()),
            "expression nested more than " + MAX_DEPTH + " levels deep (in a chain like "
                + "a + b + c, each operator is a level)");
      }
      for (Expr c : Compiler.children(e)) {
        nodes.push(c);
        depths.push(d + 1);
      }
    }
  }

  private void nest() {
    if (++nesting > MAX_NESTING) {
      throw error(peek(), "expression nested too deeply (parentheses, ifs, lambdas and prefix "
          + "operators, more than " + MAX_NESTING / 2 + " levels)");
    }
  }

  private Ast.Spec spec() {
    List<Ast.Decl> decls = new ArrayList<>();
    List<Ast.Equation> equations = new ArrayList<>();
    while (!check(TokenKind.EOF)) {
      Token t = peek();
      switch (t.kind()) {
        case IN:
        case OUT:
        case AUX:
        case VAR:
          decls.add(declaration());
          break;
        case IDENT:
          equations.add(equation());
          break;
        default:
          throw error(t, "expected a declaration or an equation, found " + t.describe());
      }
    }
    return new Ast.Spec(List.copyOf(decls), List.copyOf(equations));
  }

  private Ast.Decl declaration() {
    Token kw = advance();
    Ast.StreamKind kind =
        kw.kind() == TokenKind.IN ? Ast.StreamKind.IN
            : kw.kind() == TokenKind.OUT ? Ast.StreamKind.OUT : Ast.StreamKind.AUX;
    Token name = expect(TokenKind.IDENT, "a stream name");
    Type type = null;
    if (match(TokenKind.COLON)) {
      type = type();
    }
    Ast.Equation inline = null;
    if (check(TokenKind.ASSIGN)) {
      Token assign = advance();
      if (kind == Ast.StreamKind.IN) {
        throw error(assign, "input stream '" + name.text() + "' cannot have an equation");
      }
      inline = new Ast.Equation(name.text(), expr(), pos(name));
    }
    return new Ast.Decl(kind, name.text(), type, pos(name), inline);
  }

  private Ast.Equation equation() {
    Token name = advance();
    expect(TokenKind.ASSIGN, "'='");
    return new Ast.Equation(name.text(), expr(), pos(name));
  }

  // ---- types ----

  Type type() {
    Type t = typeAtom();
    if (match(TokenKind.ARROW)) {
      return new Type.Fn(List.of(t), type());
    }
    return t;
  }

  private Type typeAtom() {
    Token t = peek();
    if (match(TokenKind.LPAREN)) {
      List<Type> parts = new ArrayList<>();
      if (!check(TokenKind.RPAREN)) {
        do {
          if (check(TokenKind.RPAREN)) {
            break;
          }
          parts.add(type());
        } while (match(TokenKind.COMMA));
      }
      expect(TokenKind.RPAREN, "')'");
      if (check(TokenKind.ARROW)) {
        advance();
        return new Type.Fn(parts, type());
      }
      if (parts.size() == 1) {
        return parts.get(0);
      }
      if (parts.isEmpty()) {
        return Type.UNIT;
      }
      throw error(t, "a parenthesised type list must be followed by '->'");
    }
    Token name = expect(TokenKind.IDENT, "a type");
    switch (name.text()) {
      case "Int":
        return Type.INT;
      case "Float":
        return Type.FLOAT;
      case "Str":
        return Type.STR;
      case "Bool":
        return Type.BOOL;
      case "Unit":
        return Type.UNIT;
      case "Any":
        return Type.ANY;
      case "List":
        return new Type.ListOf(typeArgument());
      case "Map":
        return new Type.MapOf(typeArgument());
      case "Expr":
        return new Type.ExprOf(typeArgument());
      default:
        throw error(name, "unknown type '" + name.text() + "'");
    }
  }

  private Type typeArgument() {
    expect(TokenKind.LT, "'<'");
    Type inner = type();
    expect(TokenKind.GT, "'>'");
    return inner;
  }

  // ---- expressions, lowest precedence first ----

  Expr expr() {
    nest();
    try {
      if (check(TokenKind.IF)) {
        return ifExpr();
      }
      if (check(TokenKind.BACKSLASH)) {
        return lambda();
      }
      return concat();
    } finally {
      nesting--;
    }
  }

  private Expr ifExpr() {
    Token kw = advance();
    Expr cond = expr();
    expect(TokenKind.THEN, "'then'");
    Expr then = expr();
    expect(TokenKind.ELSE, "'else' (an if needs both branches)");
    Expr otherwise = expr();
    return new Ast.If(cond, then, otherwise, pos(kw));
  }

  private Expr lambda() {
    Token slash = advance();
    List<Ast.Param> params = new ArrayList<>();
    do {
      Token name = expect(TokenKind.IDENT, "a parameter name");
      Type type = null;
      if (match(TokenKind.COLON)) {
        type = typeAtom();
      }
      params.add(new Ast.Param(name.text(), type, pos(name)));
    } while (match(TokenKind.COMMA));
    expect(TokenKind.ARROW, "'->'");
    return new Ast.Lambda(List.copyOf(params), expr(), pos(slash));
  }

  private Expr concat() {
    Expr left = implies();
    while (check(TokenKind.CONCAT)) {
      Token op = advance();
      left = new Ast.Binary(BinOp.CONCAT, left, implies(), pos(op));
    }
    return left;
  }

  private Expr implies() {
    Expr left = or();
    while (check(TokenKind.IMPLIES)) {
      Token op = advance();
      left = new Ast.Binary(BinOp.IMPLIES, left, or(), pos(op));
    }
    return left;
  }

  private Expr or() {
    Expr left = and();
    while (check(TokenKind.OROR) || check(TokenKind.OR)) {
      Token op = advance();
      left = new Ast.Binary(BinOp.OR, left, and(), pos(op));
    }
    return left;
  }

  private Expr and() {
    Expr left = equality();
    while (check(TokenKind.ANDAND) || check(TokenKind.AND)) {
      Token op = advance();
      left = new Ast.Binary(BinOp.AND, left, equality(), pos(op));
    }
    return left;
  }

  private Expr equality() {
    Expr left = compare();
    while (check(TokenKind.EQ) || check(TokenKind.NE)) {
      Token op = advance();
      BinOp bop = op.kind() == TokenKind.EQ ? BinOp.EQ : BinOp.NE;
      left = new Ast.Binary(bop, left, compare(), pos(op));
    }
    return left;
  }

  private Expr compare() {
    Expr left = additive();
    while (true) {
      BinOp bop;
      switch (peek().kind()) {
        case LT:
          bop = BinOp.LT;
          break;
        case LE:
          bop = BinOp.LE;
          break;
        case GT:
          bop = BinOp.GT;
          break;
        case GE:
          bop = BinOp.GE;
          break;
        default:
          return left;
      }
      Token op = advance();
      left = new Ast.Binary(bop, left, additive(), pos(op));
    }
  }

  private Expr additive() {
    Expr left = term();
    while (check(TokenKind.PLUS) || check(TokenKind.MINUS)) {
      Token op = advance();
      BinOp bop = op.kind() == TokenKind.PLUS ? BinOp.ADD : BinOp.SUB;
      left = new Ast.Binary(bop, left, term(), pos(op));
    }
    return left;
  }

  private Expr term() {
    Expr left = unary();
    while (check(TokenKind.STAR) || check(TokenKind.SLASH) || check(TokenKind.PERCENT)) {
      Token op = advance();
      BinOp bop =
          op.kind() == TokenKind.STAR ? BinOp.MUL
              : op.kind() == TokenKind.SLASH ? BinOp.DIV : BinOp.MOD;
      left = new Ast.Binary(bop, left, unary(), pos(op));
    }
    return left;
  }

  private Expr unary() {
    nest();
    try {
      if (check(TokenKind.MINUS)) {
        Token op = advance();
        return new Ast.Unary(Ast.UnOp.NEG, unary(), pos(op));
      }
      if (check(TokenKind.BANG) || check(TokenKind.NOT)) {
        Token op = advance();
        return new Ast.Unary(Ast.UnOp.NOT, unary(), pos(op));
      }
      return power();
    } finally {
      nesting--;
    }
  }

  private Expr power() {
    Expr base = postfix();
    if (check(TokenKind.POWER)) {
      Token op = advance();
      return new Ast.Binary(BinOp.POW, base, unary(), pos(op));
    }
    return base;
  }

  private Expr postfix() {
    Expr e = atom();
    while (true) {
      if (check(TokenKind.LBRACKET)) {
        Token open = advance();
        Token n = peek();
        if (n.kind() == TokenKind.MINUS) {
          throw error(n, "a history offset is a non-negative integer literal: write x[1] for "
              + "the previous value and default(x[1], d) for a fallback");
        }
        if (n.kind() != TokenKind.INT) {
          throw error(n, "expected a non-negative integer literal as history offset, found "
              + n.describe());
        }
        advance();
        long offset = (Long) n.literal();
        if (offset > 1_000_000) {
          throw error(n, "history offset " + offset + " is too large (at most 1000000)");
        }
        expect(TokenKind.RBRACKET, "']'");
        e = new Ast.Index(e, (int) offset, pos(open));
      } else if (check(TokenKind.LPAREN) && isApplicable(e)) {
        Token open = advance();
        e = new Ast.Apply(e, arguments(), pos(open));
      } else {
        return e;
      }
    }
  }

  private static boolean isApplicable(Expr e) {
    return e instanceof Ast.Var || e instanceof Ast.Lambda || e instanceof Ast.Apply;
  }

  /** Comma-separated expressions up to ')' (the '(' is consumed); a trailing comma is fine. */
  private List<Expr> arguments() {
    List<Expr> args = new ArrayList<>();
    while (!check(TokenKind.RPAREN)) {
      args.add(expr());
      if (!match(TokenKind.COMMA)) {
        break;
      }
    }
    expect(TokenKind.RPAREN, "',' or ')'");
    return List.copyOf(args);
  }

  private Expr atom() {
    Token t = peek();
    switch (t.kind()) {
      case INT:
        advance();
        return new Ast.Lit(Value.of((Long) t.literal()), pos(t));
      case FLOAT:
        advance();
        if (Double.isInfinite((Double) t.literal())) {
          throw error(t, "float literal out of range: " + t.text());
        }
        return new Ast.Lit(Value.of((Double) t.literal()), pos(t));
      case STRING:
        advance();
        return new Ast.Lit(Value.of((String) t.literal()), pos(t));
      case TRUE:
        advance();
        return new Ast.Lit(Value.TRUE, pos(t));
      case FALSE:
        advance();
        return new Ast.Lit(Value.FALSE, pos(t));
      case IF:
        return ifExpr();
      case BACKSLASH:
        return lambda();
      case LPAREN:
        advance();
        if (match(TokenKind.RPAREN)) {
          return new Ast.Lit(Value.UNIT, pos(t));
        }
        Expr inner = expr();
        expect(TokenKind.RPAREN, "')'");
        return inner;
      case LBRACKET:
        advance();
        return new Ast.ListLit(elements(TokenKind.RBRACKET, "']'"), pos(t));
      case LBRACE:
        advance();
        return mapBody(t, TokenKind.RBRACE, "'}'");
      case IDENT:
        return nameOrCall();
      default:
        throw error(t, "expected an expression, found " + t.describe());
    }
  }

  private List<Expr> elements(TokenKind close, String closeText) {
    List<Expr> items = new ArrayList<>();
    while (!check(close)) {
      items.add(expr());
      if (!match(TokenKind.COMMA)) {
        break;
      }
    }
    expect(close, "',' or " + closeText);
    return List.copyOf(items);
  }

  /** Map entries {@code "k": e} (or {@code k: e}, or shorthand {@code k}) up to the closer. */
  private Expr mapBody(Token start, TokenKind close, String closeText) {
    List<String> keys = new ArrayList<>();
    List<Expr> values = new ArrayList<>();
    while (!check(close)) {
      Token key = peek();
      String k;
      if (key.kind() == TokenKind.STRING) {
        advance();
        k = (String) key.literal();
      } else if (key.kind() == TokenKind.IDENT) {
        advance();
        k = key.text();
        if (!check(TokenKind.COLON)) {
          // {x} is short for {"x": x}
          keys.add(k);
          values.add(new Ast.Var(k, pos(key)));
          if (!match(TokenKind.COMMA)) {
            break;
          }
          continue;
        }
      } else {
        throw error(key, "expected a map key (a string literal), found " + key.describe());
      }
      expect(TokenKind.COLON, "':'");
      keys.add(k);
      values.add(expr());
      if (!match(TokenKind.COMMA)) {
        break;
      }
    }
    expect(close, "',' or " + closeText);
    return new Ast.MapLit(List.copyOf(keys), List.copyOf(values), pos(start));
  }

  private Expr nameOrCall() {
    Token name = advance();
    String n = name.text();
    if ((n.equals("List") || n.equals("Map")) && check(TokenKind.DOT)) {
      advance();
      Token member = expect(TokenKind.IDENT, "a function name");
      String qualified = n + "." + member.text();
      Set<String> known = n.equals("List") ? LIST_BUILTINS : MAP_BUILTINS;
      if (!known.contains(member.text())) {
        throw error(member, "unknown function '" + qualified + "'");
      }
      expect(TokenKind.LPAREN, "'('");
      if (n.equals("Map")) {
        return mapCall(qualified, name);
      }
      return new Ast.Call(qualified, arguments(), null, pos(name));
    }
    if (!check(TokenKind.LPAREN)) {
      return new Ast.Var(n, pos(name));
    }
    switch (n) {
      case "List":
        advance();
        return new Ast.ListLit(elements(TokenKind.RPAREN, "')'"), pos(name));
      case "Map":
        advance();
        return mapBody(name, TokenKind.RPAREN, "')'");
      case "dynamic":
      case "eval":
        advance();
        return dynamic(Ast.DynKind.DYNAMIC, name);
      case "defer":
        advance();
        return dynamic(Ast.DynKind.DEFER, name);
      default:
        if (PLAIN_BUILTINS.contains(n)) {
          advance();
          return new Ast.Call(n, arguments(), null, pos(name));
        }
        return new Ast.Var(n, pos(name)); // an application; postfix() takes the arguments
    }
  }

  /** {@code Map.f(m, "k" [, v])}: the key must be a string literal. */
  private Expr mapCall(String qualified, Token name) {
    Expr map = expr();
    expect(TokenKind.COMMA, "','");
    Token key = peek();
    if (key.kind() != TokenKind.STRING) {
      throw error(key, qualified + " needs a string literal key, found " + key.describe());
    }
    advance();
    List<Expr> args = new ArrayList<>();
    args.add(map);
    if (qualified.equals("Map.insert")) {
      expect(TokenKind.COMMA, "','");
      args.add(expr());
    }
    match(TokenKind.COMMA);
    expect(TokenKind.RPAREN, "')'");
    return new Ast.Call(qualified, List.copyOf(args), (String) key.literal(), pos(name));
  }

  /** {@code dynamic(s [: T] [, {a, b}])}; the '(' is consumed. */
  private Expr dynamic(Ast.DynKind kind, Token name) {
    Expr source = expr();
    Type type = null;
    if (match(TokenKind.COLON)) {
      type = type();
    }
    List<String> scope = null;
    if (match(TokenKind.COMMA) && !check(TokenKind.RPAREN)) {
      expect(TokenKind.LBRACE, "'{' starting the set of streams the property may read");
      List<String> names = new ArrayList<>();
      while (!check(TokenKind.RBRACE)) {
        names.add(expect(TokenKind.IDENT, "a stream name").text());
        if (!match(TokenKind.COMMA)) {
          break;
        }
      }
      expect(TokenKind.RBRACE, "',' or '}'");
      scope = List.copyOf(names);
      match(TokenKind.COMMA);
    }
    expect(TokenKind.RPAREN, "')'");
    return new Ast.Dynamic(kind, source, scope, type, pos(name));
  }

  // ---- token plumbing ----

  private Token peek() {
    return tokens.get(current);
  }

  private boolean check(TokenKind kind) {
    return peek().kind() == kind;
  }

  private boolean match(TokenKind kind) {
    if (check(kind)) {
      advance();
      return true;
    }
    return false;
  }

  private Token advance() {
    Token t = tokens.get(current);
    if (t.kind() != TokenKind.EOF) {
      current++;
    }
    return t;
  }

  private Token expect(TokenKind kind, String what) {
    Token t = peek();
    if (t.kind() != kind) {
      throw error(t, "expected " + what + ", found " + t.describe());
    }
    return advance();
  }

  private static Pos pos(Token t) {
    return new Pos(t.line(), t.column());
  }

  private CompileError error(Token t, String message) {
    return new CompileError(new SourceLocation(file, t.line(), t.column()), message);
  }
}
