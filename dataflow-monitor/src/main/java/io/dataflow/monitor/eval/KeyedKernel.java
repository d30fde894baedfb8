package io.dataflow.monitor.eval;

import io.dataflow.core.Kind;
import io.dataflow.core.Row;
import io.dataflow.monitor.lang.CheckedSpec;
import io.dataflow.monitor.lang.Type;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A keyed monitor's tick evaluated on the key's own vector ({@link KeyedLayout}'s compact
 * format), in place: no working monitor is loaded before the tick or stored after it. The
 * program's nodes are flattened once into {@link Step steps} over vector positions (each
 * node's result, lifting memories and flags where the layout keeps them), which run on every
 * key's vector: interpreted ({@code Interpreted}) until the code generator offers a class that
 * calls the same steps with constant positions, or copies their bytecode ({@link #offer},
 * {@link #elements}); the vector after a tick is exactly what {@link KeyedLayout#store} of the
 * interpreter's state would be, so snapshots, checkpoints and reconfiguration read it as before.
 *
 * <p>It covers programs whose streams are all {@code Int}, {@code Float} or {@code Bool}
 * (inputs may also be {@code Str}; a tick with a present string goes the other way), built from
 * stream references, literals, {@code e[n]} of a stream or of an expression, {@code e[0]},
 * {@code default}, {@code init}, {@code is_defined}, {@code when}, {@code update},
 * {@code latch}, {@code if}, {@code -}, {@code !} and the typed binary operators, with history
 * rings shallower than 255. {@link #of} refuses every other program (null): the keyed monitor
 * then loads the key into its working monitor as before.
 *
 * <p>{@link #tick} declines (returns false, the vector unchanged) what it does not evaluate
 * itself: a row of the wrong width, an input of another kind than its declared type, a vector
 * in the full format, and any error of the tick (overflow, division by zero, a value outside
 * the static type). The caller then runs the tick on the working monitor, which fails exactly
 * as a lone monitor does. A tick runs on a working copy of the vector, written back only once
 * nothing can fail (see {@link Code}): a declined tick leaves the vector as it was.
 *
 * <p>Thread-safety: owner thread only (scratch arrays).
 */
public final class KeyedKernel {

  // Operation codes, as the builder writes them: each code, then its operands. A value is two
  // ints, the byte of the vector holding its kind and the index of its payload (or, for a
  // literal, ~i and ~j into the literals' array).
  private static final int HIST = 0;
  private static final int DELAY = 1;
  private static final int DEFAULT = 2;
  private static final int INIT = 3;
  private static final int ISDEF = 4;
  private static final int WHEN = 5;
  private static final int UPDATE = 6;
  private static final int LATCH = 7;
  private static final int LIFT = 8;
  private static final int NEG = 9;
  private static final int NOT = 10;
  private static final int IF = 11;
  private static final int INT_ARITH = 12;
  private static final int NUM_COMPARE = 13;
  private static final int BOOL_LOGIC = 14;
  private static final int COPY = 15;

  private final Step[] steps;
  private final Step[] commitSteps;
  /** Each input's transfer into its stream's cell, and each output's read (see {@link #tick}). */
  private final Step[] inputSteps;
  private final Step[] outputSteps;
  /** The steps as generated code, or interpreted until there is some. */
  private Code code;
  private boolean interpreting = true;
  /** Generated code offered by the code generator (any thread), installed at a tick's start. */
  private volatile Code generated;
  private final long[] constantBits;
  private final int inputs;
  /** The outputs' count (an output row's width). */
  private final int outputs;
  private final int compactLength;
  private final boolean mayFail;
  /** The tick's working copy of the key's vector, in the work format (see {@link Code}). */
  private final long[] work;
  private final String source;
  /** Where the vector's narrow part starts (the wide part ends). */
  private final int narrowAt;
  /** The hot format (see {@link #hotLength}), or null when the program has none. */
  private final Hot hot;
  /** {@link #hotLength()}: a hot vector's length, or -1 (the tick's entry checks only this). */
  private final int hotLength;
  /** {@link #elements()}. */
  private final boolean elements;
  /**
   * The longest working copy a generated hot tick allocates itself: well under the 64 elements
   * up to which C2 replaces an array by its elements ({@code EliminateAllocationArraySizeLimit}),
   * and few enough to stay in registers.
   */
  static final int LOCAL_WORK = 32;
  /**
   * The most steps (inputs, steps, commits, outputs) of a hot tick with its own copy: their
   * bytecode is copied into the tick, which must stay small enough for the JIT to compile it
   * (the generator checks the size too, and calls the steps on the kernel's copy past it).
   */
  static final int LOCAL_STEPS = 8;

  private KeyedKernel(Builder b, KeyedLayout layout, long[] fresh, Hot planned) {
    this.steps = steps(b.codeArray());
    this.commitSteps = commitSteps(b.commitArray());
    this.inputSteps = inputSteps(b);
    this.outputSteps = outputSteps(b);
    this.constantBits = new long[2 * b.constants.size()];
    for (int i = 0; i < b.constants.size(); i++) {
      Slot c = b.constants.get(i);
      constantBits[2 * i] = c.bits;
      constantBits[2 * i + 1] = c.tag;
    }
    this.inputs = b.inTag.length;
    this.outputs = outputSteps.length;
    this.compactLength = layout.compactLength();
    this.mayFail = b.mayFail;
    this.narrowAt = layout.narrowAt;
    this.elements = b.elements;
    this.work = new long[elements ? workLength(compactLength, narrowAt) : compactLength];
    this.source = layout.evaluator.spec().file();
    this.hot = planned != null ? planned : fresh == null ? null : Hot.plan(this, b, fresh);
    this.hotLength = hot == null ? -1 : hot.length;
    this.code = new Interpreted(this);
  }

  /** The kernel of {@code layout}'s program, or null when it is not one {@link #tick} covers. */
  public static KeyedKernel of(KeyedLayout layout) {
    return of(layout, null);
  }

  /**
   * {@link #of(KeyedLayout)} with a {@link #hotLength hot format} planned from {@code fresh},
   * a new key's vector in the (wide) compact format of {@code layout}; null: no hot format.
   */
  public static KeyedKernel of(KeyedLayout layout, long[] fresh) {
    try {
      Builder b = new Builder(layout, false);
      b.build();
      KeyedKernel k = new KeyedKernel(b, layout, fresh, null);
      if (k.hot == null || !fitsWorkFormat(b, k)) {
        return k;
      }
      Builder e = new Builder(layout, true); // the same steps, kinds as elements
      e.build();
      return new KeyedKernel(e, layout, fresh, k.hot);
    } catch (Unsupported u) {
      return null;
    }
  }

  // ---- The hot format ----------------------------------------------------------------------

  /**
   * A key's resident vector in the hot format: {@code [LAST_SEEN] [TICK]}, then the kept
   * payloads of the wide part, then the kept words of the narrow part. A payload of the wide
   * part that, after every tick of a key so far, equalled a constant or an earlier payload
   * (its representative) is not kept, nor is a narrow word (kinds, flags, rings' heads and
   * sizes) that stays the same from a key's first tick on, and of a kept narrow word the bytes
   * that stay the same are constants: each is written back from its constant or representative
   * when the vector is {@link #widen widened}. Which go is planned
   * once per program by running the steps on a fresh vector with present inputs
   * ({@link Hot#plan}); that is only a guess, so every tick on a hot vector checks the
   * relations on the tick's result, and a tick whose result breaks one leaves the key in the
   * wide format ({@link #WIDENED}). The relations are exact by that check, never assumed.
   * A hot vector whose tick count is 0 is a new key's: it stands for the program's fresh state
   * (a fresh key's kinds are not those of its later ticks), and its other words are not read.
   *
   * @return the length of a hot vector (shorter than the wide compact format), or -1 when the
   *     program has no hot format (nothing to leave out, or no fresh vector was given)
   */
  public int hotLength() {
    return hotLength;
  }

  /**
   * Whether this kernel's working copy is in the work format ({@link #workLength}: every kind in
   * an element of its own, {@link Steps#ELEMENT}) rather than the vector's, and its generated
   * hot tick runs on a working copy of its own: a new array that never leaves the tick, which
   * the JIT keeps in registers (no copy in or out through memory), folding the constant kinds
   * into the steps' tests. The generator copies the steps' bytecode into that tick, so that the
   * array is never passed to a call (else it would be allocated on every tick where the JIT does
   * not inline one): so only for a small program with a hot format, whose work format is at
   * most {@value #LOCAL_WORK} long, with at most {@value #LOCAL_STEPS} steps, and every position
   * constant (no history ring deeper than 1, whose samples a step finds by the ring's head: an
   * array read at a variable index stays an array). Every tick of such a kernel, interpreted or
   * not, uses the work format. Other kernels keep the vector's format, where a tick copies
   * words.
   */
  public boolean elements() {
    return elements;
  }

  private static boolean fitsWorkFormat(Builder b, KeyedKernel k) {
    if (b.deepest > 1 || workLength(k.compactLength, k.narrowAt) > LOCAL_WORK) {
      return false;
    }
    int calls = k.inputSteps.length + k.steps.length + k.commitSteps.length
        + k.outputSteps.length;
    return calls <= LOCAL_STEPS;
  }

  /** The hot format as text (kernels of the same text read each other's hot vectors). */
  public String hotSignature() {
    return hot == null ? "" : hot.signature();
  }

  /**
   * The wide vector of a hot one: the one conversion from the hot format ({@link #compact} is
   * the other). A new array.
   */
  public long[] widen(long[] h) {
    return widen(h, new long[compactLength]);
  }

  /** {@link #widen(long[])} into {@code w}, an array of the wide length; returns {@code w}. */
  public long[] widen(long[] h, long[] w) {
    hot.expand(h, w);
    return w;
  }

  /**
   * The hot vector of a wide one in the compact format, or null when the program has no hot
   * format, {@code w} is of another length, or a payload the hot format leaves out differs from
   * its constant or representative. A new array.
   */
  public long[] compact(long[] w) {
    if (hot == null || w.length != compactLength) {
      return null;
    }
    long[] h = new long[hot.length];
    if (w[KeyedLayout.TICK] == 0) {
      // Tick count 0 stands for the fresh state (see hotLength); any other such state stays wide.
      for (int p = KeyedLayout.TICK; p < w.length; p++) {
        if (w[p] != hot.fresh[p]) {
          return null;
        }
      }
      h[KeyedLayout.LAST_SEEN] = w[KeyedLayout.LAST_SEEN];
      return h;
    }
    if (!hot.holds(w)) {
      return null;
    }
    hot.store(w, h);
    return h;
  }

  /** A tick of {@link #tickHot}: declined, {@code h} and the outputs unchanged. */
  public static final int DECLINED = 0;
  /** A tick of {@link #tickHot}: evaluated, {@code h} holds the key's state after it. */
  public static final int IN_PLACE = 1;
  /**
   * A tick of {@link #tickHot}: evaluated and the outputs written, but its state does not fit
   * the hot format; {@code h} is unchanged and {@link #widened} is the key's state after it.
   */
  public static final int WIDENED = 2;

  /**
   * Evaluates one tick of the key whose hot vector is {@code h} (see {@link #hotLength}),
   * writing the outputs.
   *
   * @return {@link #IN_PLACE}, {@link #WIDENED} or {@link #DECLINED} (the caller then widens the
   *     key and evaluates the tick on the working monitor)
   */
  public int tickHot(long[] h, Row input, Row output) {
    if (!acceptsHot(h, input, output)) {
      return DECLINED;
    }
    try {
      return code.tickHot(h, work, constantBits, input, output);
    } catch (RuntimeException e) {
      declined(e);
      return DECLINED;
    }
  }

  /** {@link #tickHot(long[], Row, Row)} with the outputs into columns (see {@link #tick}). */
  public int tickHot(long[] h, Row input, Row output, byte[] kinds, long[] bits, int at) {
    if (!acceptsHot(h, input, output)) {
      return DECLINED;
    }
    try {
      return code.tickHot(h, work, constantBits, input, kinds, bits, at);
    } catch (RuntimeException e) {
      declined(e);
      return DECLINED;
    }
  }

  /** The key's wide vector after a tick that returned {@link #WIDENED} (a new array). */
  public long[] widened() {
    if (!elements) {
      return work.clone();
    }
    long[] v = new long[compactLength];
    fromWork(work, v, narrowAt);
    return v;
  }

  // ---- The work format -----------------------------------------------------------------------

  /**
   * The length of a working copy in the work format ({@link #elements}) of a vector of
   * {@code length} elements whose narrow part starts at {@code narrowAt}: the payloads where
   * the vector has them, then each byte of the narrow part (a kind, a flag, a ring's head or
   * size; {@link KeyedLayout} packs eight to a {@code long}) in an element of its own, in order
   * ({@link #workAt}). The steps then read and write a kind as one element: plain array accesses
   * at constant indices, which the JIT follows from a store to the next load and replaces by
   * registers, where a byte inside a {@code long} is a mismatched (Unsafe) access that it does
   * not follow.
   */
  public static int workLength(int length, int narrowAt) {
    return workAt(length, narrowAt);
  }

  /** Where the bytes of the vector's word {@code n} (of the narrow part) start in a working copy. */
  public static int workAt(int n, int narrowAt) {
    return narrowAt + 8 * (n - narrowAt);
  }

  /** The vector {@code v} (payloads below {@code narrowAt}) into the working copy {@code x}. */
  public static void toWork(long[] v, long[] x, int narrowAt) {
    System.arraycopy(v, 0, x, 0, narrowAt);
    for (int n = narrowAt; n < v.length; n++) {
      unpack(v[n], x, workAt(n, narrowAt));
    }
  }

  /** The working copy {@code x} into the vector {@code v} ({@link #toWork}'s inverse). */
  public static void fromWork(long[] x, long[] v, int narrowAt) {
    System.arraycopy(x, 0, v, 0, narrowAt);
    for (int n = narrowAt; n < v.length; n++) {
      v[n] = pack(x, workAt(n, narrowAt));
    }
  }

  /** Word {@code word}'s eight bytes into {@code x[at]} to {@code x[at + 7]}, low byte first. */
  static void unpack(long word, long[] x, int at) {
    for (int b = 0; b < 8; b++) {
      x[at + b] = word >>> (8 * b) & 0xFF;
    }
  }

  /**
   * The word of the eight bytes {@code x[at]} to {@code x[at + 7]} ({@link #unpack}'s inverse;
   * each holds 0 to 255, as {@link #unpack} and {@link Steps#put} write them).
   */
  static long pack(long[] x, int at) {
    long word = 0;
    for (int b = 0; b < 8; b++) {
      word |= x[at + b] << (8 * b);
    }
    return word;
  }

  /**
   * {@link #accepts} for a hot vector: one length check (-1, no hot format, matches no vector;
   * the working copy's length is the kernel's own, never checked per tick).
   */
  private boolean acceptsHot(long[] h, Row input, Row output) {
    return h.length == hotLength && rowsFit(input, output);
  }

  /**
   * The hot format's plan, per position {@code p} of the wide vector: {@code from[p]} is its
   * place in a hot vector (its own when kept, its representative's when not) or -1 for a
   * constant ({@code constant[p]}); {@code rep[p]} is {@code p} when kept, the representative
   * when not, or -1 for a constant. Payloads may have a representative; a narrow word (kinds,
   * flags, rings' heads and sizes) is kept or constant, and a kept one may have constant bytes
   * ({@code mask[p]}, 0xFF per byte, of {@code constant[p]}'s value).
   */
  static final class Hot {
    final int length;
    final int narrowAt;
    final int[] from;
    final int[] rep;
    final long[] constant;
    final long[] mask;
    /** A new key's wide vector: what a hot vector of tick count 0 stands for. */
    final long[] fresh;

    private Hot(int length, int narrowAt, int[] from, int[] rep, long[] constant, long[] mask,
        long[] fresh) {
      this.length = length;
      this.narrowAt = narrowAt;
      this.from = from;
      this.rep = rep;
      this.constant = constant;
      this.mask = mask;
      this.fresh = fresh;
    }

    /**
     * The longest wide vector with a hot format: its conversions are generated element by
     * element (as the working copy is, see {@code KernelEmitter}).
     */
    static final int LONGEST = 64;
    /** The ticks the plan samples. */
    private static final int SAMPLES = 64;

    /**
     * Runs the interpreted steps on a copy of {@code fresh} with present inputs of their
     * declared kinds (seeded, so one program always gets the same plan), and leaves out every
     * payload that equalled a constant or an earlier payload in the fresh vector and after
     * every sampled tick, and every narrow word that was the same after every sampled tick; of
     * the other narrow words, the bytes that were the same are constant (a fresh key's kinds
     * are those before its first value: its hot vector says only that it is fresh, see
     * {@link KeyedKernel#hotLength}). Null when nothing would be left out.
     */
    static Hot plan(KeyedKernel k, Builder b, long[] fresh) {
      int n = k.narrowAt;
      int length = k.compactLength;
      if (fresh.length != length || fresh.length > LONGEST) {
        return null;
      }
      long[][] samples = new long[SAMPLES + 1][];
      samples[0] = fresh.clone();
      long[] v = fresh.clone();
      long[] w = new long[k.elements ? workLength(length, n) : length];
      java.util.SplittableRandom r = new java.util.SplittableRandom(0x16L);
      byte[] kinds = new byte[k.inputs];
      long[] bits = new long[k.inputs];
      int taken = 1;
      for (int s = 0; s < 4 * SAMPLES && taken <= SAMPLES; s++) {
        for (int i = 0; i < k.inputs; i++) {
          byte kind = b.inKind[i];
          kinds[i] = kind;
          bits[i] = kind == Kind.INT ? r.nextInt(2001) - 1000
              : kind == Kind.FLOAT ? Double.doubleToRawLongBits(r.nextDouble() * 100 - 50)
              : kind == Kind.BOOL ? r.nextInt(2) : 0;
        }
        try {
          if (Interpreted.sample(k, v, w, kinds, bits)) {
            samples[taken++] = v.clone();
          }
        } catch (RuntimeException e) {
          // a failing tick (overflow, say): v is as it was; sample another
        }
      }
      int[] from = new int[length];
      int[] rep = new int[length];
      long[] constant = new long[length];
      int kept = KeyedLayout.HEADER;
      for (int p = 0; p < KeyedLayout.HEADER; p++) {
        from[p] = p;
        rep[p] = p;
      }
      for (int p = KeyedLayout.HEADER; p < n; p++) {
        rep[p] = p;
        if (same(samples, 0, taken, p, -1)) {
          rep[p] = -1;
          constant[p] = samples[0][p];
          from[p] = -1;
          continue;
        }
        for (int q = KeyedLayout.HEADER; q < p; q++) {
          if (rep[q] == q && same(samples, 0, taken, p, q)) {
            rep[p] = q;
            break;
          }
        }
        from[p] = rep[p] == p ? kept++ : from[rep[p]];
      }
      long[] mask = new long[length];
      for (int p = n; p < length && taken > 1; p++) {
        constant[p] = samples[1][p];
        long differs = 0;
        for (int s = 2; s < taken; s++) {
          differs |= samples[s][p] ^ constant[p];
        }
        for (int shift = 0; shift < 64; shift += 8) {
          if ((differs >>> shift & 0xFF) == 0) {
            mask[p] |= 0xFFL << shift;
          }
        }
      }
      for (int p = n; p < length; p++) {
        if (mask[p] == -1L) {
          rep[p] = -1;
          from[p] = -1;
        } else {
          rep[p] = p;
          from[p] = kept++;
        }
      }
      if (kept == length) {
        // Nothing to leave out: a hot vector must be shorter than a wide one (the keyed monitor
        // tells them apart by their lengths).
        return null;
      }
      return new Hot(kept, n, from, rep, constant, mask, fresh.clone());
    }

    /**
     * Whether position p equals q's (or, for q = -1, its value in sample {@code first}) in
     * samples {@code first} to {@code taken - 1}.
     */
    private static boolean same(long[][] samples, int first, int taken, int p, int q) {
      for (int s = first; s < taken; s++) {
        long x = samples[s][p];
        long y = q < 0 ? samples[first][p] : samples[s][q];
        if (x != y) {
          return false;
        }
      }
      return true;
    }

    /** The wide vector {@code w} of the hot vector {@code h}. */
    void expand(long[] h, long[] w) {
      if (h[KeyedLayout.TICK] == 0) {
        System.arraycopy(fresh, 0, w, 0, fresh.length);
        w[KeyedLayout.LAST_SEEN] = h[KeyedLayout.LAST_SEEN];
        return;
      }
      for (int p = 0; p < w.length; p++) {
        int f = from[p];
        w[p] = f < 0 ? constant[p] : h[f];
      }
    }

    /** {@link #expand} into a working copy ({@link KeyedKernel#workLength}). */
    void expandWork(long[] h, long[] x) {
      if (h[KeyedLayout.TICK] == 0) {
        toWork(fresh, x, narrowAt);
        x[KeyedLayout.LAST_SEEN] = h[KeyedLayout.LAST_SEEN];
        return;
      }
      for (int p = 0; p < from.length; p++) {
        int f = from[p];
        long word = f < 0 ? constant[p] : h[f];
        if (p < narrowAt) {
          x[p] = word;
        } else {
          unpack(word, x, workAt(p, narrowAt));
        }
      }
    }

    /**
     * Whether every position left out of {@code w} equals its constant or representative, and
     * every constant byte of a kept word its constant.
     */
    boolean holds(long[] w) {
      for (int p = KeyedLayout.HEADER; p < w.length; p++) {
        if (!holds(p, w[p], w)) {
          return false;
        }
      }
      return true;
    }

    /** {@link #holds} of a working copy. */
    boolean holdsWork(long[] x) {
      for (int p = KeyedLayout.HEADER; p < rep.length; p++) {
        if (!holds(p, p < narrowAt ? x[p] : pack(x, workAt(p, narrowAt)), x)) {
          return false;
        }
      }
      return true;
    }

    /** Whether position p, of value {@code value}, fits ({@code x}: its representative's). */
    private boolean holds(int p, long value, long[] x) {
      int q = rep[p];
      if (p >= narrowAt) {
        return ((value ^ constant[p]) & mask[p]) == 0; // a constant word's mask is all ones
      }
      return q == p || value == (q < 0 ? constant[p] : x[q]);
    }

    /** The hot vector {@code h} of {@code w} (which {@link #holds}). */
    void store(long[] w, long[] h) {
      for (int p = 0; p < w.length; p++) {
        if (rep[p] == p) {
          h[from[p]] = w[p];
        }
      }
    }

    /** {@link #store} from a working copy (which {@link #holdsWork}). */
    void storeWork(long[] x, long[] h) {
      for (int p = 0; p < rep.length; p++) {
        if (rep[p] == p) {
          h[from[p]] = p < narrowAt ? x[p] : pack(x, workAt(p, narrowAt));
        }
      }
    }

    String signature() {
      StringBuilder s = new StringBuilder().append(length).append(':');
      for (int p = KeyedLayout.HEADER; p < rep.length; p++) {
        s.append(rep[p]).append(rep[p] < 0 ? "=" + constant[p] : "");
        if (p >= narrowAt && mask[p] != 0 && mask[p] != -1L) {
          s.append('&').append(Long.toHexString(mask[p])).append('=')
              .append(Long.toHexString(constant[p] & mask[p]));
        }
        s.append(',');
      }
      // The fresh state, for which a hot vector of tick count 0 stands (generated as constants).
      return s.append(java.util.Arrays.toString(
          java.util.Arrays.copyOfRange(fresh, KeyedLayout.TICK, fresh.length))).toString();
    }
  }

  /**
   * The hot format's plan, for the code generator (null: none): per position of the wide
   * vector, its place in a hot vector (its own or its representative's), or -1 for a constant.
   */
  public int[] hotFrom() {
    return hot == null ? null : hot.from.clone();
  }

  /**
   * Per position of the wide vector: itself when kept, its representative (payloads only), or
   * -1 for a constant.
   */
  public int[] hotRepresentatives() {
    return hot == null ? null : hot.rep.clone();
  }

  /**
   * Per position of the narrow part: its constant bytes (0xFF per byte; all ones for a word
   * left out, 0 for one kept whole), whose values {@link #hotConstants} has.
   */
  public long[] hotMasks() {
    return hot == null ? null : hot.mask.clone();
  }

  /** A new key's wide vector (what a hot vector of tick count 0 stands for), or null: none. */
  public long[] hotFresh() {
    return hot == null ? null : hot.fresh.clone();
  }

  /** Per position of the wide vector left out as a constant, or with constant bytes: its value. */
  public long[] hotConstants() {
    return hot == null ? null : hot.constant.clone();
  }

  /** Where the narrow part starts in a wide vector. */
  public int narrowAt() {
    return narrowAt;
  }

  /**
   * Offers generated code of {@link #steps} and {@link #commitSteps} (from any thread): the
   * next tick installs it in place of the interpreted steps.
   */
  public void offer(Code generatedCode) {
    this.generated = generatedCode;
  }

  /**
   * Whether the ticks run generated code, or will from the next one on (for tests and
   * diagnostics).
   */
  public boolean runsGeneratedCode() {
    return generated != null;
  }

  /**
   * The steps, commit steps, inputs, outputs and vector length as text: kernels of the same
   * text may share generated code.
   */
  public String signature() {
    StringBuilder b = new StringBuilder().append(compactLength).append('|');
    for (Step[] group : new Step[][] {inputSteps, steps, commitSteps, outputSteps}) {
      for (Step s : group) {
        b.append(s.method);
        for (int a : s.args) {
          b.append(' ').append(a);
        }
        b.append(';');
      }
      b.append('|');
    }
    return b.append(hotSignature()).toString(); // the hot format is generated too
  }

  /** The specification's file name (the generated class's source). */
  public String source() {
    return source;
  }

  /** Thrown while building for a program the kernel does not cover. */
  private static final class Unsupported extends RuntimeException {
    Unsupported() {
      super(null, null, false, false);
    }
  }

  /** Thrown by a tick that must go the other way (the vector is then put back). */
  // Public (in a package exported only to the generated classes' loaders): the generated hot
  // tick copies the steps' bytecode, which throws it (codegen.Inliner).
  public static final class Decline extends RuntimeException {
    public static final Decline INSTANCE = new Decline();

    Decline() {
      super(null, null, false, false);
    }
  }

  /**
   * Evaluates one tick of the key whose vector is {@code v}, in place, writing the outputs.
   *
   * @return false when the tick was declined: {@code v} and {@code output} are then unchanged
   *     and the caller evaluates the tick on the working monitor
   */
  public boolean tick(long[] v, Row input, Row output) {
    if (!accepts(v, input, output)) {
      return false;
    }
    try {
      return code.tick(v, work, constantBits, input, output);
    } catch (RuntimeException e) {
      return declined(e);
    }
  }

  /**
   * Whether a tick of {@code v} with these rows can run in place; switches to the generated code
   * once it has arrived.
   */
  private boolean accepts(long[] v, Row input, Row output) {
    return v.length == compactLength && rowsFit(input, output);
  }

  /**
   * Whether the rows have the inputs' and outputs' widths (a row's width is fixed, its kinds are
   * checked by the tick's input steps); switches to the generated code once it has arrived.
   */
  private boolean rowsFit(Row input, Row output) {
    if (input.width() != inputs || output.width() != outputs) {
      return false;
    }
    if (interpreting) {
      Code g = generated;
      if (g != null) {
        code = g;
        interpreting = false;
      }
    }
    return true;
  }

  /** A tick that threw: declined (v was not written), or rethrown when the kernel cannot fail. */
  private boolean declined(RuntimeException e) {
    if (!mayFail) {
      throw e; // a bug: nothing may throw in a kernel that cannot fail
    }
    return false;
  }

  /**
   * {@link #tick(long[], Row, Row)} with the outputs written into columns instead of a row:
   * output {@code j}'s kind to {@code kinds[at + j]} and its payload to {@code bits[at + j]}
   * (a batch's columns, written in place; the kernel's outputs never hold references).
   * {@code output} is only checked for its width (the columns' row width).
   *
   * @return false when the tick was declined: {@code v} and the columns are then unchanged
   */
  public boolean tick(long[] v, Row input, Row output, byte[] kinds, long[] bits, int at) {
    if (!accepts(v, input, output)) {
      return false;
    }
    try {
      return code.tick(v, work, constantBits, input, kinds, bits, at);
    } catch (RuntimeException e) {
      return declined(e);
    }
  }

  /**
   * One step of a tick: a public static method of {@link Steps} and its int arguments (after
   * the vector, the kinds and the constants' payloads). The interpreter calls them by
   * {@link #op}; generated code calls {@link #method} with the arguments as constants.
   */
  public record Step(int op, String method, int[] args) {}

  /** The steps of a tick, in order (for the code generator). */
  public List<Step> steps() {
    return List.of(steps);
  }

  /** The commit's steps: the rings' pushes and the delays' commits, in order. */
  public List<Step> commitSteps() {
    return List.of(commitSteps);
  }

  /**
   * The inputs' transfers, one per input in row order: {@link Steps#input} with the row's kind
   * and payload, then these arguments.
   */
  public List<Step> inputSteps() {
    return List.of(inputSteps);
  }

  /**
   * The outputs' reads, one per output in row order: {@link Steps#output} with the row, then
   * these arguments.
   */
  public List<Step> outputSteps() {
    return List.of(outputSteps);
  }

  /** The length of the vectors a tick runs on (for the code generator). */
  public int vectorLength() {
    return compactLength;
  }

  /** The step methods' names, by operation. */
  private static final String[] METHODS = {"hist", "delay", "defaultOf", "init", "isDefined",
      "when", "update", "latch", "lift", "neg", "not", "ifThenElse", "intArith", "numCompare",
      "boolLogic", "copy"};
  /** The number of int operands of each operation. */
  private static final int[] WIDTHS = {9, 13, 8, 7, 6, 7, 11, 8, 6, 6, 6, 14, 11, 11, 11, 4};
  private static final int PUSH = 16;
  private static final int PUSH_PENDING = 17;

  private static Step[] steps(int[] code) {
    List<Step> out = new ArrayList<>();
    for (int p = 0; p < code.length; ) {
      int op = code[p];
      int w = WIDTHS[op];
      out.add(new Step(op, METHODS[op], java.util.Arrays.copyOfRange(code, p + 1, p + 1 + w)));
      p += 1 + w;
    }
    return out.toArray(new Step[0]);
  }

  private static final int INPUT = 18;
  private static final int OUTPUT = 19;

  /** Per input: its declared kind, the cell's kind and payload, the held value's. */
  private static Step[] inputSteps(Builder b) {
    Step[] out = new Step[b.inTag.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = new Step(INPUT, "input",
          new int[] {b.inKind[i], b.inTag[i], b.inBits[i], b.heldTag[i], b.heldBits[i]});
    }
    return out;
  }

  /** Per output: the cell's kind and payload. */
  private static Step[] outputSteps(Builder b) {
    Step[] out = new Step[b.outTag.length];
    for (int j = 0; j < out.length; j++) {
      out[j] = new Step(OUTPUT, "output", new int[] {b.outTag[j], b.outBits[j]});
    }
    return out;
  }

  private static Step[] commitSteps(int[] commits) {
    List<Step> out = new ArrayList<>();
    for (int p = 0; p < commits.length; p += 7) {
      boolean pending = commits[p + 6] != 0;
      out.add(new Step(pending ? PUSH_PENDING : PUSH, pending ? "pushPending" : "push",
          java.util.Arrays.copyOfRange(commits, p, p + 6)));
    }
    return out.toArray(new Step[0]);
  }

  /**
   * What a generated class implements: one program's tick as straight code. The tick runs on a
   * working copy of the key's vector, which is written back only once nothing can fail any
   * more: a tick that fails leaves the key's vector as it was, with no backup to take before
   * every tick.
   */
  public interface Code {
    /**
     * One tick of the key whose vector is {@code v}: the inputs ({@link #inputSteps}), the
     * steps, the commit's steps and the tick count on a copy of {@code v}, then the copy into
     * {@code v}, then the outputs ({@link #outputSteps}).
     *
     * @param work scratch (the kernel's, reused) for the copy: of the vector's length, or, for a
     *     kernel in the work format ({@link KeyedKernel#elements}), of {@link #workLength}
     * @return false when an input's kind is not the one declared: {@code v} and {@code output}
     *     unchanged
     * @throws RuntimeException when the tick fails (an {@link EvalError}, a decline):
     *     {@code v} and {@code output} unchanged
     */
    boolean tick(long[] v, long[] work, long[] constants, Row input, Row output);

    /**
     * {@link #tick(long[], long[], long[], Row, Row)} with output {@code j} written to
     * {@code kinds[at + j]} and {@code bits[at + j]} ({@link Steps#outputTo}) instead of a row.
     */
    boolean tick(long[] v, long[] work, long[] constants, Row input, byte[] kinds, long[] bits,
        int at);

    /**
     * One tick of the key whose hot vector is {@code h} ({@link KeyedKernel#hotLength}): the
     * hot vector widened into a working copy ({@code work}, or, for a kernel in the work
     * format, an array of the tick's own), the tick as {@link #tick} runs it on the copy, then,
     * when the result fits the hot format, the copy stored into {@code h}; the outputs from the
     * copy either way.
     *
     * @return {@link KeyedKernel#IN_PLACE}, {@link KeyedKernel#WIDENED} ({@code h} unchanged,
     *     {@code work} the key's state after the tick, in the working copy's format, which
     *     {@link KeyedKernel#widened} converts) or {@link KeyedKernel#DECLINED} (an input of
     *     another kind: {@code h} and the outputs unchanged)
     * @throws RuntimeException as {@link #tick}: {@code h} and the outputs unchanged
     */
    int tickHot(long[] h, long[] work, long[] constants, Row input, Row output);

    /** {@link #tickHot(long[], long[], long[], Row, Row)} with the outputs into columns. */
    int tickHot(long[] h, long[] work, long[] constants, Row input, byte[] kinds, long[] bits,
        int at);
  }

  /** Runs the steps one by one (until generated code replaces it, or when there is none). */
  private static final class Interpreted implements Code {
    private final Step[] steps;
    private final Step[] commits;
    private final Step[] inputs;
    private final Step[] outputs;
    private final Hot hot;
    /** The kernel's {@link KeyedKernel#elements}, and where the narrow part starts. */
    private final boolean elements;
    private final int narrowAt;

    Interpreted(KeyedKernel k) {
      this(k, k.hot);
    }

    private Interpreted(KeyedKernel k, Hot hot) {
      this.steps = k.steps;
      this.commits = k.commitSteps;
      this.inputs = k.inputSteps;
      this.outputs = k.outputSteps;
      this.hot = hot;
      this.elements = k.elements;
      this.narrowAt = k.narrowAt;
    }

    /** A tick of the plan's samples on {@code v}: false when an input was refused. */
    static boolean sample(KeyedKernel k, long[] v, long[] w, byte[] kinds, long[] bits) {
      Interpreted c = new Interpreted(k, null);
      c.copyIn(v, w);
      if (!c.inputsAndSteps(w, k.constantBits, kinds, bits)) {
        return false;
      }
      c.copyOut(w, v);
      return true;
    }

    /** The vector {@code v} into the working copy {@code w}. */
    private void copyIn(long[] v, long[] w) {
      if (elements) {
        toWork(v, w, narrowAt);
      } else {
        System.arraycopy(v, 0, w, 0, v.length);
      }
    }

    /** The working copy {@code w} into the vector {@code v}. */
    private void copyOut(long[] w, long[] v) {
      if (elements) {
        fromWork(w, v, narrowAt);
      } else {
        System.arraycopy(w, 0, v, 0, v.length);
      }
    }

    private boolean inputsAndSteps(long[] w, long[] cb, byte[] kinds, long[] bits) {
      for (int i = 0; i < inputs.length; i++) {
        int[] a = inputs[i].args;
        if (!Steps.input(w, cb, kinds[i], bits[i], a[0], a[1], a[2], a[3], a[4])) {
          return false;
        }
      }
      run(w, cb);
      commit(w, cb);
      Steps.advance(w);
      return true;
    }

    @Override
    public int tickHot(long[] h, long[] w, long[] cb, Row input, Row output) {
      int r = hotSteps(h, w, cb, input);
      if (r != DECLINED) {
        for (int j = 0; j < outputs.length; j++) {
          int[] a = outputs[j].args;
          Steps.output(w, cb, output, j, a[0], a[1]);
        }
      }
      return r;
    }

    @Override
    public int tickHot(long[] h, long[] w, long[] cb, Row input, byte[] kinds, long[] bits,
        int at) {
      int r = hotSteps(h, w, cb, input);
      if (r != DECLINED) {
        for (int j = 0; j < outputs.length; j++) {
          int[] a = outputs[j].args;
          Steps.outputTo(w, cb, kinds, bits, at + j, a[0], a[1]);
        }
      }
      return r;
    }

    /** The hot vector widened into w, the tick on w, then w stored into h when it fits. */
    private int hotSteps(long[] h, long[] w, long[] cb, Row input) {
      if (elements) {
        hot.expandWork(h, w);
      } else {
        hot.expand(h, w);
      }
      for (int i = 0; i < inputs.length; i++) {
        int[] a = inputs[i].args;
        if (!Steps.input(w, cb, input.kind(i), input.bits(i), a[0], a[1], a[2], a[3], a[4])) {
          return DECLINED;
        }
      }
      run(w, cb);
      commit(w, cb);
      Steps.advance(w);
      if (elements ? !hot.holdsWork(w) : !hot.holds(w)) {
        return WIDENED;
      }
      if (elements) {
        hot.storeWork(w, h);
      } else {
        hot.store(w, h);
      }
      return IN_PLACE;
    }

    @Override
    public boolean tick(long[] v, long[] w, long[] cb, Row input, Row output) {
      if (!inAndSteps(v, w, cb, input)) {
        return false;
      }
      for (int j = 0; j < outputs.length; j++) {
        int[] a = outputs[j].args;
        Steps.output(w, cb, output, j, a[0], a[1]);
      }
      return true;
    }

    @Override
    public boolean tick(long[] v, long[] w, long[] cb, Row input, byte[] kinds, long[] bits,
        int at) {
      if (!inAndSteps(v, w, cb, input)) {
        return false;
      }
      for (int j = 0; j < outputs.length; j++) {
        int[] a = outputs[j].args;
        Steps.outputTo(w, cb, kinds, bits, at + j, a[0], a[1]);
      }
      return true;
    }

    /** The inputs, steps, commit and tick count on the copy, then the copy into v. */
    private boolean inAndSteps(long[] v, long[] w, long[] cb, Row input) {
      copyIn(v, w);
      for (int i = 0; i < inputs.length; i++) {
        int[] a = inputs[i].args;
        if (!Steps.input(w, cb, input.kind(i), input.bits(i), a[0], a[1], a[2], a[3], a[4])) {
          return false;
        }
      }
      run(w, cb);
      commit(w, cb);
      Steps.advance(w);
      copyOut(w, v);
      return true;
    }

    private void run(long[] v, long[] cb) {
      for (Step s : steps) {
        int[] a = s.args;
        switch (s.op) {
          case HIST -> Steps.hist(v, cb, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]);
          case DELAY -> Steps.delay(v, cb, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7],
              a[8], a[9], a[10], a[11], a[12]);
          case DEFAULT -> Steps.defaultOf(v, cb, a[0], a[1], a[2], a[3], a[4], a[5], a[6],
              a[7]);
          case INIT -> Steps.init(v, cb, a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
          case ISDEF -> Steps.isDefined(v, cb, a[0], a[1], a[2], a[3], a[4], a[5]);
          case WHEN -> Steps.when(v, cb, a[0], a[1], a[2], a[3], a[4], a[5], a[6]);
          case UPDATE -> Steps.update(v, cb, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7],
              a[8], a[9], a[10]);
          case LATCH -> Steps.latch(v, cb, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
          case LIFT -> Steps.lift(v, cb, a[0], a[1], a[2], a[3], a[4], a[5]);
          case NEG -> Steps.neg(v, cb, a[0], a[1], a[2], a[3], a[4], a[5]);
          case NOT -> Steps.not(v, cb, a[0], a[1], a[2], a[3], a[4], a[5]);
          case IF -> Steps.ifThenElse(v, cb, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7],
              a[8], a[9], a[10], a[11], a[12], a[13]);
          case INT_ARITH -> Steps.intArith(v, cb, a[0], a[1], a[2], a[3], a[4], a[5], a[6],
              a[7], a[8], a[9], a[10]);
          case NUM_COMPARE -> Steps.numCompare(v, cb, a[0], a[1], a[2], a[3], a[4], a[5],
              a[6], a[7], a[8], a[9], a[10]);
          case BOOL_LOGIC -> Steps.boolLogic(v, cb, a[0], a[1], a[2], a[3], a[4], a[5],
              a[6], a[7], a[8], a[9], a[10]);
          case COPY -> Steps.copy(v, cb, a[0], a[1], a[2], a[3]);
          default -> throw new IllegalStateException("operation " + s.op);
        }
      }
    }

    private void commit(long[] v, long[] cb) {
      for (Step s : commits) {
        int[] a = s.args;
        if (s.op == PUSH) {
          Steps.push(v, cb, a[0], a[1], a[2], a[3], a[4], a[5]);
        } else {
          Steps.pushPending(v, cb, a[0], a[1], a[2], a[3], a[4], a[5]);
        }
      }
    }
  }

  /**
   * The steps' semantics, one method per node kind, each the node's own {@code compute()} (and
   * {@code commit()}) on vector positions: a value's kind is byte {@code t} of the vector
   * (its narrow part, eight kinds to a {@code long}, as {@link KeyedLayout} packs them), or, in
   * a working copy in the work format, its element ({@link #ELEMENT}), and its payload
   * {@code v[b]}; a literal's are {@code cb[~t]} and {@code cb[~b]}.
   * Public for the generated code, which calls them with constant positions (the JIT inlines
   * them and folds the positions), or, in a small program's hot tick, copies their bytecode
   * ({@code codegen.Inliner}): so no method here may have an exception handler, an
   * {@code invokedynamic} (string concatenation) or a call of itself, which the copy refuses,
   * and what a copied method names outside this class must be public (the generated class is
   * in another package; {@code KernelEmitterTest} checks). Not an API.
   */
  public static final class Steps {
    /** Diagnostics: kinds read and written with shifts and masks, not as bytes ({@link #BYTES}). */
    public static final String SHIFTS_PROPERTY = "dataflow.kernel.shifts";

    private Steps() {}

    private static long bits(long[] v, long[] cb, int at) {
      return at >= 0 ? v[at] : cb[~at];
    }

    /**
     * Byte access into a {@code long[]} (see {@link #get}), or null where the JVM does not offer
     * it; {@link #BYTES} tells which way {@link #get} and {@link #put} go. Private: the
     * generated hot tick copies {@link #getWork} and {@link #putWork} in place of {@code get}
     * and {@code put}, so no copy names these.
     */
    private static final sun.misc.Unsafe U = Unsafes.UNSAFE;
    private static final long BASE = U == null ? 0 : U.arrayBaseOffset(long[].class);
    /**
     * Whether kinds are read and written as single bytes: with {@code Unsafe}, on a
     * little-endian machine (where byte {@code at} of a {@code long[]}'s memory is byte
     * {@code at & 7} of element {@code at >>> 3}, which is how {@link KeyedLayout} packs the
     * narrow part), unless {@value #SHIFTS_PROPERTY} is set; else with shifts and masks.
     */
    static final boolean BYTES = U != null
        && java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN
        && U.arrayIndexScale(long[].class) == 8 && !Boolean.getBoolean(SHIFTS_PROPERTY);

    /**
     * Kind positions at or past this are elements of a working copy in the work format
     * ({@link KeyedKernel#workLength}), less this: the generated hot tick's own working copy
     * ({@link KeyedKernel#elements}). Below it a kind is a byte of the vector's packed narrow
     * part. A constant position folds the test away in generated code.
     */
    public static final int ELEMENT = 1 << 24;

    /**
     * The kind at byte {@code at} of the vector's memory (the narrow part, eight kinds to a
     * {@code long}, little endian), in element {@code at - ELEMENT} of a working copy in the work
     * format ({@code at >= ELEMENT}), or a literal's ({@code at < 0}).
     *
     * <p>With {@link #BYTES}, one byte load; else a shift of the element. A byte store and load
     * instead of a read-modify-write of a word that a dozen kinds share: measured 0.5 to 2.5 ns
     * of a 25 ns {@code groupsum} tick (docs/performance.md, keyed monitors, eighth pass). The
     * byte is the same either way; {@code at} is below the narrow part's end, inside a vector
     * of the kernel's length (the builder checks it, {@link KeyedKernel#tick} checks the
     * length), so no bounds check is left out that could fail.
     */
    static byte get(long[] v, long[] cb, int at) {
      return at >= 0 && at < ELEMENT ? getPacked(v, at) : getWork(v, cb, at);
    }

    /**
     * {@link #get} in the work format: the kind in its element ({@code at >= ELEMENT}) or a
     * literal's ({@code at < 0}). Every kind position of a kernel in the work format is one, so
     * the generated hot tick, which copies the steps' bytecode, copies this in place of
     * {@code get} (and {@link #putWork} in place of {@code put}): without the packed branch,
     * which such a tick never takes, the copies are a third of the size.
     */
    static byte getWork(long[] v, long[] cb, int at) {
      return at >= 0 ? (byte) v[at - ELEMENT] : (byte) cb[~at];
    }

    /** {@link #get} of a byte of the vector's memory. */
    private static byte getPacked(long[] v, int at) {
      return BYTES ? U.getByte(v, BASE + at) : getShifted(v, at);
    }

    /**
     * Writes the kind at byte {@code at} of the vector's memory, or in an element (0 to 255), as
     * {@link #get} reads it.
     */
    static void put(long[] v, int at, byte kind) {
      if (at >= ELEMENT) {
        putWork(v, at, kind);
      } else {
        putPacked(v, at, kind);
      }
    }

    /** {@link #put} in the work format (see {@link #getWork}). */
    static void putWork(long[] v, int at, byte kind) {
      v[at - ELEMENT] = kind & 0xFF;
    }

    /** {@link #put} of a byte of the vector's memory. */
    private static void putPacked(long[] v, int at, byte kind) {
      if (BYTES) {
        U.putByte(v, BASE + at, kind);
      } else {
        putShifted(v, at, kind);
      }
    }

    /** {@link #get} of a vector position with shifts (no {@code Unsafe}; tests compare). */
    static byte getShifted(long[] v, int at) {
      return (byte) (v[at >>> 3] >>> (at << 3));
    }

    /** {@link #put} with a read-modify-write of the element (no {@code Unsafe}). */
    static void putShifted(long[] v, int at, byte kind) {
      int w = at >>> 3;
      int shift = at << 3;
      v[w] = v[w] & ~(0xFFL << shift) | (kind & 0xFFL) << shift;
    }

    /**
     * An input's value into its stream's cell (StreamCell.overwriting, then setFromRow: the
     * payload is copied even for NoVal), the held value keeping the last present one.
     *
     * @return false when the kind is neither NoVal nor {@code kind} (a Str input declares
     *     NoVal: a present string goes to the working monitor, which checks it)
     */
    public static boolean input(long[] v, long[] cb, byte t, long bits, int kind, int ct,
        int cbits, int ht, int hb) {
      if (t != Kind.NOVAL && t != kind) {
        return false;
      }
      byte old = get(v, cb, ct);
      if (t == Kind.NOVAL && old != Kind.NOVAL) {
        put(v, ht, old);
        v[hb] = v[cbits];
      }
      put(v, ct, t);
      v[cbits] = bits;
      return true;
    }

    /** The tick count, after a tick. */
    public static void advance(long[] v) {
      v[KeyedLayout.TICK]++;
    }

    /** Output {@code j}: the stream's value. */
    public static void output(long[] v, long[] cb, Row output, int j, int ot, int ob) {
      output.setRaw(j, get(v, cb, ot), v[ob], null);
    }

    /** Output {@code j} into a batch's columns at {@code at}: the stream's kind and payload. */
    public static void outputTo(long[] v, long[] cb, byte[] kinds, long[] bits, int at,
        int ot, int ob) {
      kinds[at] = get(v, cb, ot);
      bits[at] = v[ob];
    }

    /** Slot.lift: the held memory takes a present value; the lifted value is the memory. */
    private static void lift(long[] v, long[] cb, int xt, int xb, int ht, int hb) {
      byte t = get(v, cb, xt);
      if (t != Kind.NOVAL) {
        put(v, ht, t);
        v[hb] = bits(v, cb, xb);
      }
    }

    private static void set(long[] v, long[] cb, int rt, int rb, int xt, int xb) {
      put(v, rt, get(v, cb, xt));
      v[rb] = bits(v, cb, xb);
    }

    /** DelayRead.readFrom: result, last value, the ring's position, kinds, payloads, depth. */
    public static void hist(long[] v, long[] cb, int rt, int rb, int lt, int lb,
        int pos, int tags, int bits, int depth, int offset) {
      int size = get(v, cb, pos + 1) & 0xFF;
      if (size < offset) {
        put(v, rt, Kind.DEFERRED);
        put(v, lt, Kind.DEFERRED);
        return;
      }
      // A ring of one sample holds it at 0 (head + 1 - offset is 0 once pushed): a constant
      // index for generated code, with no read of the head.
      int i = depth == 1 ? 0 : (get(v, cb, pos) & 0xFF) - offset;
      if (i < 0) {
        i += depth;
      }
      // The head comes from the vector (a checkpoint's, too): a sample outside the ring would
      // be another position's kind; a valid head never is.
      i = java.util.Objects.checkIndex(i, depth);
      byte t = get(v, cb, tags + i);
      if (t == Kind.NOVAL) {
        put(v, rt, get(v, cb, lt));
        v[rb] = v[lb];
      } else {
        long x = v[bits + i];
        put(v, rt, t);
        v[rb] = x;
        put(v, lt, t);
        v[lb] = x;
      }
    }

    /** Delay.compute: pending = operand (after its setNoVal), then the ring's sample. */
    public static void delay(long[] v, long[] cb, int rt, int rb, int lt, int lb,
        int pos, int tags, int bits, int depth, int pt, int pb, int ot, int ob, int offset) {
      set(v, cb, pt, pb, ot, ob);
      hist(v, cb, rt, rb, lt, lb, pos, tags, bits, depth, offset);
    }

    /** Default: lifted value, or the fallback when it is Deferred. */
    public static void defaultOf(long[] v, long[] cb, int rt, int rb, int xt, int xb,
        int ft, int fb, int ht, int hb) {
      lift(v, cb, xt, xb, ht, hb);
      if (get(v, cb, ht) == Kind.DEFERRED) {
        set(v, cb, rt, rb, ft, fb);
      } else {
        set(v, cb, rt, rb, ht, hb);
      }
    }

    /** Init: the initial value until the value is first not NoVal, then the value, raw. */
    public static void init(long[] v, long[] cb, int rt, int rb, int xt, int xb,
        int it, int ib, int flag) {
      if (get(v, cb, flag) == 0 && get(v, cb, xt) != Kind.NOVAL) {
        put(v, flag, (byte) 1);
      }
      if (get(v, cb, flag) != 0) {
        set(v, cb, rt, rb, xt, xb);
      } else {
        set(v, cb, rt, rb, it, ib);
      }
    }

    /** IsDefined: whether the lifted value is not Deferred. */
    public static void isDefined(long[] v, long[] cb, int rt, int rb, int xt, int xb,
        int ht, int hb) {
      lift(v, cb, xt, xb, ht, hb);
      put(v, rt, Kind.BOOL);
      v[rb] = get(v, cb, ht) != Kind.DEFERRED ? 1 : 0;
    }

    /** When: false until the lifted value is first present. */
    public static void when(long[] v, long[] cb, int rt, int rb, int xt, int xb,
        int ht, int hb, int flag) {
      lift(v, cb, xt, xb, ht, hb);
      if (get(v, cb, ht) > Kind.DEFERRED) {
        put(v, flag, (byte) 1);
      }
      put(v, rt, Kind.BOOL);
      v[rb] = get(v, cb, flag) != 0 ? 1 : 0;
    }

    /** Update: the lifted base until the lifted replacement is first present. */
    public static void update(long[] v, long[] cb, int rt, int rb, int at, int ab,
        int bt, int bb, int hat, int hab, int hbt, int hbb, int flag) {
      lift(v, cb, at, ab, hat, hab);
      lift(v, cb, bt, bb, hbt, hbb);
      if (get(v, cb, hbt) > Kind.DEFERRED) {
        put(v, flag, (byte) 1);
      }
      if (get(v, cb, flag) != 0) {
        set(v, cb, rt, rb, hbt, hbb);
      } else {
        set(v, cb, rt, rb, hat, hab);
      }
    }

    /** Latch: NoVal when the trigger is raw NoVal, else the lifted value. */
    public static void latch(long[] v, long[] cb, int rt, int rb, int xt, int xb,
        int tt, int tb, int ht, int hb) {
      lift(v, cb, xt, xb, ht, hb);
      if (get(v, cb, tt) == Kind.NOVAL) {
        put(v, rt, Kind.NOVAL);
      } else {
        set(v, cb, rt, rb, ht, hb);
      }
    }

    /** Lift ({@code e[0]}): the lifted value. */
    public static void lift(long[] v, long[] cb, int rt, int rb, int xt, int xb,
        int ht, int hb) {
      lift(v, cb, xt, xb, ht, hb);
      set(v, cb, rt, rb, ht, hb);
    }

    /** Neg: an absent operand's kind (only), else the negation; declines an overflow. */
    public static void neg(long[] v, long[] cb, int rt, int rb, int xt, int xb,
        int ht, int hb) {
      lift(v, cb, xt, xb, ht, hb);
      byte t = get(v, cb, ht);
      long x = v[hb];
      if (t <= Kind.DEFERRED) {
        put(v, rt, t);
      } else if (t == Kind.INT && x != Long.MIN_VALUE) {
        put(v, rt, Kind.INT);
        v[rb] = -x;
      } else if (t == Kind.FLOAT) {
        put(v, rt, Kind.FLOAT);
        v[rb] = Double.doubleToRawLongBits(-Double.longBitsToDouble(x));
      } else {
        throw Decline.INSTANCE;
      }
    }

    /** Not: an absent operand's kind (only), else the negation; declines a non-Bool. */
    public static void not(long[] v, long[] cb, int rt, int rb, int xt, int xb,
        int ht, int hb) {
      lift(v, cb, xt, xb, ht, hb);
      byte t = get(v, cb, ht);
      if (t <= Kind.DEFERRED) {
        put(v, rt, t);
      } else if (t == Kind.BOOL) {
        put(v, rt, Kind.BOOL);
        v[rb] = v[hb] != 0 ? 0 : 1;
      } else {
        throw Decline.INSTANCE;
      }
    }

    /** If: every operand lifted (a branch's error declined before), then the selection. */
    public static void ifThenElse(long[] v, long[] cb, int rt, int rb, int ct,
        int cbits, int at, int ab, int bt, int bb, int hct, int hcb, int hat, int hab, int hbt,
        int hbb) {
      lift(v, cb, ct, cbits, hct, hcb);
      lift(v, cb, at, ab, hat, hab);
      lift(v, cb, bt, bb, hbt, hbb);
      byte c = get(v, cb, hct);
      if (get(v, cb, hat) == Kind.NOVAL || get(v, cb, hbt) == Kind.NOVAL || c == Kind.NOVAL) {
        put(v, rt, Kind.NOVAL);
      } else if (c == Kind.DEFERRED) {
        put(v, rt, Kind.DEFERRED);
      } else if (c != Kind.BOOL) {
        throw Decline.INSTANCE;
      } else if (v[hcb] != 0) {
        set(v, cb, rt, rb, hat, hab);
      } else {
        set(v, cb, rt, rb, hbt, hbb);
      }
    }

    /** IntArith; declines a value outside the static type (the generic operator's work). */
    public static void intArith(long[] v, long[] cb, int rt, int rb, int lt, int lb,
        int qt, int qb, int hlt, int hlb, int hrt, int hrb, int op) {
      lift(v, cb, lt, lb, hlt, hlb);
      lift(v, cb, qt, qb, hrt, hrb);
      byte a = get(v, cb, hlt);
      byte b = get(v, cb, hrt);
      if (a == Kind.INT && b == Kind.INT) {
        long x = v[hlb];
        long y = v[hrb];
        long z;
        switch (op) {
          case 0 -> z = Ops.addInt(x, y);
          case 1 -> z = Ops.subInt(x, y);
          case 2 -> z = Ops.mulInt(x, y);
          case 3 -> z = Ops.div(x, y);
          default -> z = Ops.mod(x, y);
        }
        put(v, rt, Kind.INT);
        v[rb] = z;
      } else if (!absent(v, rt, a, b)) {
        throw Decline.INSTANCE;
      }
    }

    /** NumCompare; declines a value outside the static type. */
    public static void numCompare(long[] v, long[] cb, int rt, int rb, int lt, int lb,
        int qt, int qb, int hlt, int hlb, int hrt, int hrb, int op) {
      lift(v, cb, lt, lb, hlt, hlb);
      lift(v, cb, qt, qb, hrt, hrb);
      byte a = get(v, cb, hlt);
      byte b = get(v, cb, hrt);
      long x = v[hlb];
      long y = v[hrb];
      long z;
      if (a == Kind.FLOAT && b == Kind.FLOAT) {
        z = switch (op) {
          case 0 -> Ops.ltFloat(x, y);
          case 1 -> Ops.leFloat(x, y);
          case 2 -> Ops.gtFloat(x, y);
          default -> Ops.geFloat(x, y);
        };
      } else if (a == Kind.INT && b == Kind.INT) {
        z = switch (op) {
          case 0 -> Ops.ltInt(x, y);
          case 1 -> Ops.leInt(x, y);
          case 2 -> Ops.gtInt(x, y);
          default -> Ops.geInt(x, y);
        };
      } else if (absent(v, rt, a, b)) {
        return;
      } else if ((a == Kind.INT || a == Kind.FLOAT) && (b == Kind.INT || b == Kind.FLOAT)) {
        z = mixed(op, a == Kind.INT ? (double) x : Double.longBitsToDouble(x),
            b == Kind.INT ? (double) y : Double.longBitsToDouble(y));
      } else {
        throw Decline.INSTANCE;
      }
      put(v, rt, Kind.BOOL);
      v[rb] = z != 0 ? 1 : 0;
    }

    private static long mixed(int op, double a, double b) {
      boolean r = switch (op) {
        case 0 -> a < b;
        case 1 -> a <= b;
        case 2 -> a > b;
        default -> a >= b;
      };
      return r ? 1 : 0;
    }

    /** BoolLogic; declines a value outside the static type. */
    public static void boolLogic(long[] v, long[] cb, int rt, int rb, int lt, int lb,
        int qt, int qb, int hlt, int hlb, int hrt, int hrb, int op) {
      lift(v, cb, lt, lb, hlt, hlb);
      lift(v, cb, qt, qb, hrt, hrb);
      byte a = get(v, cb, hlt);
      byte b = get(v, cb, hrt);
      if (a == Kind.BOOL && b == Kind.BOOL) {
        long x = v[hlb];
        long y = v[hrb];
        put(v, rt, Kind.BOOL);
        v[rb] = op == 0 ? Ops.and(x, y) : op == 1 ? Ops.or(x, y) : Ops.implies(x, y);
      } else if (!absent(v, rt, a, b)) {
        throw Decline.INSTANCE;
      }
    }

    /** TypedBinary.absent: NoVal before Deferred (the kind only, as setNoVal). */
    private static boolean absent(long[] v, int r, byte lt, byte rt) {
      if (lt == Kind.NOVAL || rt == Kind.NOVAL) {
        put(v, r, Kind.NOVAL);
        return true;
      }
      if (lt == Kind.DEFERRED || rt == Kind.DEFERRED) {
        put(v, r, Kind.DEFERRED);
        return true;
      }
      return false;
    }

    /** A stream whose equation is a reference or a literal: its value, copied. */
    public static void copy(long[] v, long[] cb, int rt, int rb, int xt, int xb) {
      set(v, cb, rt, rb, xt, xb);
    }

    /** HistoryRing.push of a stream's value (scalar: no reference). */
    public static void push(long[] v, long[] cb, int xt, int xb, int pos, int tags, int bits,
        int depth) {
      int h = depth == 1 ? 0 : get(v, cb, pos) & 0xFF; // head + 1: the next head (0, alone)
      if (h == depth) {
        h = 0;
      }
      h = java.util.Objects.checkIndex(h, depth); // as in hist: never fails for a valid head
      put(v, pos, (byte) (h + 1));
      put(v, tags + h, get(v, cb, xt));
      v[bits + h] = v[xb];
      int size = get(v, cb, pos + 1) & 0xFF;
      if (size < depth) {
        put(v, pos + 1, (byte) (size + 1));
      }
    }

    /** Delay.commit: pushes the pending value, which goes back to NoVal (the kind only). */
    public static void pushPending(long[] v, long[] cb, int xt, int xb, int pos, int tags,
        int bits, int depth) {
      push(v, cb, xt, xb, pos, tags, bits, depth);
      put(v, xt, Kind.NOVAL);
    }
  }

  /** Flattens a program into operations; throws {@link Unsupported}. */
  private static final class Builder {
    private final KeyedLayout layout;
    private final Evaluator e;
    final List<Integer> code = new ArrayList<>();
    final List<Integer> commits = new ArrayList<>();
    final List<Slot> constants = new ArrayList<>();
    private final Map<Slot, Integer> slotIndex = new IdentityHashMap<>();
    private final Map<HistoryRing, int[]> ringAt = new IdentityHashMap<>();
    private final Map<Object, Integer> flagAt = new IdentityHashMap<>();
    private final Map<TypedNodes.TypedBinary, int[]> typedAt = new IdentityHashMap<>();
    private final Map<Node, StreamCell> roots = new IdentityHashMap<>();
    private final Map<Slot, Integer> constantIndex = new IdentityHashMap<>();
    boolean mayFail;
    /** The deepest history ring's depth (0: none). */
    int deepest;
    int[] inTag;
    int[] inBits;
    int[] heldTag;
    int[] heldBits;
    byte[] inKind;
    int[] outTag;
    int[] outBits;

    /**
     * Where byte 0 of the vector's narrow part is: a kind's position is this plus its byte's
     * (in the vector's memory, or, with {@code elements}, in a working copy in the work format,
     * see {@link Steps#ELEMENT}).
     */
    private final int base;

    /** Whether kind positions are in the work format. */
    final boolean elements;

    Builder(KeyedLayout layout, boolean elements) {
      this.layout = layout;
      this.e = layout.evaluator;
      this.elements = elements;
      this.base = elements ? Steps.ELEMENT + layout.narrowAt : 8 * layout.narrowAt;
    }

    int[] codeArray() {
      return code.stream().mapToInt(Integer::intValue).toArray();
    }

    int[] commitArray() {
      return commits.stream().mapToInt(Integer::intValue).toArray();
    }

    void build() {
      CheckedSpec spec = e.spec();
      if (spec.hasDynamic() || spec.hasLambda()) {
        throw new Unsupported();
      }
      positions();
      for (StreamCell c : e.cells) {
        Type t = spec.streamType(c.index);
        boolean scalar = t.equals(Type.INT) || t.equals(Type.FLOAT) || t.equals(Type.BOOL);
        if (!scalar && !(spec.isInput(c.index) && t.equals(Type.STR))) {
          throw new Unsupported();
        }
        if (c.root != null) {
          if (!c.root.isLeaf()) {
            roots.put(c.root, c); // an alias of its stream's value (see StateInventory)
          }
          if (e.checkedTypes()[c.index] != null || c.commitsGrow) {
            throw new Unsupported();
          }
        }
      }
      StreamCell[] in = e.inputCells();
      inTag = new int[in.length];
      inBits = new int[in.length];
      heldTag = new int[in.length];
      heldBits = new int[in.length];
      inKind = new byte[in.length];
      for (int i = 0; i < in.length; i++) {
        StreamCell c = in[i];
        int s = slot(c);
        int h = slot(c.heldPresent());
        inTag[i] = base + s;
        inBits[i] = KeyedLayout.HEADER + s;
        heldTag[i] = base + h;
        heldBits[i] = KeyedLayout.HEADER + h;
        Type t = spec.streamType(c.index);
        inKind[i] = t.equals(Type.INT) ? Kind.INT : t.equals(Type.FLOAT) ? Kind.FLOAT
            : t.equals(Type.BOOL) ? Kind.BOOL : Kind.NOVAL; // Str: only NoVal here
      }
      for (StreamCell c : e.order()) {
        Node root = c.root;
        if (root.isLeaf()) {
          code.add(COPY);
          value(c);
          value(root);
        } else {
          emit(root);
        }
      }
      for (StreamCell c : e.ringCells()) {
        int[] r = ring(c.ring);
        commits.add(base + slot(c));
        commits.add(KeyedLayout.HEADER + slot(c));
        commits.add(r[0]);
        commits.add(r[1]);
        commits.add(r[2]);
        commits.add(r[3]);
        commits.add(0);
      }
      for (StreamCell c : e.committing()) {
        for (Committable x : c.commits) {
          if (!(x instanceof TemporalNodes.Delay d)) {
            throw new Unsupported();
          }
          int[] r = ring(d.ring);
          commits.add(base + slot(d.pending));
          commits.add(KeyedLayout.HEADER + slot(d.pending));
          commits.add(r[0]);
          commits.add(r[1]);
          commits.add(r[2]);
          commits.add(r[3]);
          commits.add(1);
        }
      }
      StreamCell[] out = e.outputCells();
      outTag = new int[out.length];
      outBits = new int[out.length];
      for (int j = 0; j < out.length; j++) {
        outTag[j] = base + slot(out[j]);
        outBits[j] = KeyedLayout.HEADER + slot(out[j]);
      }
    }

    /** Where the layout keeps each state object (the order of KeyedLayout.store). */
    private void positions() {
      Slot[] slots = layout.slots;
      for (int i = 0; i < slots.length; i++) {
        slotIndex.put(slots[i], i);
      }
      int wide = KeyedLayout.HEADER + slots.length;
      int narrow = base + slots.length;
      for (HistoryRing g : layout.rings) {
        if (g.depth() >= 255) {
          throw new Unsupported();
        }
        // pos (head + 1, size), tags, bits, depth
        ringAt.put(g, new int[] {narrow, narrow + 2, wide, g.depth()});
        deepest = Math.max(deepest, g.depth());
        narrow += 2 + g.depth();
        wide += g.depth();
      }
      for (TypedNodes.TypedBinary t : layout.typed) {
        typedAt.put(t, new int[] {narrow, wide, narrow + 1, wide + 1});
        narrow += 2;
        wide += 2;
      }
      for (Object[] group : new Object[][] {layout.inits, layout.whens, layout.updates}) {
        for (Object o : group) {
          flagAt.put(o, narrow++);
        }
      }
      if (wide != layout.narrowAt) {
        throw new IllegalStateException("layout mismatch: " + wide + " != " + layout.narrowAt);
      }
      // Every kind, flag and ring position is a byte of the narrow part: inside a vector of the
      // compact length, which get and put address without bounds checks (see Steps).
      if (narrow - base > 8 * (layout.compactLength() - layout.narrowAt)) {
        throw new IllegalStateException("layout mismatch: byte " + (narrow - base)
            + " past the vector's narrow part");
      }
    }

    private int slot(Slot s) {
      Integer i = slotIndex.get(s);
      if (i == null) {
        throw new Unsupported();
      }
      return i;
    }

    private int[] ring(HistoryRing g) {
      int[] r = ringAt.get(g);
      if (r == null) {
        throw new Unsupported();
      }
      return r;
    }

    private int flag(Object node) {
      Integer f = flagAt.get(node);
      if (f == null) {
        throw new Unsupported();
      }
      return f;
    }

    /** Appends a value's kind index and payload index. */
    private void value(Slot s) {
      StreamCell cell = s instanceof Node n ? roots.get(n) : null;
      if (cell != null) {
        s = cell; // a root's result is its stream's value (derived state)
      }
      if (s instanceof Nodes.Const) {
        Integer k = constantIndex.get(s);
        if (k == null) {
          k = constants.size();
          constants.add(s);
          constantIndex.put(s, k);
        }
        code.add(~(2 * k + 1)); // the literal's kind, then its payload
        code.add(~(2 * k));
        return;
      }
      int i = slot(s);
      code.add(base + i);
      code.add(KeyedLayout.HEADER + i);
    }

    /** A ring read's operands: result, last, ring position, tags, bits, depth. */
    private void ringOperands(TemporalNodes.DelayRead d, HistoryRing g) {
      value(d);
      value(d.last);
      int[] r = ring(g);
      code.add(r[0]);
      code.add(r[1]);
      code.add(r[2]);
      code.add(r[3]);
    }

    /** The operations of {@code n}'s subtree in the interpreter's order (eval's recursion). */
    private void emit(Node n) {
      if (n.isLeaf()) {
        if (!(n instanceof StreamCell || n instanceof Nodes.Const)) {
          throw new Unsupported();
        }
        return;
      }
      if (n.tag > Kind.FLOAT || n.ref != null) {
        throw new Unsupported(); // not a scalar node
      }
      if (n instanceof TemporalNodes.HistoryRead h) {
        if (h.ring == null) {
          throw new Unsupported();
        }
        code.add(HIST);
        ringOperands(h, h.ring);
        code.add(h.offset);
      } else if (n instanceof TemporalNodes.Delay d) {
        emit(d.operand);
        code.add(DELAY);
        ringOperands(d, d.ring);
        value(d.pending);
        value(d.operand);
        code.add(d.offset);
      } else if (n instanceof TemporalNodes.Default d) {
        emit(d.value);
        emit(d.fallback);
        code.add(DEFAULT);
        value(d);
        value(d.value);
        value(d.fallback);
        value(d.held);
      } else if (n instanceof TemporalNodes.Init d) {
        emit(d.value);
        emit(d.initial);
        code.add(INIT);
        value(d);
        value(d.value);
        value(d.initial);
        code.add(flag(d));
      } else if (n instanceof TemporalNodes.IsDefined d) {
        emit(d.value);
        code.add(ISDEF);
        value(d);
        value(d.value);
        value(d.held);
      } else if (n instanceof TemporalNodes.When d) {
        emit(d.value);
        code.add(WHEN);
        value(d);
        value(d.value);
        value(d.held);
        code.add(flag(d));
      } else if (n instanceof TemporalNodes.Update d) {
        emit(d.base);
        emit(d.replacement);
        code.add(UPDATE);
        value(d);
        value(d.base);
        value(d.replacement);
        value(d.heldBase);
        value(d.heldReplacement);
        code.add(flag(d));
      } else if (n instanceof TemporalNodes.Latch d) {
        emit(d.value);
        emit(d.trigger);
        code.add(LATCH);
        value(d);
        value(d.value);
        value(d.trigger);
        value(d.held);
      } else if (n instanceof Nodes.Lift d) {
        emit(d.operand);
        code.add(LIFT);
        value(d);
        value(d.operand);
        value(d.held);
      } else if (n instanceof Nodes.Neg || n instanceof Nodes.Not) {
        Nodes.Unary u = (Nodes.Unary) n;
        emit(u.operand);
        code.add(n instanceof Nodes.Neg ? NEG : NOT);
        value(u);
        value(u.operand);
        value(u.held);
        mayFail = true;
      } else if (n instanceof Nodes.If d) {
        emit(d.cond);
        emit(d.then);
        emit(d.otherwise);
        code.add(IF);
        value(d);
        value(d.cond);
        value(d.then);
        value(d.otherwise);
        value(d.heldCond);
        value(d.heldThen);
        value(d.heldOtherwise);
        mayFail = true;
      } else if (n instanceof TypedNodes.TypedBinary t) {
        if (!t.leftLeaf) {
          emit(t.left);
        }
        if (!t.rightLeaf) {
          emit(t.right);
        }
        int[] held = typedAt.get(t);
        if (held == null) {
          throw new Unsupported();
        }
        int op;
        if (t instanceof TypedNodes.IntArith) {
          code.add(INT_ARITH);
          op = switch (t.op) {
            case ADD -> 0;
            case SUB -> 1;
            case MUL -> 2;
            case DIV -> 3;
            default -> 4;
          };
        } else if (t instanceof TypedNodes.NumCompare) {
          code.add(NUM_COMPARE);
          op = switch (t.op) {
            case LT -> 0;
            case LE -> 1;
            case GT -> 2;
            default -> 3;
          };
        } else {
          code.add(BOOL_LOGIC);
          op = switch (t.op) {
            case AND -> 0;
            case OR -> 1;
            default -> 2;
          };
        }
        value(t);
        value(t.left);
        value(t.right);
        code.add(held[0]);
        code.add(held[1]);
        code.add(held[2]);
        code.add(held[3]);
        code.add(op);
        mayFail = true;
      } else {
        throw new Unsupported();
      }
    }
  }
}
