package io.dataflow.monitor.eval;

import io.dataflow.core.Kind;
import io.dataflow.core.Value;
import io.dataflow.core.ValueFormat;
import io.dataflow.monitor.lang.Ast.BinOp;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The value semantics of the operators on present operands (absence is handled by the nodes):
 * checked Int arithmetic truncating toward zero, IEEE Float arithmetic, Int/Float promotion,
 * ordering of numbers, Bools and Strs (by code point), structural type-sensitive equality.
 * The checked Int operations are public: the generated code calls them inline.
 */
public final class Ops {
  private Ops() {}

  static EvalError operands(String op, Slot a, Slot b) {
    return new EvalError("operator '" + op + "' cannot be applied to " + Kind.name(a.tag)
        + " and " + Kind.name(b.tag));
  }

  static EvalError operand(String op, Slot a) {
    return new EvalError("operator '" + op + "' cannot be applied to " + Kind.name(a.tag));
  }

  /** {@code out = a op b} for + - * / % ** on present operands. */
  static void arithmetic(BinOp op, Slot a, Slot b, Slot out) {
    if (a.tag == Kind.INT && b.tag == Kind.INT) {
      if (op == BinOp.POW && b.bits < 0) {
        out.setFloat(Math.pow(a.bits, b.bits)); // Int ** negative Int is a Float
      } else {
        out.setInt(intArithmetic(op, a.bits, b.bits));
      }
      return;
    }
    if ((a.tag != Kind.INT && a.tag != Kind.FLOAT) || (b.tag != Kind.INT && b.tag != Kind.FLOAT)) {
      throw operands(op.symbol, a, b);
    }
    out.setFloat(floatArithmetic(op, a.asDouble(), b.asDouble()));
  }

  /** Checked Int arithmetic (a power's exponent is non-negative here). */
  private static long intArithmetic(BinOp op, long x, long y) {
    try {
      switch (op) {
        case ADD:
          return Math.addExact(x, y);
        case SUB:
          return Math.subtractExact(x, y);
        case MUL:
          return Math.multiplyExact(x, y);
        case DIV:
          return div(x, y);
        case MOD:
          return mod(x, y);
        case POW:
          return pow(x, y);
        default:
          throw new IllegalStateException(op.name());
      }
    } catch (ArithmeticException e) {
      throw new EvalError("integer overflow in '" + op.symbol + "' (" + x + " " + op.symbol + " "
          + y + ")");
    }
  }

  // ---- kernels: a typed operator's computation on present operands of one kind, bits to
  // bits. The interpreter (TypedNodes) and the generated code (codegen.TypedOperatorCode) call
  // the same methods; each TypedBinary names its own in kernel(kind).

  public static long ltInt(long x, long y) {
    return x < y ? 1 : 0;
  }

  public static long leInt(long x, long y) {
    return x <= y ? 1 : 0;
  }

  public static long gtInt(long x, long y) {
    return x > y ? 1 : 0;
  }

  public static long geInt(long x, long y) {
    return x >= y ? 1 : 0;
  }

  /** NaN compares false, as the interpreter's double comparison. */
  public static long ltFloat(long x, long y) {
    return Double.longBitsToDouble(x) < Double.longBitsToDouble(y) ? 1 : 0;
  }

  public static long leFloat(long x, long y) {
    return Double.longBitsToDouble(x) <= Double.longBitsToDouble(y) ? 1 : 0;
  }

  public static long gtFloat(long x, long y) {
    return Double.longBitsToDouble(x) > Double.longBitsToDouble(y) ? 1 : 0;
  }

  public static long geFloat(long x, long y) {
    return Double.longBitsToDouble(x) >= Double.longBitsToDouble(y) ? 1 : 0;
  }

  /** Bools are the bits 0 and 1. */
  public static long and(long x, long y) {
    return x & y;
  }

  public static long or(long x, long y) {
    return x | y;
  }

  /** {@code !x || y}. */
  public static long implies(long x, long y) {
    return (x ^ 1) | y;
  }

  public static long addInt(long x, long y) {
    long r = x + y;
    if (((x ^ r) & (y ^ r)) < 0) {
      throw new EvalError("integer overflow in '+' (" + x + " + " + y + ")");
    }
    return r;
  }

  public static long subInt(long x, long y) {
    long r = x - y;
    if (((x ^ y) & (x ^ r)) < 0) {
      throw new EvalError("integer overflow in '-' (" + x + " - " + y + ")");
    }
    return r;
  }

  public static long mulInt(long x, long y) {
    long hi = Math.multiplyHigh(x, y);
    long lo = x * y;
    if ((hi != 0 || lo < 0) && (hi != -1 || lo >= 0)) {
      throw new EvalError("integer overflow in '*' (" + x + " * " + y + ")");
    }
    return lo;
  }

  public static long div(long x, long y) {
    if (y == 0) {
      throw new EvalError("division by zero");
    }
    if (x == Long.MIN_VALUE && y == -1) {
      throw new EvalError("integer overflow in '/' (" + x + " / " + y + ")");
    }
    return x / y;
  }

  public static long mod(long x, long y) {
    if (y == 0) {
      throw new EvalError("modulo by zero");
    }
    if (x == Long.MIN_VALUE && y == -1) {
      // Rust's checked_rem refuses this one; stay compatible with the TC.
      throw new EvalError("integer overflow in '%' (" + x + " % " + y + ")");
    }
    return x % y;
  }

  static long pow(long base, long exp) {
    long result = 1;
    long b = base;
    long e = exp;
    while (e > 0) {
      if ((e & 1) != 0) {
        result = Math.multiplyExact(result, b);
      }
      e >>= 1;
      if (e > 0) {
        b = Math.multiplyExact(b, b);
      }
    }
    return result;
  }

  static double floatArithmetic(BinOp op, double x, double y) {
    switch (op) {
      case ADD:
        return x + y;
      case SUB:
        return x - y;
      case MUL:
        return x * y;
      case DIV:
        return x / y;
      case MOD:
        return x % y;
      case POW:
        return Math.pow(x, y);
      default:
        throw new IllegalStateException(op.name());
    }
  }

  /** {@code < <= > >=} on two numbers, two Bools or two Strs. */
  static boolean order(BinOp op, Slot a, Slot b) {
    int c;
    if (a.tag == Kind.INT && b.tag == Kind.INT) {
      c = Long.compare(a.bits, b.bits);
    } else if ((a.tag == Kind.INT || a.tag == Kind.FLOAT)
        && (b.tag == Kind.INT || b.tag == Kind.FLOAT)) {
      double x = a.asDouble();
      double y = b.asDouble();
      switch (op) {
        case LT:
          return x < y;
        case LE:
          return x <= y;
        case GT:
          return x > y;
        default:
          return x >= y;
      }
    } else if (a.tag == Kind.BOOL && b.tag == Kind.BOOL) {
      c = Long.compare(a.bits, b.bits);
    } else if (a.tag == Kind.STR && b.tag == Kind.STR) {
      c = ValueFormat.compareCodePoints((String) a.ref, (String) b.ref);
    } else {
      throw operands(op.symbol, a, b);
    }
    switch (op) {
      case LT:
        return c < 0;
      case LE:
        return c <= 0;
      case GT:
        return c > 0;
      default:
        return c >= 0;
    }
  }

  /** Structural, type-sensitive equality; Floats compare as IEEE doubles. */
  static boolean equal(Slot a, Slot b) {
    if (a.tag != b.tag) {
      return false;
    }
    switch (a.tag) {
      case Kind.INT:
      case Kind.BOOL:
        return a.bits == b.bits;
      case Kind.FLOAT:
        return Double.longBitsToDouble(a.bits) == Double.longBitsToDouble(b.bits);
      case Kind.UNIT:
      case Kind.NOVAL:
      case Kind.DEFERRED:
        return true;
      case Kind.STR:
        return a.ref.equals(b.ref);
      case Kind.LIST:
      case Kind.MAP:
        return valuesEqual((Value) a.ref, (Value) b.ref);
      default:
        return a.ref == b.ref;
    }
  }

  /** {@link #equal} on boxed values. */
  static boolean valuesEqual(Value a, Value b) {
    if (a.kind() != b.kind()) {
      return false;
    }
    if (a instanceof Value.Float fa) {
      return fa.value() == ((Value.Float) b).value();
    }
    if (a instanceof Value.List la) {
      List<Value> x = la.elements();
      List<Value> y = ((Value.List) b).elements();
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!valuesEqual(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Value.Map ma) {
      Map<String, Value> x = ma.entries();
      Map<String, Value> y = ((Value.Map) b).entries();
      if (x.size() != y.size()) {
        return false;
      }
      Iterator<Map.Entry<String, Value>> ix = x.entrySet().iterator();
      Iterator<Map.Entry<String, Value>> iy = y.entrySet().iterator();
      while (ix.hasNext()) {
        Map.Entry<String, Value> ex = ix.next();
        Map.Entry<String, Value> ey = iy.next();
        if (!ex.getKey().equals(ey.getKey()) || !valuesEqual(ex.getValue(), ey.getValue())) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  /** Requires a Bool operand and returns it. */
  static boolean bool(String op, Slot a) {
    if (a.tag != Kind.BOOL) {
      throw new EvalError(op + " needs Bool, found " + Kind.name(a.tag));
    }
    return a.bits != 0;
  }
}
