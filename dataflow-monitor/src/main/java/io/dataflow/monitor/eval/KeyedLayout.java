package io.dataflow.monitor.eval;

/**
 * One key's state of a keyed monitor as a flat {@code long[]} (a vector), and the loops that
 * load a vector into an evaluator and store the evaluator's state back, so one evaluator runs
 * the ticks of every key. The state-bearing objects are found once ({@link StateInventory});
 * load and store are loops over them, without reflection.
 *
 * <h2>Vector format</h2>
 * {@code [LAST_SEEN] [TICK]}, then the wide part (one {@code long} per value payload, ring
 * sample and typed memory), then the narrow part (kinds, flags, ring positions and the
 * caller's revision index, eight bytes to a {@code long}). References (strings, collections)
 * go to a separate {@code Object[]}, which a key has only while one of its values is a
 * reference. Derived state (see {@link StateInventory}) is not stored while it equals what it
 * derives from, which {@link #store} checks: when it does not (a key restored from a snapshot
 * of generated code, say), the vector is in the full format, which appends the derived state
 * verbatim; a full vector is longer, so its length tells the format.
 *
 * <p>Thread-safety: owner thread only (the evaluator's).
 */
public final class KeyedLayout {
  /** Where a vector holds the clock reading of its key's last tick (the keyed monitor's). */
  public static final int LAST_SEEN = 0;
  /** Where a vector holds its key's next tick. */
  public static final int TICK = 1;
  /** Where the payloads start, after {@link #LAST_SEEN} and {@link #TICK}. */
  public static final int HEADER = 2;

  // Package-private for KeyedKernel, which evaluates on the vector positions they define.
  final Evaluator evaluator;
  final Slot[] slots;
  final HistoryRing[] rings;
  final TypedNodes.TypedBinary[] typed;
  final TemporalNodes.Init[] inits;
  final TemporalNodes.When[] whens;
  final TemporalNodes.Update[] updates;
  private final Slot[] aliases;
  private final Slot[] aliasSources;
  private final Slot[] constants;
  private final Node[] nodes;
  /** The fresh values of the constants and of the nodes' scalar flags. */
  private final Slot[] freshConstants;
  private final boolean[] freshScalars;
  private final String shape;
  final int narrowAt;
  private final int compactLength;
  private final int fullLength;
  private final Object[] scratchRefs;
  private final BytePacker packer;
  /** The bytes of the narrow part, and of the full format's narrow tail. */
  final int narrowBytes;
  private final int derivedNarrowBytes;
  /** Whether the evaluator holds derived state of a full vector (owner thread only). */
  private boolean dirty;
  private Object[] storedRefs;

  private KeyedLayout(Evaluator evaluator, StateInventory inv) {
    this.evaluator = evaluator;
    this.slots = inv.slots.toArray(new Slot[0]);
    this.rings = inv.rings.toArray(new HistoryRing[0]);
    this.typed = inv.typed.toArray(new TypedNodes.TypedBinary[0]);
    this.inits = inv.inits.toArray(new TemporalNodes.Init[0]);
    this.whens = inv.whens.toArray(new TemporalNodes.When[0]);
    this.updates = inv.updates.toArray(new TemporalNodes.Update[0]);
    this.aliases = inv.aliases.toArray(new Slot[0]);
    this.aliasSources = inv.aliasSources.toArray(new Slot[0]);
    this.constants = inv.constants.toArray(new Slot[0]);
    this.nodes = inv.nodes.toArray(new Node[0]);
    this.shape = inv.shape.toString();
    this.freshConstants = new Slot[constants.length];
    for (int i = 0; i < constants.length; i++) {
      freshConstants[i] = new Slot();
      freshConstants[i].set(constants[i]);
    }
    this.freshScalars = new boolean[nodes.length];
    for (int i = 0; i < nodes.length; i++) {
      freshScalars[i] = nodes[i].scalar;
    }
    int samples = 0;
    int ringBytes = 0;
    for (HistoryRing r : rings) {
      samples += r.depth();
      ringBytes += r.depth() + (smallRing(r) ? 2 : 8);
    }
    int wide = slots.length + samples + 2 * typed.length;
    int narrow = slots.length + ringBytes + 2 * typed.length + inits.length + whens.length
        + updates.length + 4;
    this.narrowAt = HEADER + wide;
    this.compactLength = narrowAt + BytePacker.words(narrow);
    int derived = aliases.length + constants.length;
    int extraWide = derived + 2 * typed.length;
    int extraNarrow = derived + 2 * typed.length + nodes.length;
    this.fullLength = compactLength + extraWide + BytePacker.words(extraNarrow);
    this.narrowBytes = narrow;
    this.derivedNarrowBytes = extraNarrow;
    this.packer = new BytePacker(Math.max(narrow, extraNarrow));
    this.scratchRefs = new Object[slots.length + samples + derived];
  }

  /**
   * The layout of {@code evaluator}'s state, or null when its program's state cannot be laid
   * out (dynamic properties, lambdas, state of a kind the layout does not know). Build it on a
   * fresh evaluator: its constants are what the layout expects of every key.
   */
  public static KeyedLayout of(Evaluator evaluator) {
    StateInventory inv = StateInventory.of(evaluator);
    return inv == null ? null : new KeyedLayout(evaluator, inv);
  }

  private static boolean smallRing(HistoryRing r) {
    return r.depth() < 255;
  }

  /**
   * What a vector of this layout means, as text: two layouts of the same text read each
   * other's vectors (a checkpoint of vectors names it).
   */
  public String shape() {
    return shape + "/" + fullLength;
  }

  /** True when vectors of {@code other} fit this layout (same objects in the same order). */
  public boolean sameShape(KeyedLayout other) {
    return shape.equals(other.shape) && fullLength == other.fullLength;
  }

  /** The length of a vector in the compact format (for measurements and tests). */
  public int compactLength() {
    return compactLength;
  }

  /**
   * Stores the evaluator's state: into {@code vector} when it has the length the state needs,
   * else into a new vector (keeping {@code vector}'s {@link #LAST_SEEN}). {@link #storedRefs()}
   * then tells the references to keep with it.
   *
   * @param vector the key's previous vector, or null
   * @param revision the caller's index of the key's revision, kept in the vector
   * @param canonical the layout of a fresh evaluator of this shape, against whose constants the
   *     state is checked; null to trust that the constants did not change since the last load
   *     (ticks do not change them)
   * @return the vector written
   */
  public long[] store(long[] vector, int revision, KeyedLayout canonical) {
    boolean full = canonical == null ? dirty : !constantsMatch(canonical);
    full = full || !derivedHolds();
    int length = full ? fullLength : compactLength;
    long[] v = vector;
    if (v == null || v.length != length) {
      v = new long[length];
      if (vector != null) {
        v[LAST_SEEN] = vector[LAST_SEEN];
      }
    }
    v[TICK] = evaluator.tick();
    // One pass per kind of state object: its payloads go to the wide part, its kinds and
    // positions to the packer's bytes (the narrow part), and references are looked for.
    BytePacker p = packer;
    p.startWrite(v, narrowAt);
    byte[] narrow = p.buffer();
    Slot[] ss = slots;
    int ns = ss.length;
    boolean anyRef = false;
    for (int i = 0; i < ns; i++) {
      Slot s = ss[i];
      v[HEADER + i] = s.bits;
      narrow[i] = s.tag;
      anyRef |= s.ref != null;
    }
    p.skip(ns);
    int w = HEADER + ns;
    int ri = ns;
    for (HistoryRing g : rings) {
      int depth = g.bits.length;
      System.arraycopy(g.bits, 0, v, w, depth);
      w += depth;
      putRingPosition(p, g);
      p.put(g.tags);
      Object[] gr = g.refs;
      for (int i = 0; gr != null && i < depth; i++) {
        anyRef |= gr[i] != null;
      }
      ri += depth;
    }
    if (anyRef) {
      // References are rare: the scratch array is filled only when there is one (a store of
      // a reference, even a null, pays a GC barrier).
      fillRefs();
    }
    for (TypedNodes.TypedBinary t : typed) {
      v[w++] = t.heldLeft;
      v[w++] = t.heldRight;
      p.put(t.heldLeftTag);
      p.put(t.heldRightTag);
    }
    for (TemporalNodes.Init n : inits) {
      p.put(n.started ? (byte) 1 : 0);
    }
    for (TemporalNodes.When n : whens) {
      p.put(n.fired ? (byte) 1 : 0);
    }
    for (TemporalNodes.Update n : updates) {
      p.put(n.switched ? (byte) 1 : 0);
    }
    p.putInt(revision);
    w = p.endWrite();
    if (full && storeDerived(v, w, ri) && !anyRef) {
      anyRef = true; // only the derived part holds one: fill the scratch array's first part
      fillRefs();
    }
    storedRefs = anyRef ? scratchRefs : null;
    return v;
  }

  /** Copies the values' and history samples' references to the scratch array. */
  private void fillRefs() {
    Object[] refs = scratchRefs;
    int r = 0;
    for (Slot s : slots) {
      refs[r++] = s.ref;
    }
    for (HistoryRing g : rings) {
      int depth = g.tags.length;
      if (g.refs == null) {
        java.util.Arrays.fill(refs, r, r + depth, null); // a ring of scalars (no array yet)
      } else {
        System.arraycopy(g.refs, 0, refs, r, depth);
      }
      r += depth;
    }
  }

  private static void putRingPosition(BytePacker p, HistoryRing g) {
    if (smallRing(g)) {
      p.put((byte) (g.head + 1));
      p.put((byte) g.size);
    } else {
      p.putInt(g.head);
      p.putInt(g.size);
    }
  }

  /** The full format's tail: the derived state verbatim. */
  private boolean storeDerived(long[] v, int at, int refAt) {
    int w = at;
    int ri = refAt;
    boolean anyRef = false;
    Object[] refs = scratchRefs;
    for (Slot[] group : new Slot[][] {aliases, constants}) {
      for (Slot s : group) {
        v[w++] = s.bits;
        refs[ri++] = s.ref;
        anyRef |= s.ref != null;
      }
    }
    for (TypedNodes.TypedBinary t : typed) {
      v[w++] = t.lv;
      v[w++] = t.rv;
    }
    BytePacker p = packer;
    p.startWrite(v, w);
    for (Slot[] group : new Slot[][] {aliases, constants}) {
      for (Slot s : group) {
        p.put(s.tag);
      }
    }
    for (TypedNodes.TypedBinary t : typed) {
      p.put(t.lt);
      p.put(t.rt);
    }
    for (Node n : nodes) {
      p.put(n.scalar ? (byte) 1 : 0);
    }
    p.endWrite();
    return anyRef;
  }

  /**
   * The references of the last {@link #store}, or null when it held none: a scratch array,
   * valid until the next store (copy it).
   */
  public Object[] storedRefs() {
    return storedRefs;
  }

  /** Whether the derived state that ticks write equals what it derives from. */
  private boolean derivedHolds() {
    for (int i = 0; i < aliases.length; i++) {
      Slot a = aliases[i];
      Slot s = aliasSources[i];
      if (a.tag != s.tag || a.bits != s.bits || a.ref != s.ref) {
        return false;
      }
    }
    for (TypedNodes.TypedBinary t : typed) {
      if (t.lt != t.heldLeftTag || t.lv != t.heldLeft || t.rt != t.heldRightTag
          || t.rv != t.heldRight) {
        return false;
      }
    }
    return true;
  }

  private boolean constantsMatch(KeyedLayout canonical) {
    for (int i = 0; i < constants.length; i++) {
      Slot c = constants[i];
      Slot f = canonical.freshConstants[i];
      if (c.tag != f.tag || c.bits != f.bits || !java.util.Objects.equals(c.ref, f.ref)) {
        return false;
      }
    }
    for (int i = 0; i < nodes.length; i++) {
      if (nodes[i].scalar != canonical.freshScalars[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * Loads a vector (and its references, or null) into the evaluator: the key's values,
   * histories, memories and tick count.
   *
   * @return the revision index stored with it
   */
  public int load(long[] v, Object[] refs) {
    evaluator.continueAt(v[TICK]);
    BytePacker p = packer;
    p.startRead(v, narrowAt, narrowBytes);
    byte[] narrow = p.buffer();
    Slot[] ss = slots;
    int ns = ss.length;
    for (int i = 0; i < ns; i++) {
      Slot s = ss[i];
      s.bits = v[HEADER + i];
      s.tag = narrow[i];
      Object r = refs == null ? null : refs[i];
      if (s.ref != r) {
        s.ref = r; // write only what changes: every reference store pays a GC barrier
      }
    }
    p.skip(ns);
    int w = HEADER + ns;
    int ri = ns;
    for (HistoryRing g : rings) {
      int depth = g.bits.length;
      System.arraycopy(v, w, g.bits, 0, depth);
      w += depth;
      if (smallRing(g)) {
        g.head = (p.get() & 0xFF) - 1;
        g.size = p.get() & 0xFF;
      } else {
        g.head = p.getInt();
        g.size = p.getInt();
      }
      p.get(g.tags);
      if (refs == null && g.refs == null) {
        ri += depth; // no reference stored and none held: nothing to write
        continue;
      }
      for (int i = 0; i < depth; i++) {
        Object r = refs == null ? null : refs[ri];
        ri++;
        g.setRef(i, r); // makes the ring's array only for a first reference
      }
    }
    for (TypedNodes.TypedBinary t : typed) {
      t.heldLeft = v[w++];
      t.heldRight = v[w++];
      t.heldLeftTag = p.get();
      t.heldRightTag = p.get();
    }
    for (TemporalNodes.Init n : inits) {
      n.started = p.get() != 0;
    }
    for (TemporalNodes.When n : whens) {
      n.fired = p.get() != 0;
    }
    for (TemporalNodes.Update n : updates) {
      n.switched = p.get() != 0;
    }
    int revision = p.getInt();
    w = p.endRead();
    if (v.length == fullLength && fullLength != compactLength) {
      loadDerived(v, w, ri, refs);
      dirty = true;
    } else {
      deriveState();
    }
    return revision;
  }

  /** The revision index stored in a vector, without loading it. */
  public int revisionOf(long[] v) {
    int at = 8 * narrowAt + narrowRevisionOffset();
    int b0 = (int) (v[at >>> 3] >>> ((at & 7) << 3)) & 0xFF;
    int b1 = (int) (v[(at + 1) >>> 3] >>> (((at + 1) & 7) << 3)) & 0xFF;
    int b2 = (int) (v[(at + 2) >>> 3] >>> (((at + 2) & 7) << 3)) & 0xFF;
    int b3 = (int) (v[(at + 3) >>> 3] >>> (((at + 3) & 7) << 3)) & 0xFF;
    return b0 | b1 << 8 | b2 << 16 | b3 << 24;
  }

  /** Replaces the revision index stored in a vector. */
  public void revisionOf(long[] v, int revision) {
    int at = 8 * narrowAt + narrowRevisionOffset();
    for (int i = 0; i < 4; i++, at++) {
      long shift = (at & 7) << 3;
      long b = (revision >>> (8 * i)) & 0xFFL;
      v[at >>> 3] = (v[at >>> 3] & ~(0xFFL << shift)) | b << shift;
    }
  }

  private int narrowRevisionOffset() {
    int n = slots.length + 2 * typed.length + inits.length + whens.length + updates.length;
    for (HistoryRing r : rings) {
      n += r.depth() + (smallRing(r) ? 2 : 8);
    }
    return n;
  }

  /** Sets the derived state from what it derives from, and the constants when disturbed. */
  private void deriveState() {
    for (int i = 0; i < aliases.length; i++) {
      aliases[i].set(aliasSources[i]);
    }
    for (TypedNodes.TypedBinary t : typed) {
      t.lt = t.heldLeftTag;
      t.lv = t.heldLeft;
      t.rt = t.heldRightTag;
      t.rv = t.heldRight;
    }
    if (dirty) {
      for (int i = 0; i < constants.length; i++) {
        constants[i].set(freshConstants[i]);
      }
      for (int i = 0; i < nodes.length; i++) {
        nodes[i].scalar = freshScalars[i];
      }
      dirty = false;
    }
  }

  private void loadDerived(long[] v, int at, int refAt, Object[] refs) {
    int w = at;
    int ri = refAt;
    for (Slot[] group : new Slot[][] {aliases, constants}) {
      for (Slot s : group) {
        s.bits = v[w++];
        s.ref = refs == null ? null : refs[ri];
        ri++;
      }
    }
    for (TypedNodes.TypedBinary t : typed) {
      t.lv = v[w++];
      t.rv = v[w++];
    }
    BytePacker p = packer;
    p.startRead(v, w, derivedNarrowBytes);
    for (Slot[] group : new Slot[][] {aliases, constants}) {
      for (Slot s : group) {
        s.tag = p.get();
      }
    }
    for (TypedNodes.TypedBinary t : typed) {
      t.lt = p.get();
      t.rt = p.get();
    }
    for (Node n : nodes) {
      n.scalar = p.get() != 0;
    }
    p.endRead();
  }
}
