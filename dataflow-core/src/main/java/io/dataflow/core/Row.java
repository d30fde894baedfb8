package io.dataflow.core;

import java.util.Arrays;

/**
 * A reusable row of values, one slot per stream of a {@link RowLayout}: the inputs of one tick
 * going into a monitor, or the outputs coming out.
 *
 * <p>Values are stored unboxed (a tag, 64 payload bits and a reference per slot; see
 * {@link Kind}), so filling and reading a row of scalars allocates nothing. {@link #get(int)}
 * and {@link #set(int, Value)} box at the API edge.
 *
 * <p>Thread-safety: not thread-safe; a row belongs to the thread that fills or reads it.
 */
public final class Row {
  private final byte[] tags;
  private final long[] bits;
  private final Object[] refs;

  /** A row of {@code width} slots, every slot NoVal. */
  public Row(int width) {
    tags = new byte[width];
    bits = new long[width];
    refs = new Object[width];
  }

  /** The number of slots. */
  public int width() {
    return tags.length;
  }

  /** Sets every slot to NoVal. */
  public void clear() {
    Arrays.fill(tags, Kind.NOVAL);
    for (int i = 0; i < refs.length; i++) {
      if (refs[i] != null) {
        refs[i] = null; // write only what changes: every reference store pays a GC barrier
      }
    }
  }

  /** The kind of the value in a slot ({@link Kind}). */
  public byte kind(int slot) {
    return tags[slot];
  }

  /** True when the slot holds neither NoVal nor Deferred. */
  public boolean isPresent(int slot) {
    return tags[slot] > Kind.DEFERRED;
  }

  /** The raw payload bits of a slot (an Int, a Float's raw bits, or 0/1 for a Bool). */
  public long bits(int slot) {
    return bits[slot];
  }

  /** The reference payload of a slot (a String, {@link Value.List} or {@link Value.Map}). */
  public Object ref(int slot) {
    return refs[slot];
  }

  /** The Int in a slot; the slot must hold an Int. */
  public long getInt(int slot) {
    requireKind(slot, Kind.INT);
    return bits[slot];
  }

  /** The Float in a slot; the slot must hold a Float. */
  public double getFloat(int slot) {
    requireKind(slot, Kind.FLOAT);
    return Double.longBitsToDouble(bits[slot]);
  }

  /** The Bool in a slot; the slot must hold a Bool. */
  public boolean getBool(int slot) {
    requireKind(slot, Kind.BOOL);
    return bits[slot] != 0;
  }

  /** The value in a slot, boxed. */
  public Value get(int slot) {
    return Kind.box(tags[slot], bits[slot], refs[slot]);
  }

  /** Sets a slot from primitive parts (see {@link Kind}). */
  public void setRaw(int slot, byte kind, long payload, Object ref) {
    tags[slot] = kind;
    bits[slot] = payload;
    setRef(slot, ref);
  }

  private void setRef(int slot, Object ref) {
    if (refs[slot] != ref) {
      refs[slot] = ref; // write only what changes: every reference store pays a GC barrier
    }
  }

  /** Sets a slot to an Int. */
  public void setInt(int slot, long value) {
    tags[slot] = Kind.INT;
    bits[slot] = value;
    setRef(slot, null);
  }

  /** Sets a slot to a Float. */
  public void setFloat(int slot, double value) {
    tags[slot] = Kind.FLOAT;
    bits[slot] = Double.doubleToRawLongBits(value);
    setRef(slot, null);
  }

  /** Sets a slot to a Bool. */
  public void setBool(int slot, boolean value) {
    tags[slot] = Kind.BOOL;
    bits[slot] = value ? 1 : 0;
    setRef(slot, null);
  }

  /** Sets a slot to a Str. */
  public void setStr(int slot, String value) {
    tags[slot] = Kind.STR;
    bits[slot] = 0;
    setRef(slot, value);
  }

  /** Sets a slot to NoVal. */
  public void setNoVal(int slot) {
    tags[slot] = Kind.NOVAL;
    setRef(slot, null);
  }

  /** Sets a slot to any value. */
  public void set(int slot, Value value) {
    tags[slot] = value.kind();
    bits[slot] = Kind.bitsOf(value);
    setRef(slot, Kind.refOf(value));
  }

  /** Copies every slot of {@code other} (same width) into this row. */
  public void copyFrom(Row other) {
    if (other.tags.length != tags.length) {
      // Without the check a wider source would be silently truncated.
      throw new IllegalArgumentException("cannot copy a row of width " + other.tags.length
          + " into a row of width " + tags.length);
    }
    System.arraycopy(other.tags, 0, tags, 0, tags.length);
    System.arraycopy(other.bits, 0, bits, 0, bits.length);
    System.arraycopy(other.refs, 0, refs, 0, refs.length);
  }

  private void requireKind(int slot, byte kind) {
    if (tags[slot] != kind) {
      throw new IllegalStateException(
          "slot " + slot + " holds " + Kind.name(tags[slot]) + ", not " + Kind.name(kind));
    }
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("Row[");
    for (int i = 0; i < tags.length; i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(get(i));
    }
    return sb.append(']').toString();
  }
}
