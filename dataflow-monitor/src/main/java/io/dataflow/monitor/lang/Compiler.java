package io.dataflow.monitor.lang;

import io.dataflow.monitor.lang.Ast.Expr;
import java.util.Map;

/**
 * The front end's pipeline: parse, check names and dependencies, check types. Also the walks
 * over expressions that later phases ask about (children, dynamic properties, lambdas).
 */
public final class Compiler {
  private Compiler() {}

  /**
   * Runs the front end over a specification.
   *
   * @param name the file name used in error messages
   * @throws CompileError listing every error found, in source order
   */
  public static CheckedSpec compile(String name, String source, TypingLevel typing) {
    Ast.Spec spec = Parser.parseSpec(name, source);
    Diagnostics diags = new Diagnostics(name);
    Checker.Result checked = Checker.check(spec, diags);
    boolean[] needsCheck = new boolean[checked.streams().size()];
    Map<Expr, Type> types = Typer.check(checked.streams(), typing, diags, needsCheck);
    diags.throwIfAny();
    return new CheckedSpec(name, typing, checked, types, needsCheck);
  }

  /** True when {@code e} contains a dynamic property. */
  static boolean containsDynamic(Expr e) {
    if (e instanceof Ast.Dynamic) {
      return true;
    }
    for (Expr c : children(e)) {
      if (containsDynamic(c)) {
        return true;
      }
    }
    return false;
  }

  /** True when {@code e} contains a lambda. */
  static boolean containsLambda(Expr e) {
    if (e instanceof Ast.Lambda) {
      return true;
    }
    for (Expr c : children(e)) {
      if (containsLambda(c)) {
        return true;
      }
    }
    return false;
  }

  /** True when evaluating {@code e} may instantiate lambda bodies lazily. */
  public static boolean containsCallSite(Expr e) {
    if (e instanceof Ast.Apply || (e instanceof Ast.Call c && c.function().startsWith("List.")
        && (c.function().equals("List.map") || c.function().equals("List.filter")
            || c.function().equals("List.fold")))) {
      return true;
    }
    for (Expr c : children(e)) {
      if (containsCallSite(c)) {
        return true;
      }
    }
    return false;
  }

  /** The direct sub-expressions of a node. */
  public static Expr[] children(Expr e) {
    if (e instanceof Ast.Unary u) {
      return new Expr[] {u.operand()};
    } else if (e instanceof Ast.Binary b) {
      return new Expr[] {b.left(), b.right()};
    } else if (e instanceof Ast.If i) {
      return new Expr[] {i.cond(), i.then(), i.otherwise()};
    } else if (e instanceof Ast.Index ix) {
      return new Expr[] {ix.target()};
    } else if (e instanceof Ast.ListLit l) {
      return l.elements().toArray(new Expr[0]);
    } else if (e instanceof Ast.MapLit m) {
      return m.values().toArray(new Expr[0]);
    } else if (e instanceof Ast.Call c) {
      return c.args().toArray(new Expr[0]);
    } else if (e instanceof Ast.Dynamic d) {
      return new Expr[] {d.source()};
    } else if (e instanceof Ast.Lambda lam) {
      return new Expr[] {lam.body()};
    } else if (e instanceof Ast.Apply a) {
      Expr[] out = new Expr[a.args().size() + 1];
      out[0] = a.function();
      for (int i = 0; i < a.args().size(); i++) {
        out[i + 1] = a.args().get(i);
      }
      return out;
    }
    return new Expr[0];
  }
}
