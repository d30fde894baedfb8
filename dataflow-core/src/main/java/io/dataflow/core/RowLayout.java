package io.dataflow.core;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The names of a row's slots, in slot order: a monitor's inputs or outputs in declaration
 * order. Looking a name up is a hash lookup; the engine caches the result per tick shape, so
 * the tick path never looks names up.
 *
 * <p>Thread-safety: immutable.
 */
public final class RowLayout {
  private final String[] names;
  private final Map<String, Integer> slots;

  private RowLayout(String[] names) {
    this.names = names;
    this.slots = new HashMap<>(names.length * 2);
    for (int i = 0; i < names.length; i++) {
      if (slots.put(names[i], i) != null) {
        throw new IllegalArgumentException("duplicate name in row layout: " + names[i]);
      }
    }
  }

  /** A layout with the given names in slot order. */
  public static RowLayout of(List<String> names) {
    return new RowLayout(names.toArray(new String[0]));
  }

  /** A layout with the given names in slot order. */
  public static RowLayout of(String... names) {
    return new RowLayout(names.clone());
  }

  /** The number of slots. */
  public int width() {
    return names.length;
  }

  /** The name of a slot. */
  public String name(int slot) {
    return names[slot];
  }

  /** The names in slot order. */
  public List<String> names() {
    return List.of(names);
  }

  /** The slot of a name, or -1 when the layout has no such name. */
  public int slotOf(String name) {
    Integer slot = slots.get(name);
    return slot == null ? -1 : slot;
  }

  /** A new row of this width, every slot NoVal. */
  public Row newRow() {
    return new Row(names.length);
  }

  /** Empty columns of this layout's width for batches of up to {@code capacity} ticks. */
  public TickColumns newColumns(int capacity) {
    return new TickColumns(names.length, capacity);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RowLayout other && Arrays.equals(names, other.names);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(names);
  }

  @Override
  public String toString() {
    return Arrays.toString(names);
  }
}
