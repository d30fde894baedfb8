package io.dataflow.io.internal;

import io.dataflow.core.Kind;
import io.dataflow.core.Value;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The assignments of one tick while a reader assembles it, unboxed: a (kind, payload,
 * reference) triple per name, names in first-assignment order, the last assignment of a name
 * winning. Reused from tick to tick; {@link TickColumnsBuilder#add} copies it into a batch.
 *
 * <p>The usual tick assigns the names of the tick before, in the same order, each once: such a
 * name is found by identity at its position (the byte readers hand out one string per name),
 * without comparing it to the tick's other names; anything else is found by comparing names
 * (docs/performance.md, "Issue 21, eleventh round").
 *
 * <p>Thread-safety: one reading thread.
 */
public final class PendingTick {
  String[] names = new String[4];
  byte[] kinds = new byte[4];
  long[] bits = new long[4];
  Object[] refs = new Object[4];
  int count;
  // names[0..before) are the distinct names of the tick before the last clear(); while every
  // name of this tick so far is the one at its position there (asBefore), names[count] is a
  // name this tick has not assigned yet, found by identity alone.
  private int before;
  private boolean asBefore = true;
  private boolean referenced; // a reference was put since the last clear()

  /** Forgets every assignment. */
  public void clear() {
    if (referenced) {
      Arrays.fill(refs, 0, count, null);
      referenced = false;
    }
    before = count;
    asBefore = true;
    count = 0;
  }

  /** The number of distinct names assigned. */
  public int size() {
    return count;
  }

  /** Assigns a value given as a triple (see {@link Kind}); the name keeps its first position. */
  public void put(String name, byte kind, long payload, Object ref) {
    int i;
    if (asBefore && count < before && names[count] == name) {
      i = count++; // the usual tick: the names of the tick before, in the same order
    } else {
      asBefore = false;
      i = indexOf(name);
    }
    if (i < 0) {
      if (count == names.length) {
        int n = count * 2;
        names = Arrays.copyOf(names, n);
        kinds = Arrays.copyOf(kinds, n);
        bits = Arrays.copyOf(bits, n);
        refs = Arrays.copyOf(refs, n);
      }
      i = count++;
      names[i] = name;
    }
    kinds[i] = kind;
    bits[i] = payload;
    if (ref != null) {
      referenced = true;
      refs[i] = ref;
    } else if (referenced) {
      refs[i] = null;
    }
  }

  /** Assigns a boxed value. */
  public void put(String name, Value value) {
    put(name, value.kind(), Kind.bitsOf(value), Kind.refOf(value));
  }

  private int indexOf(String name) {
    for (int i = 0; i < count; i++) {
      if (names[i] == name || names[i].equals(name)) {
        return i;
      }
    }
    return -1;
  }

  /** The assignments boxed, in first-assignment order (unmodifiable). */
  public Map<String, Value> toMap() {
    if (count == 0) {
      return Collections.emptyMap();
    }
    Map<String, Value> m = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      m.put(names[i], Kind.box(kinds[i], bits[i], refs[i]));
    }
    return Collections.unmodifiableMap(m);
  }
}
