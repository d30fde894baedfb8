package io.dataflow.monitor.lang;

import java.util.List;

/**
 * A static type of the language: {@code Int}, {@code Float}, {@code Str}, {@code Bool},
 * {@code Unit}, {@code Any}, {@code List<T>}, {@code Map<T>}, {@code Expr<T>} (source text of
 * a dynamic property producing {@code T}) and function types {@code (A, B) -> R}.
 *
 * <p>Typing is gradual: {@code Any} is consistent with every type, and a value of static type
 * {@code Any} is checked when it reaches an annotated stream.
 */
public sealed interface Type {
  /** {@code Int}. */
  Type INT = new Prim("Int");
  /** {@code Float}. */
  Type FLOAT = new Prim("Float");
  /** {@code Str}. */
  Type STR = new Prim("Str");
  /** {@code Bool}. */
  Type BOOL = new Prim("Bool");
  /** {@code Unit}. */
  Type UNIT = new Prim("Unit");
  /** {@code Any}: unknown until run time. */
  Type ANY = new Prim("Any");

  /**
   * A primitive type (or {@code Any}). Its {@code equals} and {@code hashCode} are written out:
   * the ones a record gets are linked by an invokedynamic bootstrap on first use, and the
   * checker compares types in every specification, so that was start-up work of every run.
   */
  record Prim(String name) implements Type {
    @Override
    public boolean equals(Object o) {
      return o instanceof Prim p && name.equals(p.name);
    }

    @Override
    public int hashCode() {
      return name.hashCode();
    }

    @Override
    public String toString() {
      return name;
    }
  }

  /** {@code List<T>}. */
  record ListOf(Type element) implements Type {
    @Override
    public String toString() {
      return "List<" + element + ">";
    }
  }

  /** {@code Map<T>} (keys are strings). */
  record MapOf(Type element) implements Type {
    @Override
    public String toString() {
      return "Map<" + element + ">";
    }
  }

  /** {@code Expr<T>}: a string holding the source of an expression of type {@code T}. */
  record ExprOf(Type result) implements Type {
    @Override
    public String toString() {
      return "Expr<" + result + ">";
    }
  }

  /** A function type {@code (A, B) -> R}. */
  record Fn(List<Type> params, Type result) implements Type {
    /** Creates a function type; the parameter list is copied. */
    public Fn {
      params = List.copyOf(params);
    }

    @Override
    public String toString() {
      if (params.size() == 1 && !(params.get(0) instanceof Fn)) {
        return params.get(0) + " -> " + result;
      }
      StringBuilder sb = new StringBuilder("(");
      for (int i = 0; i < params.size(); i++) {
        if (i > 0) {
          sb.append(", ");
        }
        sb.append(params.get(i));
      }
      return sb.append(") -> ").append(result).toString();
    }
  }

  /** True when this is {@code Any}. */
  default boolean isAny() {
    return this == ANY || (this instanceof Prim p && p.name.equals("Any"));
  }

  /** True for {@code Int} and {@code Float}. */
  default boolean isNumeric() {
    return equals(INT) || equals(FLOAT);
  }

  /**
   * Gradual consistency: {@code Any} is consistent with everything; otherwise the types must
   * have the same shape with consistent parts. {@code Int} and {@code Float} are distinct.
   */
  static boolean consistent(Type a, Type b) {
    if (a.isAny() || b.isAny()) {
      return true;
    }
    if (a instanceof ListOf la && b instanceof ListOf lb) {
      return consistent(la.element, lb.element);
    }
    if (a instanceof MapOf ma && b instanceof MapOf mb) {
      return consistent(ma.element, mb.element);
    }
    if (a instanceof ExprOf ea && b instanceof ExprOf eb) {
      return consistent(ea.result, eb.result);
    }
    if (a instanceof Fn fa && b instanceof Fn fb) {
      if (fa.params.size() != fb.params.size()) {
        return false;
      }
      for (int i = 0; i < fa.params.size(); i++) {
        if (!consistent(fa.params.get(i), fb.params.get(i))) {
          return false;
        }
      }
      return consistent(fa.result, fb.result);
    }
    return a.equals(b);
  }

  /**
   * True when every value of static type {@code a} is certainly a value of type {@code b} (no
   * run-time check needed). {@code Any} is a subtype only of {@code Any}.
   */
  static boolean subtype(Type a, Type b) {
    if (b.isAny()) {
      return true;
    }
    if (a.isAny()) {
      return false;
    }
    if (a instanceof ListOf la && b instanceof ListOf lb) {
      return subtype(la.element, lb.element);
    }
    if (a instanceof MapOf ma && b instanceof MapOf mb) {
      return subtype(ma.element, mb.element);
    }
    if (a instanceof ExprOf && b.equals(STR)) {
      return true;
    }
    return a.equals(b);
  }

  /** The least common type of two: equal types stay, anything else is {@code Any}. */
  static Type join(Type a, Type b) {
    if (a.equals(b)) {
      return a;
    }
    if (a instanceof ListOf la && b instanceof ListOf lb) {
      return new ListOf(join(la.element, lb.element));
    }
    if (a instanceof MapOf ma && b instanceof MapOf mb) {
      return new MapOf(join(ma.element, mb.element));
    }
    return ANY;
  }
}
