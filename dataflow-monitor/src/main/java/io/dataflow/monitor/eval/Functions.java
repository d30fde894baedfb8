package io.dataflow.monitor.eval;

import io.dataflow.core.Kind;
import io.dataflow.core.Value;
import io.dataflow.monitor.lang.Ast;
import io.dataflow.monitor.lang.Type;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lambdas, application and the higher-order list functions. A lambda evaluates to a closure
 * (a {@link Kind#FUNCTION} value); each call site instantiates the lambda's body once per
 * lambda it meets, so temporal state inside a lambda is kept per call site.
 */
public final class Functions {
  /** A function value: the lambda and the values of the enclosing parameters it captured. */
  record Closure(Ast.Lambda lambda, Map<String, Slot> captured) {}

  Node lambda(Ast.Lambda lam, NodeBuilder.Locals locals, NodeBuilder builder) {
    return new LambdaNode(lam, locals);
  }

  Node apply(Node function, Node[] args, NodeBuilder builder) {
    return new Apply(function, args, builder);
  }

  Node higherOrder(String name, Node[] args, NodeBuilder builder) {
    return new HigherOrder(name, args, builder);
  }

  /** Evaluates to a closure capturing the current values of the enclosing parameters. */
  public static final class LambdaNode extends Node {
    private final Ast.Lambda lambda;
    private final NodeBuilder.Locals locals;

    LambdaNode(Ast.Lambda lambda, NodeBuilder.Locals locals) {
      this.lambda = lambda;
      this.locals = locals;
      if (locals.cells.isEmpty()) {
        setRaw(Kind.FUNCTION, 0, new Closure(lambda, Map.of()));
      }
    }

    @Override
    public void eval() {
      if (locals.cells.isEmpty()) {
        return; // a closed lambda is one constant closure
      }
      Map<String, Slot> captured = new java.util.HashMap<>();
      for (Map.Entry<String, Nodes.Cell> e : locals.cells.entrySet()) {
        Slot copy = new Slot();
        copy.set(e.getValue());
        captured.put(e.getKey(), copy);
      }
      setRaw(Kind.FUNCTION, 0, new Closure(lambda, captured));
    }
  }

  /** The instantiated body of one lambda at one call site. */
  static final class Instance {
    final Nodes.Cell[] params;
    final Map<String, Nodes.Cell> capturedCells;
    final Type[] paramTypes;
    final Node body;

    Instance(Ast.Lambda lam, Map<String, Slot> captured, NodeBuilder builder) {
      params = new Nodes.Cell[lam.params().size()];
      paramTypes = new Type[params.length];
      for (int i = 0; i < params.length; i++) {
        params[i] = new Nodes.Cell(lam.params().get(i).name());
        Type t = lam.params().get(i).type();
        paramTypes[i] = t == null ? Type.ANY : t;
      }
      Map<String, Nodes.Cell> cells = new java.util.HashMap<>();
      capturedCells = new java.util.HashMap<>();
      for (String name : captured.keySet()) {
        Nodes.Cell c = new Nodes.Cell(name);
        cells.put(name, c);
        capturedCells.put(name, c);
      }
      NodeBuilder.Locals locals = new NodeBuilder.Locals(cells).with(lam.params(), params);
      body = builder.build(lam.body(), locals);
    }

    /** Binds the arguments and evaluates the body; the result is in {@link #body}. */
    Slot call(Closure closure, Slot[] args) {
      if (args.length != params.length) {
        throw new EvalError("function expects " + params.length + " argument"
            + (params.length == 1 ? "" : "s") + ", got " + args.length);
      }
      for (Map.Entry<String, Slot> e : closure.captured().entrySet()) {
        capturedCells.get(e.getKey()).set(e.getValue());
      }
      for (int i = 0; i < params.length; i++) {
        if (!TypeCheck.matches(paramTypes[i], args[i])) {
          throw new EvalError("function parameter '" + params[i].name + "' expects "
              + paramTypes[i] + ", got " + Kind.name(args[i].tag));
        }
        params[i].set(args[i]);
      }
      body.eval();
      return body;
    }
  }

  /** The instances of one call site, by lambda. */
  static final class CallSite {
    /** By lambda (package-private: snapshots list and re-create them, see StateWalker). */
    final Map<Ast.Lambda, Instance> instances = new IdentityHashMap<>();
    private final NodeBuilder builder;

    CallSite(NodeBuilder builder) {
      this.builder = builder;
    }

    Slot call(Slot function, Slot[] args) {
      if (function.tag != Kind.FUNCTION) {
        throw new EvalError("cannot call a value of type " + Kind.name(function.tag));
      }
      Closure c = (Closure) function.ref;
      return instance(c.lambda(), c.captured()).call(c, args);
    }

    /** The instance of {@code lambda} at this call site, instantiated on first use. */
    Instance instance(Ast.Lambda lambda, Map<String, Slot> captured) {
      Instance inst = instances.get(lambda);
      if (inst == null) {
        inst = new Instance(lambda, captured, builder);
        instances.put(lambda, inst);
      }
      return inst;
    }
  }

  /** {@code f(a, b)}: strict in the function and the arguments. */
  public static final class Apply extends Node {
    private final Builtins.Strict operands;
    private final CallSite site;

    Apply(Node function, Node[] args, NodeBuilder builder) {
      Node[] all = new Node[args.length + 1];
      all[0] = function;
      System.arraycopy(args, 0, all, 1, args.length);
      this.site = new CallSite(builder);
      this.operands = new Builtins.Strict("apply", all, (lifted, out) -> {
        Slot[] actual = new Slot[lifted.length - 1];
        System.arraycopy(lifted, 1, actual, 0, actual.length);
        out.set(site.call(lifted[0], actual));
      });
    }

    @Override
    public void eval() {
      operands.eval();
      set(operands);
    }
  }

  /** {@code List.map(f, l)}, {@code List.filter(f, l)}, {@code List.fold(f, init, l)}. */
  public static final class HigherOrder extends Node {
    private final Builtins.Strict operands;

    HigherOrder(String name, Node[] args, NodeBuilder builder) {
      CallSite site = new CallSite(builder.forCallback());
      Builtins.StrictOp op;
      switch (name) {
        case "List.map":
          op = (a, out) -> {
            List<Value> in = Builtins.list(name, a[1]);
            List<Value> result = new ArrayList<>(in.size());
            Slot[] arg = {new Slot()};
            for (Value v : in) {
              arg[0].setValue(v);
              Slot r = site.call(a[0], arg);
              if (!r.isPresent()) {
                // As in List.fold: a callback reading a stream that has no value yet makes
                // the result absent; it is not an error that would end the run.
                out.set(r);
                return;
              }
              result.add(Builtins.element(r));
            }
            out.setRaw(Kind.LIST, 0, new Value.List(result));
          };
          break;
        case "List.filter":
          op = (a, out) -> {
            List<Value> in = Builtins.list(name, a[1]);
            List<Value> result = new ArrayList<>(in.size());
            Slot[] arg = {new Slot()};
            for (Value v : in) {
              arg[0].setValue(v);
              Slot keep = site.call(a[0], arg);
              if (!keep.isPresent()) {
                out.set(keep); // absent, as in List.map
                return;
              }
              if (keep.tag != Kind.BOOL) {
                throw new EvalError("the callback of List.filter must return Bool, got "
                    + Kind.name(keep.tag));
              }
              if (keep.bits != 0) {
                result.add(v);
              }
            }
            out.setRaw(Kind.LIST, 0, new Value.List(result));
          };
          break;
        default: // List.fold
          op = (a, out) -> {
            List<Value> in = Builtins.list(name, a[2]);
            Slot acc = new Slot();
            acc.set(a[1]);
            Slot[] pair = {new Slot(), new Slot()};
            for (Value v : in) {
              pair[0].set(acc);
              pair[1].setValue(v);
              Slot r = site.call(a[0], pair);
              if (!r.isPresent()) {
                out.set(r);
                return;
              }
              acc.set(r);
            }
            out.set(acc);
          };
          break;
      }
      this.operands = new Builtins.Strict(name, args, op);
    }

    @Override
    public void eval() {
      operands.eval();
      set(operands);
    }
  }
}
