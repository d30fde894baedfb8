package io.dataflow.monitor.eval;

import io.dataflow.core.Kind;

/**
 * The last {@code depth} raw samples of a stream (NoVal included), preallocated. Samples are
 * pushed once per tick, after the row succeeded. {@link #size()} counts the samples actually
 * held, so a ring resized deeper invents nothing.
 *
 * <p>Thread-safety: owner thread only.
 */
public final class HistoryRing {
  // Not final: a state transfer resizes the ring in place, so nodes holding it stay valid.
  // Public for the generated code's inline reads (codegen.FusedCompiler); owner thread only.
  /** The samples' kinds. */
  public byte[] tags;
  /** The samples' payloads. */
  public long[] bits;
  /**
   * The samples' references, or null while every sample pushed had none (made by the first
   * that has one, and kept from then on): a ring of scalars never makes it, one object fewer
   * per ring of every monitor made or restored (docs/decisions.md, "A ring's references and
   * the staged inputs on first use; equal cell arrays shared"). Read it through
   * {@link #refAt}.
   */
  Object[] refs;
  /** Where the newest sample is, or -1. */
  public int head = -1;
  /** How many samples are held. */
  public int size;

  /**
   * Whether this is a stream's own ring (a snapshot saves it with the stream's cell), not a
   * delay's or a body's private one (operator state).
   */
  final boolean ofCell;

  HistoryRing(int depth) {
    this(depth, false);
  }

  /** A stream's own ring. */
  static HistoryRing ofCell(int depth) {
    return new HistoryRing(depth, true);
  }

  private HistoryRing(int depth, boolean ofCell) {
    this.ofCell = ofCell;
    if (depth <= 0) {
      throw new IllegalArgumentException("depth must be positive: " + depth);
    }
    tags = new byte[depth];
    bits = new long[depth];
  }

  /** The reference of the sample in place {@code i} (null without one). */
  Object refAt(int i) {
    Object[] r = refs;
    return r == null ? null : r[i];
  }

  /** Sets the reference of the sample in place {@code i}, making the array for a first one. */
  void setRef(int i, Object ref) {
    Object[] r = refs;
    if (r == null) {
      if (ref == null) {
        return;
      }
      r = refs = new Object[tags.length];
    }
    if (r[i] != ref) {
      r[i] = ref; // skip the GC write barrier when nothing changes (scalar history)
    }
  }

  /** How many samples the ring holds at most. */
  public int depth() {
    return tags.length;
  }

  /** The number of samples held (at most the depth). */
  public int size() {
    return size;
  }

  /** Pushes this tick's sample (at the commit). */
  public void push(Slot s) {
    pushRaw(s.tag, s.bits, s.ref);
  }

  /** Pushes a sample given as its parts: a commit, a restore, generated batch code. */
  void pushRaw(byte tag, long payload, Object ref) {
    int h = head + 1;
    if (h == tags.length) {
      h = 0;
    }
    head = h;
    tags[h] = tag;
    bits[h] = payload;
    setRef(h, ref);
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
    out.setRaw(tags[i], bits[i], refAt(i));
  }

  /** Generated batch code: the kind of the sample {@code ago} ticks back (NoVal if none). */
  public byte tagAgo(int ago) {
    if (ago > size) {
      return Kind.NOVAL;
    }
    int i = head - (ago - 1);
    return tags[i < 0 ? i + tags.length : i];
  }

  /** Generated batch code: the payload of the sample {@code ago} ticks back (0 if none). */
  public long bitsAgo(int ago) {
    if (ago > size) {
      return 0;
    }
    int i = head - (ago - 1);
    return bits[i < 0 ? i + tags.length : i];
  }

  /** Generated batch code: pushes a scalar sample (no reference). */
  public void pushScalar(byte tag, long payload) {
    pushRaw(tag, payload, null);
  }

  /** Generated batch code: whether the ring is full and every sample is of {@code kind}. */
  public boolean fullOf(int kind) {
    if (size < tags.length) {
      return false;
    }
    for (byte t : tags) {
      if (t != kind) {
        return false;
      }
    }
    return true;
  }

  /** Generated batch code: after pushing every sample, how many of the newest are real. */
  public void keepNewest(int count) {
    size = count;
  }

  /** Resizes in place: a shallower ring keeps the newest samples, a deeper one invents none. */
  void resize(int newDepth) {
    if (newDepth <= 0) {
      throw new IllegalArgumentException("depth must be positive: " + newDepth);
    }
    int keep = Math.min(size, newDepth);
    byte[] t = new byte[newDepth];
    long[] b = new long[newDepth];
    Object[] r = refs == null ? null : new Object[newDepth];
    Slot tmp = new Slot();
    for (int ago = keep, i = 0; ago >= 1; ago--, i++) {
      read(ago, tmp);
      t[i] = tmp.tag;
      b[i] = tmp.bits;
      if (r != null) {
        r[i] = tmp.ref;
      }
    }
    tags = t;
    bits = b;
    refs = r;
    size = keep;
    head = keep - 1;
  }

  /** Forgets every sample. */
  void clear() {
    if (refs != null) {
      java.util.Arrays.fill(refs, null);
    }
    size = 0;
    head = -1;
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
