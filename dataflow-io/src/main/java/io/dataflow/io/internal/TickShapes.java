package io.dataflow.io.internal;

import io.dataflow.core.Tick;
import io.dataflow.core.TickShape;
import io.dataflow.core.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Makes ticks from named values with one {@link TickShape} per distinct list of names: the
 * engine caches name-to-slot resolution per shape object, so ticks parsed one by one keep
 * hitting that cache instead of resolving (and allocating) a shape per tick. Bounded: a source
 * with ever-new name lists just starts over.
 *
 * <p>Thread-safety: one thread (the one reading the source).
 */
public final class TickShapes {
  private static final int LIMIT = 1024;
  private final Map<List<String>, TickShape> shapes = new HashMap<>();

  /** A tick assigning {@code values} in their iteration order. */
  /** The tick of these values, sharing the shape of earlier ticks with the same names. */
  public Tick tick(Map<String, Value> values) {
    if (values.isEmpty()) {
      return Tick.empty();
    }
    List<String> names = new ArrayList<>(values.keySet());
    TickShape shape = shapes.get(names);
    if (shape == null) {
      if (shapes.size() >= LIMIT) {
        shapes.clear();
      }
      shape = TickShape.of(names);
      shapes.put(names, shape);
    }
    return shape.tick(values.values().toArray(new Value[0]));
  }
}
