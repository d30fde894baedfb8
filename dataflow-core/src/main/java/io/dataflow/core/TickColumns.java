package io.dataflow.core;

import java.util.Arrays;

/**
 * A batch of ticks in columns: for each slot of a {@link RowLayout}, one column of kinds, one of
 * payloads and one of references, each {@link #capacity()} ticks long; the first
 * {@link #size()} ticks are the batch. The columnar twin of {@link Row}, reused from batch to
 * batch: what a row holds for one tick, a column holds for tick {@code t} of the batch.
 *
 * <p>For bulk filling, {@link #kinds(int)} and {@link #payloads(int)} return the columns
 * themselves (no copies): a caller that knows its inputs writes kinds and payloads straight into
 * them. A slot's reference column only matters for kinds with a reference payload (Str, List,
 * Map); for scalar kinds the payload column holds the value as {@link Row#bits} does.
 *
 * <p>Thread-safety: none; one thread fills a batch, then hands it over.
 */
public final class TickColumns {
  private final byte[][] kinds;
  private final long[][] payloads;
  private final Object[][] refs;
  /** Per slot: whether its reference column may hold a reference (set conservatively). */
  private final boolean[] referenced;
  private final int capacity;
  private int size;

  /**
   * Empty columns for {@code width} slots and up to {@code capacity} ticks, every value NoVal.
   *
   * @throws IllegalArgumentException when width or capacity is negative
   */
  public TickColumns(int width, int capacity) {
    if (width < 0 || capacity < 0) {
      throw new IllegalArgumentException("width and capacity must be >= 0, got " + width
          + " and " + capacity);
    }
    this.capacity = capacity;
    kinds = new byte[width][capacity];
    payloads = new long[width][capacity];
    refs = new Object[width][capacity];
    referenced = new boolean[width];
  }

  /** The number of slots. */
  public int width() {
    return kinds.length;
  }

  /** The most ticks a batch holds. */
  public int capacity() {
    return capacity;
  }

  /** The number of ticks in the batch. */
  public int size() {
    return size;
  }

  /**
   * Sets the number of ticks in the batch (the first {@code size} of each column).
   *
   * @throws IllegalArgumentException when {@code size} is negative or above the capacity
   */
  public void setSize(int size) {
    if (size < 0 || size > capacity) {
      throw new IllegalArgumentException("size " + size + " is outside 0.." + capacity);
    }
    this.size = size;
  }

  /** Makes every value of the first {@code size()} ticks NoVal and the batch empty. */
  public void clear() {
    for (int s = 0; s < kinds.length; s++) {
      Arrays.fill(kinds[s], 0, size, Kind.NOVAL);
      clearReferences(s, 0, size);
    }
    size = 0;
  }

  /** The column of kinds of {@code slot} (the array itself, {@link Kind} constants). */
  public byte[] kinds(int slot) {
    return kinds[slot];
  }

  /** The column of payloads of {@code slot} (the array itself, as {@link Row#bits}). */
  public long[] payloads(int slot) {
    return payloads[slot];
  }

  /** The column of references of {@code slot} (the array itself, as {@link Row#ref}). */
  public Object[] refs(int slot) {
    referenced[slot] = true; // the caller may write through it
    return refs[slot];
  }

  /**
   * Sets the references of ticks {@code from} to {@code to - 1} of {@code slot} to null, for a
   * writer of scalar kinds and payloads only; free when the column never held a reference.
   */
  public void clearReferences(int slot, int from, int to) {
    if (!referenced[slot]) {
      return;
    }
    Object[] r = refs[slot];
    for (int t = from; t < to; t++) {
      if (r[t] != null) {
        r[t] = null;
      }
    }
  }

  /** The kind of the value of {@code slot} at tick {@code tick}. */
  public byte kind(int slot, int tick) {
    return kinds[slot][tick];
  }

  /** The payload bits of the value of {@code slot} at tick {@code tick}. */
  public long bits(int slot, int tick) {
    return payloads[slot][tick];
  }

  /**
   * The reference payload of the value of {@code slot} at tick {@code tick} (null for the scalar
   * kinds), as {@link Row#ref} holds it; unlike {@link #refs(int)} it reads without marking the
   * column as written.
   */
  public Object ref(int slot, int tick) {
    return referenced[slot] ? refs[slot][tick] : null;
  }

  /** The value of {@code slot} at tick {@code tick}, boxed. */
  public Value get(int slot, int tick) {
    return Kind.box(kinds[slot][tick], payloads[slot][tick], refs[slot][tick]);
  }

  /** The Int of {@code slot} at tick {@code tick}; throws unless it is one. */
  public long getInt(int slot, int tick) {
    requireKind(slot, tick, Kind.INT);
    return payloads[slot][tick];
  }

  /** The Float of {@code slot} at tick {@code tick}; throws unless it is one. */
  public double getFloat(int slot, int tick) {
    requireKind(slot, tick, Kind.FLOAT);
    return Double.longBitsToDouble(payloads[slot][tick]);
  }

  /** The Bool of {@code slot} at tick {@code tick}; throws unless it is one. */
  public boolean getBool(int slot, int tick) {
    requireKind(slot, tick, Kind.BOOL);
    return payloads[slot][tick] != 0;
  }

  /** Sets an Int. */
  public void setInt(int slot, int tick, long value) {
    setRaw(slot, tick, Kind.INT, value, null);
  }

  /** Sets a Float. */
  public void setFloat(int slot, int tick, double value) {
    setRaw(slot, tick, Kind.FLOAT, Double.doubleToRawLongBits(value), null);
  }

  /** Sets a Bool. */
  public void setBool(int slot, int tick, boolean value) {
    setRaw(slot, tick, Kind.BOOL, value ? 1 : 0, null);
  }

  /** Sets a Str. */
  public void setStr(int slot, int tick, String value) {
    setRaw(slot, tick, Kind.STR, 0, java.util.Objects.requireNonNull(value, "value"));
  }

  /** Makes the value absent. */
  public void setNoVal(int slot, int tick) {
    setRaw(slot, tick, Kind.NOVAL, 0, null);
  }

  /** Sets any value. */
  public void set(int slot, int tick, Value value) {
    setRaw(slot, tick, value.kind(), Kind.bitsOf(value), Kind.refOf(value));
  }

  /** Sets a (kind, payload, reference) triple, as {@link Row#setRaw} does. */
  public void setRaw(int slot, int tick, byte kind, long payload, Object ref) {
    kinds[slot][tick] = kind;
    payloads[slot][tick] = payload;
    if (ref != null || referenced[slot]) { // a column that never held one holds only nulls
      Object[] r = refs[slot];
      if (r[tick] != ref) {
        r[tick] = ref; // a reference store pays a GC barrier: only when it changes
        if (ref != null) {
          referenced[slot] = true;
        }
      }
    }
  }

  /** Copies tick {@code tick} into {@code row} (of the same width). */
  public void copyTo(int tick, Row row) {
    for (int s = 0; s < kinds.length; s++) {
      row.setRaw(s, kinds[s][tick], payloads[s][tick], referenced[s] ? refs[s][tick] : null);
    }
  }

  /** Copies {@code row} (of the same width) into tick {@code tick}. */
  public void copyFrom(Row row, int tick) {
    for (int s = 0; s < kinds.length; s++) {
      setRaw(s, tick, row.kind(s), row.bits(s), row.ref(s));
    }
  }

  /**
   * Copies ticks {@code from} to {@code from + length - 1} of slot {@code slot} into ticks
   * {@code to} to {@code to + length - 1} of slot {@code targetSlot} of {@code target} (bulk
   * array copies; references only when either column may hold one).
   */
  public void copyColumn(int slot, int from, TickColumns target, int targetSlot, int to,
      int length) {
    System.arraycopy(kinds[slot], from, target.kinds[targetSlot], to, length);
    System.arraycopy(payloads[slot], from, target.payloads[targetSlot], to, length);
    if (referenced[slot]) {
      System.arraycopy(refs[slot], from, target.refs[targetSlot], to, length);
      target.referenced[targetSlot] = true;
    } else {
      target.clearReferences(targetSlot, to, to + length);
    }
  }

  /** Makes ticks {@code from} to {@code to - 1} of {@code slot} NoVal. */
  public void clearColumn(int slot, int from, int to) {
    Arrays.fill(kinds[slot], from, to, Kind.NOVAL);
    clearReferences(slot, from, to);
  }

  private void requireKind(int slot, int tick, byte kind) {
    if (kinds[slot][tick] != kind) {
      throw new IllegalStateException("slot " + slot + " at tick " + tick + " holds "
          + Kind.name(kinds[slot][tick]) + ", not " + Kind.name(kind));
    }
  }

  @Override
  public String toString() {
    return "TickColumns[" + kinds.length + " slots, " + size + "/" + capacity + " ticks]";
  }
}
