package io.dataflow.monitor;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * The keyed monitor's key table: a map in first-arrival order (insertion order; a {@code put} of
 * a known key keeps its place, a removed key put again comes last) that finds a {@code Long}
 * key by its value. Why: with many keys a {@code HashMap} lookup misses the cache on its table
 * slot, then on the node it points to (and on the key object unless it is the same one); here
 * a {@code Long} key's value and its state sit at the same index of two arrays, loads that do
 * not depend on each other, so the lookup waits for one miss (see docs/performance.md, "Keyed
 * pipeline"). Other keys go through a {@code HashMap} to their place in the order.
 *
 * <p>Neither keys nor values may be null. Iteration fails fast on a new key (not on a
 * {@code put} of a known key or a removal through the iterator). Owner thread only.
 */
final class KeyTable extends AbstractMap<Object, Object> {
  private static final int MIN = 16;

  // Long keys: open addressing, linear probing, at most half full; a slot is free when its
  // value is null. Their spread is HashMap's (dense keys 0..n-1 fill a dense prefix).
  private long[] longKeys = new long[MIN];
  private Object[] longValues = new Object[MIN];
  /** The key's place in the order. */
  private int[] longPlaces = new int[MIN];
  private int longCount;

  /** Every other key's place in the order. */
  private final HashMap<Object, Integer> others = new HashMap<>();

  // The order: keys and values by place; a removed key leaves a hole (a null key).
  private Object[] orderKeys = new Object[MIN];
  private Object[] orderValues = new Object[MIN];
  private int end;
  private int size;
  private int modCount;

  private static int spread(long key) {
    int h = Long.hashCode(key);
    return h ^ (h >>> 16);
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean containsKey(Object key) {
    return get(key) != null;
  }

  @Override
  public Object get(Object key) {
    if (key instanceof Long l) {
      return getLong(l);
    }
    Integer place = others.get(key);
    return place == null ? null : orderValues[place];
  }

  private Object getLong(long key) {
    long[] ks = longKeys;
    Object[] vs = longValues;
    int mask = ks.length - 1;
    for (int i = spread(key) & mask; ; i = (i + 1) & mask) {
      Object v = vs[i];
      if (v == null || ks[i] == key) {
        return v;
      }
    }
  }

  /** The slot of a {@code Long} key, or -1. */
  private int slotOf(long key) {
    int mask = longKeys.length - 1;
    for (int i = spread(key) & mask; ; i = (i + 1) & mask) {
      if (longValues[i] == null) {
        return -1;
      }
      if (longKeys[i] == key) {
        return i;
      }
    }
  }

  @Override
  public Object put(Object key, Object value) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
    if (key instanceof Long l) {
      int i = slotOf(l);
      if (i >= 0) {
        Object old = longValues[i];
        longValues[i] = value;
        orderValues[longPlaces[i]] = value;
        return old;
      }
      insertLong(l, value, append(key, value));
      return null;
    }
    Integer place = others.get(key);
    if (place != null) {
      Object old = orderValues[place];
      orderValues[place] = value;
      return old;
    }
    others.put(key, append(key, value));
    return null;
  }

  private void insertLong(long key, Object value, int place) {
    if ((longCount + 1) * 2 > longKeys.length) {
      rehashLongs(longKeys.length * 2);
    }
    int mask = longKeys.length - 1;
    int i = spread(key) & mask;
    while (longValues[i] != null) {
      i = (i + 1) & mask;
    }
    longKeys[i] = key;
    longValues[i] = value;
    longPlaces[i] = place;
    longCount++;
  }

  private void rehashLongs(int capacity) {
    long[] ks = longKeys;
    Object[] vs = longValues;
    int[] ps = longPlaces;
    longKeys = new long[capacity];
    longValues = new Object[capacity];
    longPlaces = new int[capacity];
    longCount = 0;
    for (int i = 0; i < ks.length; i++) {
      if (vs[i] != null) {
        insertLong(ks[i], vs[i], ps[i]);
      }
    }
  }

  /** Adds a new key at the end of the order; may move every key's place (see compact). */
  private int append(Object key, Object value) {
    if (end == orderKeys.length) {
      if (size < end / 2) {
        compact();
      } else {
        orderKeys = java.util.Arrays.copyOf(orderKeys, end * 2);
        orderValues = java.util.Arrays.copyOf(orderValues, end * 2);
      }
    }
    orderKeys[end] = key;
    orderValues[end] = value;
    size++;
    modCount++;
    return end++;
  }

  /** Closes the holes of removed keys, in order, and points the indexes at the new places. */
  private void compact() {
    int to = 0;
    for (int from = 0; from < end; from++) {
      Object k = orderKeys[from];
      if (k == null) {
        continue;
      }
      orderKeys[to] = k;
      orderValues[to] = orderValues[from];
      if (k instanceof Long l) {
        longPlaces[slotOf(l)] = to;
      } else {
        others.put(k, to);
      }
      to++;
    }
    java.util.Arrays.fill(orderKeys, to, end, null);
    java.util.Arrays.fill(orderValues, to, end, null);
    end = to;
  }

  @Override
  public Object remove(Object key) {
    int place;
    if (key instanceof Long l) {
      int i = slotOf(l);
      if (i < 0) {
        return null;
      }
      place = longPlaces[i];
      deleteSlot(i);
    } else {
      Integer p = others.remove(key);
      if (p == null) {
        return null;
      }
      place = p;
    }
    Object old = orderValues[place];
    orderKeys[place] = null;
    orderValues[place] = null;
    size--;
    modCount++;
    return old;
  }

  /** Backward-shift deletion: the keys after the slot that probed past it move up. */
  private void deleteSlot(int i) {
    int mask = longKeys.length - 1;
    for (int j = (i + 1) & mask; longValues[j] != null; j = (j + 1) & mask) {
      int home = spread(longKeys[j]) & mask;
      boolean stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
      if (!stays) {
        longKeys[i] = longKeys[j];
        longValues[i] = longValues[j];
        longPlaces[i] = longPlaces[j];
        i = j;
      }
    }
    longKeys[i] = 0;
    longValues[i] = null;
    longCount--;
  }

  @Override
  public void clear() {
    longKeys = new long[MIN];
    longValues = new Object[MIN];
    longPlaces = new int[MIN];
    longCount = 0;
    others.clear();
    orderKeys = new Object[MIN];
    orderValues = new Object[MIN];
    end = 0;
    size = 0;
    modCount++;
  }

  @Override
  public Set<Map.Entry<Object, Object>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return size;
      }

      @Override
      public Iterator<Map.Entry<Object, Object>> iterator() {
        return new Entries();
      }
    };
  }

  /** The entries in order; {@code remove} forgets the last one returned. */
  private final class Entries implements Iterator<Map.Entry<Object, Object>> {
    private int next = skipHoles(0);
    private int last = -1;
    private int expected = modCount;

    private int skipHoles(int from) {
      while (from < end && orderKeys[from] == null) {
        from++;
      }
      return from;
    }

    @Override
    public boolean hasNext() {
      return next < end;
    }

    @Override
    public Map.Entry<Object, Object> next() {
      if (modCount != expected) {
        throw new ConcurrentModificationException();
      }
      if (next >= end) {
        throw new NoSuchElementException();
      }
      last = next;
      next = skipHoles(next + 1);
      return new Entry(orderKeys[last], last);
    }

    @Override
    public void remove() {
      if (last < 0) {
        throw new IllegalStateException();
      }
      if (modCount != expected) {
        throw new ConcurrentModificationException();
      }
      KeyTable.this.remove(orderKeys[last]);
      expected = modCount;
      last = -1;
    }
  }

  /** A key and its place; the value is read from (and written to) the table. */
  private final class Entry implements Map.Entry<Object, Object> {
    private final Object key;
    private final int place;

    Entry(Object key, int place) {
      this.key = key;
      this.place = place;
    }

    @Override
    public Object getKey() {
      return key;
    }

    @Override
    public Object getValue() {
      return orderValues[place];
    }

    @Override
    public Object setValue(Object value) {
      return put(key, value); // a known key: its place does not change
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Map.Entry<?, ?> e && key.equals(e.getKey())
          && Objects.equals(getValue(), e.getValue());
    }

    @Override
    public int hashCode() {
      return key.hashCode() ^ Objects.hashCode(getValue());
    }
  }
}
