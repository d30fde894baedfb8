package io.dataflow.monitor.eval;

import io.dataflow.core.Kind;
import io.dataflow.monitor.lang.Ast;
import io.dataflow.monitor.lang.Ast.BinOp;
import io.dataflow.monitor.lang.Ast.Expr;
import io.dataflow.monitor.lang.Type;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the evaluator nodes of one expression. How a stream reference resolves is up to the
 * {@link Streams} given: a top-level equation reads stream cells and shared history rings; a
 * dynamic body reads through its own rings and run-long memories.
 */
final class NodeBuilder {
  /** How stream references are resolved. */
  interface Streams {
    /** A bare reference to a stream's current value. */
    Node current(int stream, Ast.Var at);

    /** {@code name[n]} with n &gt; 0. */
    Node history(int stream, int offset);

    /** A {@code dynamic}/{@code defer} occurrence inside the expression being built. */
    Node dynamic(Ast.Dynamic d, Node source);
  }

  private final Map<String, Integer> byName;
  private final Map<Expr, Type> types;
  private final Streams streams;
  private final List<Committable> commits;
  private final Functions functions;
  /** Building a List.map/filter/fold callback (or a function it calls): no state allowed. */
  private boolean inCallback;

  NodeBuilder(Map<String, Integer> byName, Map<Expr, Type> types, Streams streams,
      List<Committable> commits, Functions functions) {
    this.byName = byName;
    this.types = types;
    this.streams = streams;
    this.commits = commits;
    this.functions = functions;
  }

  /**
   * A builder for callback bodies. The checker rejects temporal operators written inside a
   * callback; a callback that is a function value (an aux lambda, or a lambda it calls) is
   * only known here, when its body is instantiated, and is rejected the same way.
   */
  NodeBuilder forCallback() {
    NodeBuilder b = new NodeBuilder(byName, types, streams, commits, functions);
    b.inCallback = true;
    return b;
  }

  private void requireStateless(String operator) {
    if (inCallback) {
      throw new EvalError("temporal operator " + operator
          + " is not allowed inside a List.map/filter/fold callback");
    }
  }

  /** Lambda parameters in scope: name to the cell holding the argument. */
  static final class Locals {
    static final Locals NONE = new Locals(Map.of());
    final Map<String, Nodes.Cell> cells;

    Locals(Map<String, Nodes.Cell> cells) {
      this.cells = cells;
    }

    Locals with(List<Ast.Param> params, Nodes.Cell[] paramCells) {
      Map<String, Nodes.Cell> m = new HashMap<>(cells);
      for (int i = 0; i < params.size(); i++) {
        m.put(params.get(i).name(), paramCells[i]);
      }
      return new Locals(m);
    }
  }

  Node build(Expr e, Locals locals) {
    Node n = buildNode(e, locals);
    Type t = types.get(e);
    if (t != null && (t.equals(Type.INT) || t.equals(Type.FLOAT) || t.equals(Type.BOOL))
        && !n.isLeaf()) {
      n.scalar = true;
    }
    return n;
  }

  private Node buildNode(Expr e, Locals locals) {
    if (e instanceof Ast.Lit l) {
      return new Nodes.Const(l.value());
    }
    if (e instanceof Ast.Var v) {
      Nodes.Cell local = locals.cells.get(v.name());
      if (local != null) {
        return local;
      }
      return streams.current(byName.get(v.name()), v);
    }
    if (e instanceof Ast.Unary u) {
      Node x = build(u.operand(), locals);
      return u.op() == Ast.UnOp.NEG ? new Nodes.Neg(x) : new Nodes.Not(x);
    }
    if (e instanceof Ast.Binary b) {
      return binary(b, locals);
    }
    if (e instanceof Ast.If i) {
      return new Nodes.If(build(i.cond(), locals), build(i.then(), locals),
          build(i.otherwise(), locals));
    }
    if (e instanceof Ast.Index ix) {
      return index(ix, locals);
    }
    if (e instanceof Ast.ListLit l) {
      return new Builtins.Strict("List", buildAll(l.elements(), locals),
          Builtins.listConstructor());
    }
    if (e instanceof Ast.MapLit m) {
      return new Builtins.Strict("Map", buildAll(m.values(), locals),
          Builtins.mapConstructor(m.keys()));
    }
    if (e instanceof Ast.Call c) {
      return call(c, locals);
    }
    if (e instanceof Ast.Dynamic d) {
      requireStateless(d.kind() == Ast.DynKind.DEFER ? "defer" : "dynamic");
      return streams.dynamic(d, build(d.source(), locals));
    }
    if (e instanceof Ast.Lambda lam) {
      return functions.lambda(lam, locals, this);
    }
    if (e instanceof Ast.Apply a) {
      return functions.apply(build(a.function(), locals), buildAll(a.args(), locals), this);
    }
    throw new IllegalStateException("unhandled node " + e);
  }

  Node[] buildAll(List<Expr> exprs, Locals locals) {
    Node[] nodes = new Node[exprs.size()];
    for (int i = 0; i < nodes.length; i++) {
      nodes[i] = build(exprs.get(i), locals);
    }
    return nodes;
  }

  private Node index(Ast.Index ix, Locals locals) {
    if (ix.offset() == 0) {
      return new Nodes.Lift(build(ix.target(), locals));
    }
    requireStateless("e[" + ix.offset() + "]");
    if (ix.target() instanceof Ast.Var v && !locals.cells.containsKey(v.name())) {
      return streams.history(byName.get(v.name()), ix.offset());
    }
    TemporalNodes.Delay d = new TemporalNodes.Delay(build(ix.target(), locals), ix.offset());
    commits.add(d);
    return d;
  }

  private Node binary(Ast.Binary b, Locals locals) {
    Node l = build(b.left(), locals);
    Node r = build(b.right(), locals);
    BinOp op = b.op();
    Type lt = types.get(b.left());
    Type rt = types.get(b.right());
    if (op.isArithmetic() && Type.INT.equals(lt) && Type.INT.equals(rt)) {
      return new TypedNodes.IntArith(op, l, r);
    }
    if (op.isOrdering() && lt != null && rt != null && lt.isNumeric() && rt.isNumeric()) {
      return new TypedNodes.NumCompare(op, l, r);
    }
    if (op.isLogical() && Type.BOOL.equals(lt) && Type.BOOL.equals(rt)) {
      return new TypedNodes.BoolLogic(op, l, r);
    }
    switch (op) {
      case ADD:
      case SUB:
      case MUL:
      case DIV:
      case MOD:
      case POW:
        return new Nodes.Arithmetic(op, l, r);
      case LT:
      case LE:
      case GT:
      case GE:
        return new Nodes.Order(op, l, r);
      case EQ:
        return new Nodes.Equality(false, l, r);
      case NE:
        return new Nodes.Equality(true, l, r);
      case AND:
      case OR:
      case IMPLIES:
        return new Nodes.Logical(op, l, r);
      case CONCAT:
        return new Nodes.Concat(l, r);
      default:
        throw new IllegalStateException(op.name());
    }
  }

  private Node call(Ast.Call c, Locals locals) {
    Node[] args = buildAll(c.args(), locals);
    switch (c.function()) {
      case "default":
        return new TemporalNodes.Default(args[0], args[1]);
      case "init":
        requireStateless("init");
        return new TemporalNodes.Init(args[0], args[1]);
      case "is_defined":
        return new TemporalNodes.IsDefined(args[0]);
      case "when":
        requireStateless("when");
        return new TemporalNodes.When(args[0]);
      case "update":
        requireStateless("update");
        return new TemporalNodes.Update(args[0], args[1]);
      case "latch":
        requireStateless("latch");
        return new TemporalNodes.Latch(args[0], args[1]);
      case "List.map":
      case "List.filter":
      case "List.fold":
        return functions.higherOrder(c.function(), args, this);
      default:
        return new Builtins.Strict(c.function(), args, Builtins.op(c.function(), c.key()));
    }
  }

  static boolean isFunction(Slot s) {
    return s.tag == Kind.FUNCTION;
  }
}
