package io.dataflow.monitor.eval;

import io.dataflow.core.Kind;
import io.dataflow.core.Value;
import io.dataflow.monitor.lang.Type;

/** Run-time membership of a value in a static type (absence markers belong to every type). */
public final class TypeCheck {
  private TypeCheck() {}

  /**
   * A type check prepared once, so the per-tick check of a scalar type is one comparison of
   * tags (no boxing, no walk over the type).
   */
  public static final class Compiled {
    /** The type checked. */
    public final Type type;
    /** The kind a present value must have, or -1 when the check needs the full walk. */
    private final byte kind;

    Compiled(Type type) {
      this.type = type;
      this.kind = scalarKind(type);
    }

    /** Whether the slot's value belongs to the type (absence markers always do). */
    public boolean matches(Slot s) {
      return s.tag <= Kind.DEFERRED || (kind >= 0 ? s.tag == kind : TypeCheck.matches(type, s));
    }

    private static byte scalarKind(Type t) {
      if (t.equals(Type.INT)) {
        return Kind.INT;
      } else if (t.equals(Type.FLOAT)) {
        return Kind.FLOAT;
      } else if (t.equals(Type.STR) || t instanceof Type.ExprOf) {
        return Kind.STR;
      } else if (t.equals(Type.BOOL)) {
        return Kind.BOOL;
      } else if (t.equals(Type.UNIT)) {
        return Kind.UNIT;
      }
      return -1;
    }

    @Override
    public String toString() {
      return type.toString();
    }
  }

  static boolean matches(Type t, Slot s) {
    if (s.tag <= Kind.DEFERRED || t.isAny()) {
      return true;
    }
    if (t instanceof Type.Fn) {
      return s.tag == Kind.FUNCTION;
    }
    if (s.tag == Kind.FUNCTION) {
      return false;
    }
    return matches(t, s.toValue());
  }

  /** Whether a boxed value belongs to the type (absence markers always do). */
  public static boolean matches(Type t, Value v) {
    if (!v.isPresent() || t.isAny()) {
      return true;
    }
    if (t instanceof Type.ListOf l) {
      if (!(v instanceof Value.List list)) {
        return false;
      }
      for (Value e : list.elements()) {
        if (!matches(l.element(), e)) {
          return false;
        }
      }
      return true;
    }
    if (t instanceof Type.MapOf m) {
      if (!(v instanceof Value.Map map)) {
        return false;
      }
      for (Value e : map.entries().values()) {
        if (!matches(m.element(), e)) {
          return false;
        }
      }
      return true;
    }
    if (t instanceof Type.ExprOf) {
      return v instanceof Value.Str;
    }
    return t.equals(Type.INT) ? v instanceof Value.Int
        : t.equals(Type.FLOAT) ? v instanceof Value.Float
        : t.equals(Type.STR) ? v instanceof Value.Str
        : t.equals(Type.BOOL) ? v instanceof Value.Bool
        : t.equals(Type.UNIT) ? v instanceof Value.Unit
        : false;
  }

  /** The dynamic type of a slot as a message names it ({@code List}, {@code Int}, ...). */
  public static String describe(Slot s) {
    return Kind.name(s.tag);
  }
}
