package io.dataflow.monitor;

import java.util.Arrays;

/**
 * {@link KeyedMonitor}'s keys and their states: an open-addressing hash table (linear probing,
 * backward-shift deletion) whose key and state reference share one array, so a lookup reads one
 * cache line of the table instead of a {@code HashMap}'s table slot and node. Keys are compared
 * with {@code equals} (the same object first, see {@link #slotOf}). Iteration is in first-arrival order (see
 * {@link #ordered}), independent of the hashes.
 *
 * <p>Owner thread only; null keys and states are not allowed.
 */
final class KeyTable {
  /** Grows when more than this fraction of slots is taken (linear probing stays short). */
  private static final float MAX_LOAD = 0.5f;
  private static final int MIN_CAPACITY = 16;
  /** Capacities are powers of two, so an index takes {@code 32 - shift} bits of the hash. */
  private static final int MAX_CAPACITY = 1 << 29;

  /** Slot {@code i}'s key at {@code 2i}, its state at {@code 2i + 1}; a free slot's key is null. */
  private Object[] table;
  /** Slot {@code i}'s arrival number (the order of {@link #ordered}). */
  private int[] arrival;
  private int shift;
  private int size;
  private int growAt;
  /** The next key's arrival number; renumbered (see {@link #renumber}) before it overflows. */
  private int nextArrival;

  KeyTable() {
    allocate(MIN_CAPACITY);
  }

  private void allocate(int capacity) {
    table = new Object[2 * capacity];
    arrival = new int[capacity];
    shift = 32 - Integer.numberOfTrailingZeros(capacity);
    growAt = (int) (capacity * MAX_LOAD);
  }

  /** The number of keys. */
  int size() {
    return size;
  }

  /** Fibonacci hashing: spreads the key's hash over the high bits, which pick the slot. */
  private int home(Object key) {
    return (key.hashCode() * 0x9E3779B9) >>> shift;
  }

  /**
   * The slot holding {@code key}, or -1. The probe run is scanned for the same object first:
   * a source that reuses its key objects then reads no other key (each {@code equals} of a key
   * not in the cache is a miss, and the table keeps no hashes to rule keys out).
   */
  int slotOf(Object key) {
    Object[] t = table;
    int mask = arrival.length - 1;
    int start = home(key);
    for (int i = start; ; i = (i + 1) & mask) {
      Object k = t[2 * i];
      if (k == key) {
        return i;
      }
      if (k == null) {
        break;
      }
    }
    for (int i = start; ; i = (i + 1) & mask) {
      Object k = t[2 * i];
      if (k == null) {
        return -1;
      }
      if (key.equals(k)) {
        return i;
      }
    }
  }

  /** {@code key}'s state, or null. */
  Object get(Object key) {
    int slot = slotOf(key);
    return slot < 0 ? null : table[2 * slot + 1];
  }

  /**
   * Sets {@code key}'s state; a new key comes last in the arrival order, a known key keeps its
   * place.
   *
   * @return the key's previous state, or null
   */
  Object put(Object key, Object state) {
    if (state == null) {
      throw new NullPointerException("state");
    }
    int slot = slotOf(key);
    if (slot >= 0) {
      Object old = table[2 * slot + 1];
      table[2 * slot + 1] = state;
      return old;
    }
    if (size >= growAt) {
      grow();
    }
    int i = freeSlot(key);
    if (nextArrival == Integer.MAX_VALUE) {
      renumber();
    }
    table[2 * i] = key;
    table[2 * i + 1] = state;
    arrival[i] = nextArrival++;
    size++;
    return null;
  }

  /** Sets the state of the key in {@code slot} (from {@link #slotOf} or {@link #ordered}). */
  void setState(int slot, Object state) {
    table[2 * slot + 1] = state;
  }

  Object keyAt(int slot) {
    return table[2 * slot];
  }

  Object stateAt(int slot) {
    return table[2 * slot + 1];
  }

  private int freeSlot(Object key) {
    int mask = arrival.length - 1;
    int i = home(key);
    while (table[2 * i] != null) {
      i = (i + 1) & mask;
    }
    return i;
  }

  private void grow() {
    if (arrival.length >= MAX_CAPACITY) {
      throw new IllegalStateException("a keyed monitor holds at most " + (MAX_CAPACITY / 2)
          + " keys");
    }
    Object[] old = table;
    int[] oldArrival = arrival;
    allocate(2 * oldArrival.length);
    for (int j = 0; j < oldArrival.length; j++) {
      Object k = old[2 * j];
      if (k != null) {
        int i = freeSlot(k);
        table[2 * i] = k;
        table[2 * i + 1] = old[2 * j + 1];
        arrival[i] = oldArrival[j];
      }
    }
  }

  /**
   * Removes {@code key}.
   *
   * @return its state, or null when it had none
   */
  Object remove(Object key) {
    int slot = slotOf(key);
    if (slot < 0) {
      return null;
    }
    Object old = table[2 * slot + 1];
    removeAt(slot);
    return old;
  }

  /**
   * Empties {@code slot} and shifts the entries of its probe run back, so that no lookup meets a
   * hole before its key (no tombstones: lookups stay as short as the load factor says).
   */
  void removeAt(int slot) {
    int mask = arrival.length - 1;
    int hole = slot;
    for (int i = (slot + 1) & mask; ; i = (i + 1) & mask) {
      Object k = table[2 * i];
      if (k == null) {
        break;
      }
      int h = home(k);
      // k may fill the hole when its home is not in (hole, i] (cyclically).
      if (((i - h) & mask) >= ((i - hole) & mask)) {
        table[2 * hole] = k;
        table[2 * hole + 1] = table[2 * i + 1];
        arrival[hole] = arrival[i];
        hole = i;
      }
    }
    table[2 * hole] = null;
    table[2 * hole + 1] = null;
    size--;
  }

  /**
   * The slots of all keys in first-arrival order: the order in which keys were put first (a key
   * removed and put again comes where it was put again). The slots are valid until the table
   * changes by a {@link #put} of a new key or a removal; {@link #setState} keeps them.
   */
  int[] ordered() {
    long[] packed = new long[size];
    int n = 0;
    for (int i = 0; i < arrival.length; i++) {
      if (table[2 * i] != null) {
        packed[n++] = ((long) arrival[i] << 32) | i;
      }
    }
    Arrays.sort(packed); // arrival numbers are non-negative and distinct
    int[] slots = new int[n];
    for (int j = 0; j < n; j++) {
      slots[j] = (int) packed[j];
    }
    return slots;
  }

  /** Numbers the keys 0, 1, ... in their order, so arrival numbers stay ints. */
  private void renumber() {
    int[] slots = ordered();
    for (int j = 0; j < slots.length; j++) {
      arrival[slots[j]] = j;
    }
    nextArrival = slots.length;
  }
}
