package io.dataflow.monitor;

import io.dataflow.core.Kind;
import io.dataflow.core.Value;
import io.dataflow.core.ValueFormat;
import io.dataflow.monitor.Ast.Expr;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The built-in functions and collection constructors: their static types and their value
 * semantics. Every built-in is a strict operator: its operands are lifted, and the result is
 * NoVal or Deferred when an operand is.
 */
final class Builtins {
  private Builtins() {}

  /** The value semantics of one strict built-in, given lifted, present operands. */
  interface StrictOp {
    void apply(Slot[] args, Slot out);
  }

  /** A strict operator over any number of operands, each with its lifting memory. */
  static final class Strict extends Node {
    final String name;
    final Node[] args;
    final Slot[] held;
    final Slot[] lifted;
    final StrictOp op;

    Strict(String name, Node[] args, StrictOp op) {
      this.name = name;
      this.args = args;
      this.op = op;
      this.held = new Slot[args.length];
      this.lifted = new Slot[args.length];
      for (int i = 0; i < args.length; i++) {
        held[i] = new Slot();
      }
    }

    @Override
    void eval() {
      for (Node a : args) {
        a.eval();
      }
      compute();
    }

    @Override
    Node[] inputs() {
      return args.clone();
    }

    @Override
    void compute() {
      boolean noVal = false;
      boolean deferred = false;
      for (int i = 0; i < args.length; i++) {
        Slot v = Slot.lift(args[i], held[i]);
        lifted[i] = v;
        if (v.tag == Kind.NOVAL) {
          noVal = true;
        } else if (v.tag == Kind.DEFERRED) {
          deferred = true;
        }
      }
      if (noVal) {
        setNoVal();
      } else if (deferred) {
        setDeferred();
      } else {
        op.apply(lifted, this);
      }
    }
  }

  /** The value operation of a built-in call (not the special forms, not the higher-order). */
  static StrictOp op(String function, String key) {
    switch (function) {
      case "abs":
        return (a, out) -> {
          Slot x = a[0];
          if (x.tag == Kind.INT) {
            if (x.bits == Long.MIN_VALUE) {
              throw new EvalError("integer overflow in abs(" + x.bits + ")");
            }
            out.setInt(Math.abs(x.bits));
          } else if (x.tag == Kind.FLOAT) {
            out.setFloat(Math.abs(Double.longBitsToDouble(x.bits)));
          } else {
            throw argument(function, x);
          }
        };
      case "sin":
        return (a, out) -> out.setFloat(Math.sin(number(function, a[0])));
      case "cos":
        return (a, out) -> out.setFloat(Math.cos(number(function, a[0])));
      case "tan":
        return (a, out) -> out.setFloat(Math.tan(number(function, a[0])));
      case "sqrt":
        return (a, out) -> out.setFloat(Math.sqrt(number(function, a[0])));
      case "List.get":
        return (a, out) -> {
          List<Value> l = list(function, a[0]);
          if (a[1].tag != Kind.INT) {
            throw argument(function, a[1]);
          }
          long i = a[1].bits;
          if (i < 0 || i >= l.size()) {
            throw new EvalError("List.get: index " + i + " out of range for a list of length "
                + l.size());
          }
          out.setValue(l.get((int) i));
        };
      case "List.append":
        return (a, out) -> {
          List<Value> l = list(function, a[0]);
          ArrayList<Value> copy = new ArrayList<>(l.size() + 1);
          copy.addAll(l);
          copy.add(element(a[1]));
          out.setRaw(Kind.LIST, 0, new Value.List(copy));
        };
      case "List.concat":
        return (a, out) -> {
          List<Value> l = list(function, a[0]);
          List<Value> r = list(function, a[1]);
          ArrayList<Value> copy = new ArrayList<>(l.size() + r.size());
          copy.addAll(l);
          copy.addAll(r);
          out.setRaw(Kind.LIST, 0, new Value.List(copy));
        };
      case "List.head":
        return (a, out) -> {
          List<Value> l = list(function, a[0]);
          if (l.isEmpty()) {
            throw new EvalError("List.head of an empty list");
          }
          out.setValue(l.get(0));
        };
      case "List.tail":
        return (a, out) -> {
          List<Value> l = list(function, a[0]);
          if (l.isEmpty()) {
            throw new EvalError("List.tail of an empty list");
          }
          out.setRaw(Kind.LIST, 0, new Value.List(l.subList(1, l.size())));
        };
      case "List.len":
        return (a, out) -> out.setInt(list(function, a[0]).size());
      case "Map.get":
        return (a, out) -> {
          Value v = map(function, a[0]).get(key);
          if (v == null) {
            throw new EvalError("Map.get: no key " + ValueFormat.quote(key));
          }
          out.setValue(v);
        };
      case "Map.insert":
        return (a, out) -> {
          TreeMap<String, Value> copy = new TreeMap<>(ValueFormat.CODE_POINT_ORDER);
          copy.putAll(map(function, a[0]));
          copy.put(key, element(a[1]));
          out.setRaw(Kind.MAP, 0, new Value.Map(copy));
        };
      case "Map.remove":
        return (a, out) -> {
          Map<String, Value> m = map(function, a[0]);
          if (!m.containsKey(key)) {
            out.set(a[0]);
            return;
          }
          TreeMap<String, Value> copy = new TreeMap<>(ValueFormat.CODE_POINT_ORDER);
          copy.putAll(m);
          copy.remove(key);
          out.setRaw(Kind.MAP, 0, new Value.Map(copy));
        };
      case "Map.has_key":
        return (a, out) -> out.setBool(map(function, a[0]).containsKey(key));
      default:
        throw new IllegalArgumentException("not a strict built-in: " + function);
    }
  }

  /** Builds a list from its lifted elements. */
  static StrictOp listConstructor() {
    return (a, out) -> {
      Value[] items = new Value[a.length];
      for (int i = 0; i < a.length; i++) {
        items[i] = element(a[i]);
      }
      out.setRaw(Kind.LIST, 0, new Value.List(List.of(items)));
    };
  }

  /** Builds a map from its lifted values; a repeated key keeps the last value. */
  static StrictOp mapConstructor(List<String> keys) {
    return (a, out) -> {
      TreeMap<String, Value> m = new TreeMap<>(ValueFormat.CODE_POINT_ORDER);
      for (int i = 0; i < a.length; i++) {
        m.put(keys.get(i), element(a[i]));
      }
      out.setRaw(Kind.MAP, 0, new Value.Map(m));
    };
  }

  /** A collection element: any present value except a function. */
  static Value element(Slot s) {
    if (s.tag == Kind.FUNCTION) {
      throw new EvalError("a function cannot be stored in a collection");
    }
    return s.toValue();
  }

  static EvalError argument(String function, Slot x) {
    return new EvalError(function + " cannot be applied to " + Kind.name(x.tag));
  }

  static double number(String function, Slot x) {
    if (x.tag == Kind.INT) {
      return x.bits;
    }
    if (x.tag == Kind.FLOAT) {
      return Double.longBitsToDouble(x.bits);
    }
    throw argument(function, x);
  }

  static List<Value> list(String function, Slot x) {
    if (x.tag != Kind.LIST) {
      throw argument(function, x);
    }
    return ((Value.List) x.ref).elements();
  }

  static Map<String, Value> map(String function, Slot x) {
    if (x.tag != Kind.MAP) {
      throw argument(function, x);
    }
    return ((Value.Map) x.ref).entries();
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

  /** Static typing of the call forms. */
  static final class Typing {
    private final Typer typer;
    private final Diagnostics diags;

    Typing(Typer typer, Diagnostics diags) {
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
  }
}
