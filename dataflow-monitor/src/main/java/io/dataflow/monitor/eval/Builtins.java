package io.dataflow.monitor.eval;

import io.dataflow.core.Kind;
import io.dataflow.core.Value;
import io.dataflow.core.ValueFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The built-in functions and collection constructors: their static types and their value
 * semantics. Every built-in is a strict operator: its operands are lifted, and the result is
 * NoVal or Deferred when an operand is.
 */
public final class Builtins {
  private Builtins() {}

  /** The value semantics of one strict built-in, given lifted, present operands. */
  interface StrictOp {
    void apply(Slot[] args, Slot out);
  }

  /** A strict operator over any number of operands, each with its lifting memory. */
  public static final class Strict extends Node {
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
    public void eval() {
      for (Node a : args) {
        a.eval();
      }
      compute();
    }

    @Override
    public Node[] inputs() {
      return args.clone();
    }

    @Override
    public void compute() {
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
}
