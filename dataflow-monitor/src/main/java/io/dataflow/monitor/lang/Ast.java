package io.dataflow.monitor.lang;

import io.dataflow.core.Value;
import java.util.List;

/**
 * The syntax tree of a specification: the grammar on one screen. Every node carries the line
 * and column where it starts. Nodes are immutable; the checker keeps its findings in side
 * tables. Public: the evaluator builds its nodes from it.
 */
public final class Ast {
  private Ast() {}

  /** A position in the specification text. */
  public record Pos(int line, int column) {}

  /** How a stream is declared. */
  public enum StreamKind {
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
  public record Equation(String name, Expr expr, Pos pos) {}

  /** Unary operators. */
  public enum UnOp {
    NEG("-"), NOT("!");

    final String symbol;

    UnOp(String symbol) {
      this.symbol = symbol;
    }
  }

  /** Binary operators. */
  public enum BinOp {
    ADD("+"), SUB("-"), MUL("*"), DIV("/"), MOD("%"), POW("**"),
    EQ("=="), NE("!="), LT("<"), LE("<="), GT(">"), GE(">="),
    AND("&&"), OR("||"), IMPLIES("=>"), CONCAT("++");

    /** The operator as written (the canonical spelling). */
    public final String symbol;

    BinOp(String symbol) {
      this.symbol = symbol;
    }

    public boolean isArithmetic() {
      return ordinal() <= MOD.ordinal();
    }

    public boolean isOrdering() {
      return this == LT || this == LE || this == GT || this == GE;
    }

    public boolean isLogical() {
      return this == AND || this == OR || this == IMPLIES;
    }
  }

  /** Whether a dynamic property may change its body ({@code dynamic}/{@code eval}) or not. */
  public enum DynKind {
    DYNAMIC, DEFER
  }

  /** An expression. */
  public sealed interface Expr
      permits Lit, Var, Unary, Binary, If, Index, ListLit, MapLit, Call, Dynamic, Lambda, Apply {
    Pos pos();
  }

  /** A literal Int, Float, Str, Bool or Unit. */
  public record Lit(Value value, Pos pos) implements Expr {}

  /** A reference to a stream or a lambda parameter. */
  public record Var(String name, Pos pos) implements Expr {}

  /** {@code -e}, {@code !e}. */
  public record Unary(UnOp op, Expr operand, Pos pos) implements Expr {}

  /** {@code a op b}; {@code pos} is the operator's position. */
  public record Binary(BinOp op, Expr left, Expr right, Pos pos) implements Expr {}

  /** {@code if c then a else b}. */
  public record If(Expr cond, Expr then, Expr otherwise, Pos pos) implements Expr {}

  /** {@code e[n]}: the value of {@code e} {@code n} ticks ago. */
  public record Index(Expr target, int offset, Pos pos) implements Expr {}

  /** {@code [a, b]} or {@code List(a, b)}. */
  public record ListLit(List<Expr> elements, Pos pos) implements Expr {}

  /** {@code {"k": e}} or {@code Map("k": e)}. */
  public record MapLit(List<String> keys, List<Expr> values, Pos pos) implements Expr {}

  /**
   * A built-in or special form: {@code default}, {@code init}, {@code List.get}, {@code abs},
   * ... {@code key} is the string-literal key argument of the {@code Map.*} forms.
   */
  public record Call(String function, List<Expr> args, String key, Pos pos) implements Expr {}

  /**
   * {@code dynamic(s)}, {@code eval(s)}, {@code defer(s)}; {@code scope} is the explicit set of
   * readable streams or null, {@code type} the declared result type or null.
   */
  public record Dynamic(DynKind kind, Expr source, List<String> scope, Type type, Pos pos)
      implements Expr {}

  /** {@code \x: T, y: U -> body}. */
  public record Lambda(List<Param> params, Expr body, Pos pos) implements Expr {}

  /** A lambda parameter; {@code type} may be null (Any). */
  public record Param(String name, Type type, Pos pos) {}

  /** {@code f(a, b)} where {@code f} is a function value. */
  public record Apply(Expr function, List<Expr> args, Pos pos) implements Expr {}
}
