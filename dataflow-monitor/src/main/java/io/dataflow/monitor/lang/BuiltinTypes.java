package io.dataflow.monitor.lang;

import io.dataflow.monitor.lang.Ast.Expr;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The static side of the built-in functions and special forms: their arity and their types.
 * Their value semantics are the evaluator's ({@code io.dataflow.monitor.eval.Builtins}).
 */
final class BuiltinTypes {
  private final Typer typer;
  private final Diagnostics diags;

  BuiltinTypes(Typer typer, Diagnostics diags) {
    this.typer = typer;
    this.diags = diags;
  }

  Type call(Ast.Call c, Map<String, Type> locals) {
    List<Type> args = new ArrayList<>();
    for (Expr a : c.args()) {
      args.add(typer.type(a, locals));
    }
    String f = c.function();
    if (!checkArity(c, diags)) {
      return Type.ANY;
    }
    switch (f) {
      case "default":
      case "init":
      case "update":
        return Type.join(args.get(0), args.get(1));
      case "latch":
        return args.get(0);
      case "is_defined":
      case "when":
        return Type.BOOL;
      case "abs":
        if (args.get(0).isNumeric() || args.get(0).isAny()) {
          return args.get(0);
        }
        return bad(c, args.get(0));
      case "sin":
      case "cos":
      case "tan":
      case "sqrt":
        if (!args.get(0).isNumeric() && !args.get(0).isAny()) {
          bad(c, args.get(0));
        }
        return Type.FLOAT;
      default:
        return f.startsWith("List.") ? listCall(c, args) : mapCall(c, args);
    }
  }

  private Type listCall(Ast.Call c, List<Type> args) {
    String f = c.function();
    if (f.equals("List.map") || f.equals("List.filter") || f.equals("List.fold")) {
      return higherOrder(c, args);
    }
    Type elem = elementOf(c, args.get(0));
    switch (f) {
      case "List.get":
        if (!args.get(1).equals(Type.INT) && !args.get(1).isAny()) {
          bad(c, args.get(1));
        }
        return elem;
      case "List.append":
        return new Type.ListOf(Type.join(elem, args.get(1)));
      case "List.concat":
        return new Type.ListOf(Type.join(elem, elementOf(c, args.get(1))));
      case "List.head":
        return elem;
      case "List.tail":
        return new Type.ListOf(elem);
      default: // List.len
        return Type.INT;
    }
  }

  private Type higherOrder(Ast.Call c, List<Type> args) {
    String f = c.function();
    Type fn = args.get(0);
    if (f.equals("List.fold")) {
      Type elem = elementOf(c, args.get(2));
      Type acc = args.get(1);
      Type result = typer.apply(fn, List.of(acc, elem), c.pos(), "the callback of List.fold");
      return Type.join(acc, result);
    }
    Type elem = elementOf(c, args.get(1));
    Type result = typer.apply(fn, List.of(elem), c.pos(), "the callback of " + f);
    if (f.equals("List.filter")) {
      typer.requireBool(result, c.pos(), "the callback of List.filter");
      return new Type.ListOf(elem);
    }
    return new Type.ListOf(result);
  }

  private Type mapCall(Ast.Call c, List<Type> args) {
    Type m = args.get(0);
    Type elem = Type.ANY;
    if (m instanceof Type.MapOf mo) {
      elem = mo.element();
    } else if (!m.isAny()) {
      bad(c, m);
    }
    switch (c.function()) {
      case "Map.get":
        return elem;
      case "Map.insert":
        return new Type.MapOf(Type.join(elem, args.get(1)));
      case "Map.remove":
        return new Type.MapOf(elem);
      default: // Map.has_key
        return Type.BOOL;
    }
  }

  private Type elementOf(Ast.Call c, Type t) {
    if (t instanceof Type.ListOf l) {
      return l.element();
    }
    if (!t.isAny()) {
      bad(c, t);
    }
    return Type.ANY;
  }

  private Type bad(Ast.Call c, Type t) {
    diags.error(c.pos(), c.function() + " cannot be applied to " + t);
    return Type.ANY;
  }

  /** Arity of each call form (the key of {@code Map.*} is not counted). */
  static int arity(String function) {
    switch (function) {
      case "is_defined":
      case "when":
      case "abs":
      case "sin":
      case "cos":
      case "tan":
      case "sqrt":
      case "List.head":
      case "List.tail":
      case "List.len":
      case "Map.get":
      case "Map.remove":
      case "Map.has_key":
        return 1;
      case "List.fold":
        return 3;
      default:
        return 2;
    }
  }

  /**
   * Reports a call with the wrong number of arguments. Every typing mode needs this check (the
   * node builder indexes the arguments), so it is not only a type error.
   */
  static boolean checkArity(Ast.Call c, Diagnostics diags) {
    int arity = arity(c.function());
    if (c.args().size() != arity) {
      diags.error(c.pos(), c.function() + " expects " + arity + " argument"
          + (arity == 1 ? "" : "s") + ", got " + c.args().size());
      return false;
    }
    return true;
  }
}
