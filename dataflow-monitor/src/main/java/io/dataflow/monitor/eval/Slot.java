package io.dataflow.monitor.eval;

import io.dataflow.core.Kind;
import io.dataflow.core.Row;
import io.dataflow.core.Value;

/**
 * One unboxed value: a {@link Kind} tag, 64 payload bits and a reference. Stream cells, node
 * results, lifting memories and history samples are all slots, so scalar evaluation never
 * allocates.
 *
 * <p>The tag and the payload are public fields because generated code
 * ({@code io.dataflow.monitor.codegen}) reads and writes them inline; so are the few methods it
 * calls.
 *
 * <p>Thread-safety: owner thread only.
 */
public class Slot {
  /** The {@link Kind} of the value. */
  public byte tag = Kind.NOVAL;
  /** The payload of a scalar: an Int, a Float's raw bits, 1 or 0 for a Bool. */
  public long bits;
  Object ref;

  // Reference stores are written only when the reference changes: a store pays the garbage
  // collector's write barrier, and a scalar tick would otherwise pay it for every null.

  public final void set(Slot other) {
    tag = other.tag;
    bits = other.bits;
    Object r = other.ref;
    if (r != ref) {
      ref = r;
    }
  }

  public final void setRaw(byte t, long b, Object r) {
    tag = t;
    bits = b;
    if (r != ref) {
      ref = r;
    }
  }

  public final void clearRef() {
    if (ref != null) {
      ref = null;
    }
  }

  public final void setNoVal() {
    tag = Kind.NOVAL;
    clearRef();
  }

  final void setDeferred() {
    tag = Kind.DEFERRED;
    clearRef();
  }

  final void setInt(long v) {
    tag = Kind.INT;
    bits = v;
    clearRef();
  }

  final void setFloat(double v) {
    tag = Kind.FLOAT;
    bits = Double.doubleToRawLongBits(v);
    clearRef();
  }

  final void setBool(boolean v) {
    tag = Kind.BOOL;
    bits = v ? 1 : 0;
    clearRef();
  }

  final void setStr(String s) {
    tag = Kind.STR;
    ref = s;
  }

  public final void setValue(Value v) {
    tag = v.kind();
    bits = Kind.bitsOf(v);
    ref = Kind.refOf(v);
  }

  final void setFromRow(Row row, int slot) {
    tag = row.kind(slot);
    bits = row.bits(slot);
    Object r = row.ref(slot);
    if (r != ref) {
      ref = r;
    }
  }

  public final void copyTo(Row row, int slot) {
    row.setRaw(slot, tag, bits, ref);
  }

  final boolean isNoVal() {
    return tag == Kind.NOVAL;
  }

  final boolean isPresent() {
    return tag > Kind.DEFERRED;
  }

  final double asDouble() {
    return tag == Kind.INT ? (double) bits : Double.longBitsToDouble(bits);
  }

  final boolean asBool() {
    return bits != 0;
  }

  /** Boxes this slot (allocates; used at the API edge and for collections). */
  public final Value toValue() {
    return Kind.box(tag, bits, ref);
  }

  /**
   * Sample-and-hold: returns {@code v} and remembers it in {@code held}, or returns
   * {@code held} when {@code v} is NoVal.
   */
  static Slot lift(Slot v, Slot held) {
    if (v.tag == Kind.NOVAL) {
      return held;
    }
    held.set(v);
    return v;
  }

  @Override
  public String toString() {
    return tag == Kind.FUNCTION ? "Function" : String.valueOf(toValue());
  }
}
