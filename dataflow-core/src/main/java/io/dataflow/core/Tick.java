package io.dataflow.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The input assignments of one logical tick: a value per supplied input; an input not named is
 * NoVal for that tick. An empty tick is still a tick: every input is NoVal.
 *
 * <p>Thread-safety: immutable.
 */
public final class Tick {
  private static final Tick EMPTY = new Tick(TickShape.of(), new Value[0]);
  private final TickShape shape;
  private final Value[] values;

  Tick(TickShape shape, Value[] values) {
    for (Value v : values) {
      Objects.requireNonNull(v, "value");
    }
    this.shape = shape;
    this.values = values;
  }

  /** The tick in which no input has a value. */
  public static Tick empty() {
    return EMPTY;
  }

  /** A tick with one assignment. */
  public static Tick of(String name, Value value) {
    return new Tick(TickShape.of(name), new Value[] {value});
  }

  /** A tick with two assignments. */
  public static Tick of(String name1, Value value1, String name2, Value value2) {
    return new Tick(TickShape.of(name1, name2), new Value[] {value1, value2});
  }

  /** A tick from named values (iteration order kept). */
  public static Tick of(Map<String, Value> values) {
    if (values.isEmpty()) {
      return EMPTY;
    }
    String[] names = new String[values.size()];
    Value[] vals = new Value[values.size()];
    int i = 0;
    for (Map.Entry<String, Value> e : values.entrySet()) {
      names[i] = e.getKey();
      vals[i++] = e.getValue();
    }
    return new Tick(TickShape.of(names), vals);
  }

  /** The names this tick assigns. */
  public TickShape shape() {
    return shape;
  }

  /** The number of assignments. */
  public int size() {
    return values.length;
  }

  /** The value assigned to the {@code i}-th name of the shape. */
  public Value value(int i) {
    return values[i];
  }

  /** The assignments as a map, in shape order. */
  public Map<String, Value> asMap() {
    Map<String, Value> m = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i++) {
      m.put(shape.name(i), values[i]);
    }
    return Collections.unmodifiableMap(m);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Tick t && asMap().equals(t.asMap());
  }

  @Override
  public int hashCode() {
    return asMap().hashCode();
  }

  @Override
  public String toString() {
    return "Tick" + asMap();
  }
}
