package io.dataflow.monitor;

import io.dataflow.core.Kind;

/**
 * The last {@code depth} raw samples of a stream (NoVal included), preallocated. Samples are
 * pushed once per tick, after the row succeeded. {@link #size()} counts the samples actually
 * held, so a ring resized deeper invents nothing.
 *
 * <p>Thread-safety: owner thread only.
 */
final class HistoryRing {
  private final byte[] tags;
  private final long[] bits;
  private final Object[] refs;
  private int head = -1;
  private int size;

  HistoryRing(int depth) {
    if (depth <= 0) {
      throw new IllegalArgumentException("depth must be positive: " + depth);
    }
    tags = new byte[depth];
    bits = new long[depth];
    refs = new Object[depth];
  }

  int depth() {
    return tags.length;
  }

  /** The number of samples held (at most the depth). */
  int size() {
    return size;
  }

  void push(Slot s) {
    int h = head + 1;
    if (h == tags.length) {
      h = 0;
    }
    head = h;
    tags[h] = s.tag;
    bits[h] = s.bits;
    refs[h] = s.ref;
    if (size < tags.length) {
      size++;
    }
  }

  /** Reads the sample committed {@code ago} ticks back (1 = the latest) into {@code out}. */
  void read(int ago, Slot out) {
    int i = head - (ago - 1);
    if (i < 0) {
      i += tags.length;
    }
    out.tag = tags[i];
    out.bits = bits[i];
    out.ref = refs[i];
  }

  /** A copy of this ring with a new depth: a shallower one keeps the newest samples. */
  HistoryRing resized(int newDepth) {
    HistoryRing r = new HistoryRing(newDepth);
    int keep = Math.min(size, newDepth);
    Slot tmp = new Slot();
    for (int ago = keep; ago >= 1; ago--) {
      read(ago, tmp);
      r.push(tmp);
    }
    return r;
  }

  /** Renders the held samples, oldest first (for diagnostics). */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("[");
    Slot tmp = new Slot();
    for (int ago = size; ago >= 1; ago--) {
      read(ago, tmp);
      sb.append(tmp.tag == Kind.FUNCTION ? "Function" : tmp.toValue().toString());
      if (ago > 1) {
        sb.append(", ");
      }
    }
    return sb.append(']').toString();
  }
}
