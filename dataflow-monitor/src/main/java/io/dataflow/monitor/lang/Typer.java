package io.dataflow.monitor.lang;

import io.dataflow.core.Value;
import io.dataflow.monitor.lang.Ast.BinOp;
import io.dataflow.monitor.lang.Ast.Expr;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Static types: infers a type for every expression (kept in a side table) and checks operator
 * operands and annotated streams. In {@link TypingLevel#UNTYPED} every type is {@code Any} and
 * nothing is reported.
 */
public final class Typer {
  private final Diagnostics diags;
  private final TypingLevel mode;
  private final Map<String, Type> streamTypes;
  private final Map<Expr, Type> types = new IdentityHashMap<>();

  private Typer(Diagnostics diags, TypingLevel mode, Map<String, Type> streamTypes) {
    this.diags = diags;
    this.mode = mode;
    this.streamTypes = streamTypes;
  }

  /** The declared type of every stream as the typer sees it ({@code Any} when unannotated). */
  public static Map<String, Type> streamTypes(List<Checker.Stream> streams, TypingLevel mode) {
    Map<String, Type> m = new HashMap<>();
    for (Checker.Stream s : streams) {
      m.put(s.name(), mode == TypingLevel.UNTYPED || s.declared() == null ? Type.ANY
          : s.declared());
    }
    return m;
  }

  /**
   * Types every equation. Returns the expression type table; for each annotated stream whose
   * expression type is not certainly a subtype of its annotation, {@code needsCheck} is set.
   */
  static Map<Expr, Type> check(List<Checker.Stream> streams, TypingLevel mode, Diagnostics diags,
      boolean[] needsCheck) {
    Typer t = new Typer(diags, mode, streamTypes(streams, mode));
    for (Checker.Stream s : streams) {
      if (mode == TypingLevel.STRICT && s.declared() == null) {
        diags.error(s.pos(), "strict typing: stream '" + s.name() + "' needs a type annotation");
      }
      if (s.equation() == null) {
        continue;
      }
      Type actual = t.type(s.equation().expr(), Map.of());
      Type declared = t.streamTypes.get(s.name());
      if (s.kind() == Ast.StreamKind.OUT && actual instanceof Type.Fn
          && mode != TypingLevel.UNTYPED) {
        diags.error(s.equation().pos(), "output stream '" + s.name()
            + "' cannot carry a function (declare it aux)");
      }
      if (declared.isAny()) {
        continue;
      }
      if (!Type.consistent(actual, declared)) {
        diags.error(s.equation().expr().pos(), "type mismatch: stream '" + s.name()
            + "' is declared " + declared + " but its equation has type " + actual);
      } else if (!Type.subtype(actual, declared)) {
        if (mode == TypingLevel.STRICT) {
          diags.error(s.equation().expr().pos(), "strict typing: stream '" + s.name()
              + "' is declared " + declared + " but its equation has type " + actual);
        }
        needsCheck[s.index()] = true;
      }
    }
    return t.types;
  }

  /** Types a dynamic property's body against the given stream types and expected type. */
  public static Map<Expr, Type> checkBody(Expr body, Map<String, Type> streamTypes,
      TypingLevel mode, Diagnostics diags) {
    Typer t = new Typer(diags, mode, streamTypes);
    t.type(body, Map.of());
    return t.types;
  }

  Type type(Expr e, Map<String, Type> locals) {
    Type t = mode == TypingLevel.UNTYPED ? untyped(e, locals) : infer(e, locals);
    types.put(e, t);
    return t;
  }

  /** Visits children so that every node has an entry, all {@code Any}. */
  private Type untyped(Expr e, Map<String, Type> locals) {
    forEachChild(e, locals, (c, l) -> type(c, l));
    if (e instanceof Ast.Call c) {
      // Untyped still needs the arity: a built-in called with too few arguments would
      // otherwise crash while the monitor is built.
      BuiltinTypes.checkArity(c, diags);
    }
    return e instanceof Ast.Lambda lam ? new Type.Fn(
        lam.params().stream().map(p -> Type.ANY).toList(), Type.ANY) : Type.ANY;
  }

  private interface ChildVisitor {
    void visit(Expr child, Map<String, Type> locals);
  }

  private static void forEachChild(Expr e, Map<String, Type> locals, ChildVisitor v) {
    if (e instanceof Ast.Unary u) {
      v.visit(u.operand(), locals);
    } else if (e instanceof Ast.Binary b) {
      v.visit(b.left(), locals);
      v.visit(b.right(), locals);
    } else if (e instanceof Ast.If i) {
      v.visit(i.cond(), locals);
      v.visit(i.then(), locals);
      v.visit(i.otherwise(), locals);
    } else if (e instanceof Ast.Index ix) {
      v.visit(ix.target(), locals);
    } else if (e instanceof Ast.ListLit l) {
      l.elements().forEach(x -> v.visit(x, locals));
    } else if (e instanceof Ast.MapLit m) {
      m.values().forEach(x -> v.visit(x, locals));
    } else if (e instanceof Ast.Call c) {
      c.args().forEach(x -> v.visit(x, locals));
    } else if (e instanceof Ast.Dynamic d) {
      v.visit(d.source(), locals);
    } else if (e instanceof Ast.Lambda lam) {
      Map<String, Type> inner = new HashMap<>(locals);
      lam.params().forEach(p -> inner.put(p.name(), Type.ANY));
      v.visit(lam.body(), inner);
    } else if (e instanceof Ast.Apply a) {
      v.visit(a.function(), locals);
      a.args().forEach(x -> v.visit(x, locals));
    }
  }

  private Type infer(Expr e, Map<String, Type> locals) {
    if (e instanceof Ast.Lit l) {
      return literalType(l.value());
    }
    if (e instanceof Ast.Var v) {
      Type local = locals.get(v.name());
      if (local != null) {
        return local;
      }
      return streamTypes.getOrDefault(v.name(), Type.ANY);
    }
    if (e instanceof Ast.Unary u) {
      return unary(u, type(u.operand(), locals));
    }
    if (e instanceof Ast.Binary b) {
      return binary(b, type(b.left(), locals), type(b.right(), locals));
    }
    if (e instanceof Ast.If i) {
      Type c = type(i.cond(), locals);
      requireBool(c, i.cond().pos(), "the condition of if");
      return Type.join(type(i.then(), locals), type(i.otherwise(), locals));
    }
    if (e instanceof Ast.Index ix) {
      return type(ix.target(), locals);
    }
    if (e instanceof Ast.ListLit l) {
      Type elem = null;
      for (Expr x : l.elements()) {
        Type t = type(x, locals);
        elem = elem == null ? t : Type.join(elem, t);
      }
      return new Type.ListOf(elem == null ? Type.ANY : elem);
    }
    if (e instanceof Ast.MapLit m) {
      Type elem = null;
      for (Expr x : m.values()) {
        Type t = type(x, locals);
        elem = elem == null ? t : Type.join(elem, t);
      }
      return new Type.MapOf(elem == null ? Type.ANY : elem);
    }
    if (e instanceof Ast.Call c) {
      return new BuiltinTypes(this, diags).call(c, locals);
    }
    if (e instanceof Ast.Dynamic d) {
      Type src = type(d.source(), locals);
      Type produced = Type.ANY;
      if (src instanceof Type.ExprOf ex) {
        produced = ex.result();
      } else if (!src.isAny() && !src.equals(Type.STR)) {
        diags.error(d.source().pos(), "the source of a dynamic property must be Str or Expr<T>, "
            + "found " + src);
      }
      if (d.type() != null) {
        if (!Type.consistent(produced, d.type())) {
          diags.error(d.pos(), "dynamic property declared " + d.type() + " but its source "
              + "produces " + produced);
        }
        return d.type();
      }
      return produced;
    }
    if (e instanceof Ast.Lambda lam) {
      Map<String, Type> inner = new HashMap<>(locals);
      List<Type> params = lam.params().stream()
          .map(p -> p.type() == null ? Type.ANY : p.type()).toList();
      for (int i = 0; i < params.size(); i++) {
        inner.put(lam.params().get(i).name(), params.get(i));
      }
      return new Type.Fn(params, type(lam.body(), inner));
    }
    if (e instanceof Ast.Apply a) {
      Type f = type(a.function(), locals);
      List<Type> args = a.args().stream().map(x -> type(x, locals)).toList();
      return apply(f, args, a.pos(), "function");
    }
    throw new IllegalStateException("unhandled node " + e);
  }

  /** The result of applying a value of type {@code f} to arguments of the given types. */
  Type apply(Type f, List<Type> args, Ast.Pos pos, String what) {
    if (f.isAny()) {
      return Type.ANY;
    }
    if (!(f instanceof Type.Fn fn)) {
      diags.error(pos, "cannot call a value of type " + f);
      return Type.ANY;
    }
    if (fn.params().size() != args.size()) {
      diags.error(pos, what + " expects " + fn.params().size() + " argument"
          + (fn.params().size() == 1 ? "" : "s") + ", got " + args.size());
      return fn.result();
    }
    for (int i = 0; i < args.size(); i++) {
      if (!Type.consistent(args.get(i), fn.params().get(i))) {
        diags.error(pos, what + " argument " + (i + 1) + " has type " + args.get(i)
            + ", expected " + fn.params().get(i));
      }
    }
    return fn.result();
  }

  static Type literalType(Value v) {
    switch (v.kind()) {
      case io.dataflow.core.Kind.INT:
        return Type.INT;
      case io.dataflow.core.Kind.FLOAT:
        return Type.FLOAT;
      case io.dataflow.core.Kind.STR:
        return Type.STR;
      case io.dataflow.core.Kind.BOOL:
        return Type.BOOL;
      case io.dataflow.core.Kind.UNIT:
        return Type.UNIT;
      default:
        return Type.ANY;
    }
  }

  private Type unary(Ast.Unary u, Type t) {
    if (u.op() == Ast.UnOp.NEG) {
      if (t.isNumeric() || t.isAny()) {
        return t;
      }
      diags.error(u.pos(), "operator '-' cannot be applied to " + t);
      return Type.ANY;
    }
    requireBool(t, u.pos(), "operator '!'");
    return Type.BOOL;
  }

  private Type binary(Ast.Binary b, Type l, Type r) {
    BinOp op = b.op();
    if (op.isArithmetic() || op == BinOp.POW) {
      if (!(l.isNumeric() || l.isAny()) || !(r.isNumeric() || r.isAny())) {
        diags.error(b.pos(), operands(op, l, r));
        return Type.ANY;
      }
      if (l.equals(Type.FLOAT) || r.equals(Type.FLOAT)) {
        return Type.FLOAT;
      }
      if (l.equals(Type.INT) && r.equals(Type.INT)) {
        return op == BinOp.POW ? powerType(b.right()) : Type.INT;
      }
      return Type.ANY;
    }
    if (op.isOrdering()) {
      boolean ok = (isOrderable(l) && isOrderable(r))
          && (l.isAny() || r.isAny() || (l.isNumeric() && r.isNumeric()) || l.equals(r));
      if (!ok) {
        diags.error(b.pos(), operands(op, l, r));
      }
      return Type.BOOL;
    }
    if (op == BinOp.EQ || op == BinOp.NE) {
      return Type.BOOL;
    }
    if (op.isLogical()) {
      if (!(l.equals(Type.BOOL) || l.isAny()) || !(r.equals(Type.BOOL) || r.isAny())) {
        diags.error(b.pos(), operands(op, l, r));
      }
      return Type.BOOL;
    }
    // CONCAT
    if (!(l.equals(Type.STR) || l.isAny()) || !(r.equals(Type.STR) || r.isAny())) {
      diags.error(b.pos(), operands(op, l, r));
    }
    return Type.STR;
  }

  /** {@code Int ** Int} is an Int for a non-negative exponent and a Float otherwise. */
  private static Type powerType(Expr exponent) {
    if (exponent instanceof Ast.Lit lit && lit.value() instanceof Value.Int) {
      return Type.INT;
    }
    if (exponent instanceof Ast.Unary u && u.op() == Ast.UnOp.NEG
        && u.operand() instanceof Ast.Lit lit && lit.value() instanceof Value.Int i
        && i.value() > 0) {
      return Type.FLOAT;
    }
    return Type.ANY;
  }

  private static boolean isOrderable(Type t) {
    return t.isAny() || t.isNumeric() || t.equals(Type.BOOL) || t.equals(Type.STR);
  }

  private static String operands(BinOp op, Type l, Type r) {
    return "operator '" + op.symbol + "' cannot be applied to " + l + " and " + r;
  }

  void requireBool(Type t, Ast.Pos pos, String what) {
    if (!t.equals(Type.BOOL) && !t.isAny()) {
      diags.error(pos, what + " needs Bool, found " + t);
    }
  }
}
