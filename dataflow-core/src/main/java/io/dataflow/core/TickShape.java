package io.dataflow.core;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The names a family of ticks assigns, in a fixed order. Ticks made from one shape share it,
 * so the engine resolves the names to row slots once per shape and caches the result.
 *
 * <p>Thread-safety: immutable.
 */
public final class TickShape {
  private final String[] names;

  private TickShape(String[] names) {
    this.names = names;
  }

  /** A shape assigning the given distinct names. */
  public static TickShape of(String... names) {
    String[] copy = names.clone();
    for (int i = 0; i < copy.length; i++) {
      Objects.requireNonNull(copy[i], "name");
      for (int j = 0; j < i; j++) {
        if (copy[j].equals(copy[i])) {
          throw new IllegalArgumentException("duplicate name in tick shape: " + copy[i]);
        }
      }
    }
    return new TickShape(copy);
  }

  /** A shape assigning the given distinct names. */
  public static TickShape of(List<String> names) {
    return of(names.toArray(new String[0]));
  }

  /** The number of names. */
  public int size() {
    return names.length;
  }

  /** The name at a position. */
  public String name(int i) {
    return names[i];
  }

  /** The names in order. */
  public List<String> names() {
    return List.of(names);
  }

  /** A tick assigning {@code values} to this shape's names, in order. */
  public Tick tick(Value... values) {
    if (values.length != names.length) {
      throw new IllegalArgumentException("shape " + this + " needs " + names.length
          + " values, got " + values.length);
    }
    return new Tick(this, values.clone());
  }

  @Override
  public String toString() {
    return Arrays.toString(names);
  }
}
