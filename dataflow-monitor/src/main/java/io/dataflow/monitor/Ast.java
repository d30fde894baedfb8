package io.dataflow.monitor;

import io.dataflow.core.Value;
import java.util.List;

/**
 * The syntax tree of a specification: the grammar on one screen. Every node carries the line
 * and column where it starts. Nodes are immutable; the checker keeps its findings in side
 * tables.
 */
final class Ast {
  private Ast() {}

  /** A position in the specification text. */
  record Pos(int line, int column) {}

  /** How a stream is declared. */
  enum StreamKind {
    IN, OUT, AUX;

    String word() {
      return this == IN ? "input" : this == OUT ? "output" : "aux";
    }
  }

  /** A whole specification: declarations and equations in source order. */
  record Spec(List<Decl> decls, List<Equation> equations) {}

  /** {@code in|out|aux NAME (: Type)? (= Expr)?}; {@code inline} is the inline equation. */
  record Decl(StreamKind kind, String name, Type type, Pos pos, Equation inline) {}

  /** {@code NAME = Expr}. */
  record Equation(String name, Expr expr, Pos pos) {}

  /** Unary operators. */
  enum UnOp {
    NEG("-"), NOT("!");

    final String symbol;

    UnOp(String symbol) {
      this.symbol = symbol;
    }
  }

  /** Binary operators. */
  enum BinOp {
    ADD("+"), SUB("-"), MUL("*"), DIV("/"), MOD("%"), POW("**"),
    EQ("=="), NE("!="), LT("<"), LE("<="), GT(">"), GE(">="),
    AND("&&"), OR("||"), IMPLIES("=>"), CONCAT("++");

    final String symbol;

    BinOp(String symbol) {
      this.symbol = symbol;
    }

    boolean isArithmetic() {
      return ordinal() <= MOD.ordinal();
    }

    boolean isOrdering() {
      return this == LT || this == LE || this == GT || this == GE;
    }

    boolean isLogical() {
      return this == AND || this == OR || this == IMPLIES;
    }
  }

  /** Whether a dynamic property may change its body ({@code dynamic}/{@code eval}) or not. */
  enum DynKind {
    DYNAMIC, DEFER
  }

  /** An expression. */
  sealed interface Expr
      permits Lit, Var, Unary, Binary, If, Index, ListLit, MapLit, Call, Dynamic, Lambda, Apply {
    Pos pos();
  }

  /** A literal Int, Float, Str, Bool or Unit. */
  record Lit(Value value, Pos pos) implements Expr {}

  /** A reference to a stream or a lambda parameter. */
  record Var(String name, Pos pos) implements Expr {}

  /** {@code -e}, {@code !e}. */
  record Unary(UnOp op, Expr operand, Pos pos) implements Expr {}

  /** {@code a op b}; {@code pos} is the operator's position. */
  record Binary(BinOp op, Expr left, Expr right, Pos pos) implements Expr {}

  /** {@code if c then a else b}. */
  record If(Expr cond, Expr then, Expr otherwise, Pos pos) implements Expr {}

  /** {@code e[n]}: the value of {@code e} {@code n} ticks ago. */
  record Index(Expr target, int offset, Pos pos) implements Expr {}

  /** {@code [a, b]} or {@code List(a, b)}. */
  record ListLit(List<Expr> elements, Pos pos) implements Expr {}

  /** {@code {"k": e}} or {@code Map("k": e)}. */
  record MapLit(List<String> keys, List<Expr> values, Pos pos) implements Expr {}

  /**
   * A built-in or special form: {@code default}, {@code init}, {@code List.get}, {@code abs},
   * ... {@code key} is the string-literal key argument of the {@code Map.*} forms.
   */
  record Call(String function, List<Expr> args, String key, Pos pos) implements Expr {}

  /**
   * {@code dynamic(s)}, {@code eval(s)}, {@code defer(s)}; {@code scope} is the explicit set of
   * readable streams or null, {@code type} the declared result type or null.
   */
  record Dynamic(DynKind kind, Expr source, List<String> scope, Type type, Pos pos)
      implements Expr {}

  /** {@code \x: T, y: U -> body}. */
  record Lambda(List<Param> params, Expr body, Pos pos) implements Expr {}

  /** A lambda parameter; {@code type} may be null (Any). */
  record Param(String name, Type type, Pos pos) {}

  /** {@code f(a, b)} where {@code f} is a function value. */
  record Apply(Expr function, List<Expr> args, Pos pos) implements Expr {}
}
