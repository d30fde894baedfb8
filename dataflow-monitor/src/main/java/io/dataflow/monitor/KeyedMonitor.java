package io.dataflow.monitor;

import io.dataflow.core.MonitorException;
import io.dataflow.core.MonitorRevision;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.snapshot.MonitorSnapshot;
import io.dataflow.monitor.codegen.FusedCompiler;
import io.dataflow.monitor.codegen.GenerationRefused;
import io.dataflow.monitor.eval.KeyedKernel;
import io.dataflow.monitor.eval.KeyedLayout;
import io.dataflow.monitor.internal.KeyedColumns;
import io.dataflow.monitor.internal.KeyedFormats;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * One logical monitor per key, all of one program: each key has its own tick count, histories,
 * lifting memories and dynamic bodies, and key K's outputs are exactly what a lone
 * {@link DataflowMonitor} fed K's ticks, in K's order, would produce. A key's state is created
 * by its first tick. The keyed pipeline (module {@code dataflow-pipeline}) keeps one of these
 * per lane.
 *
 * <p>Keys are compared with {@code equals}: use immutable values (a {@code String}, a
 * {@code Long}).
 *
 * <h2>Per-key state</h2>
 * A key's state is compact: each key keeps only a vector of its values, histories, operator
 * memories, tick count and revision ({@link KeyedLayout}; 128 bytes for a counter). For programs
 * of scalar streams ({@code Int}, {@code Float}, {@code Bool}; see {@link KeyedKernel} for the
 * operators covered) a key's tick is evaluated on its vector in place: the kernel runs the
 * program's steps on the vector's positions (interpreted at first, as generated code once the
 * keys have run {@link DataflowMonitor.Fusion#BACKGROUND_AFTER_TICKS} ticks). Any other
 * program, and any tick the kernel declines (an input of another kind, an error), is evaluated
 * by one working monitor that interprets: the key's vector is loaded into it before the tick
 * and stored back after. Either way the vector after a tick is the interpreter's state, which
 * is what a lone monitor's first ticks hold, so snapshots do not depend on the path; a snapshot
 * loads the key into the working monitor.
 * <p>A key the kernel evaluates is resident in a shorter <em>hot</em> vector while its state
 * allows ({@link KeyedKernel#hotLength}: the payloads that equal a constant or another payload,
 * and the kinds that stay the same, are left out, and every tick checks that they still do,
 * else the key goes back to the usual vector; a new key's hot vector stands for the fresh
 * state). Everything other than a tick in place sees the usual vector, converted on demand
 * ({@link KeyedKernel#widen}, {@link KeyedKernel#compact}): snapshots and checkpoints read a
 * widened copy, a fallback to the working monitor and a reconfiguration widen the key first.
 * <p>These keep a whole interpreting {@link DataflowMonitor} instead (kilobytes per key):
 * <ul>
 *   <li>every key of a program with dynamic properties ({@code dynamic}, {@code defer}) or
 *       lambdas, or with state the layout does not know;
 *   <li>a failed key (its monitor is poisoned: every later tick throws the same exception);
 *   <li>a key whose state came from a monitor of another program object (a
 *       {@link #reconfigure} to a renamed program of the same definition key keeps each key on
 *       the program it ran, as a lone monitor does) or of another shape.
 * </ul>
 * A key restored from a snapshot whose derived state differs from the interpreter's (a snapshot
 * of generated code, say) keeps a longer vector that holds that state as well.
 *
 * <h2>Order of keys</h2>
 * Whatever goes over all keys ({@link #keys}, {@link #snapshots}, {@link #writeState},
 * {@link #reconfigure}, whose report is the first healthy key's, and {@link #expireIdle}) takes
 * them in <em>first-arrival order</em>: the order in which their state was created, by a first
 * tick, a {@link #restore} or a {@link #readState} of a key without state. A key keeps its place
 * while it has state (a failure, a restore, a reconfiguration keep it); a key forgotten
 * ({@link #remove}, idle expiry) and seen again comes last. {@link #readState} adds new keys in
 * the order written, so a checkpoint and its restore keep the order. The order does not depend
 * on the keys' hash codes.
 *
 * <p>Thread-safety: owner thread only, like a monitor.
 */
public final class KeyedMonitor {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(
      KeyedMonitor.class);
  private DataflowProgram program;
  private final DataflowMonitor.Options options;
  /**
   * Each key's state: a {@code long[]} vector (compact, no reference values), a {@link Boxed}
   * vector with its references, or a {@link Full} monitor. A vector's last-tick clock reading
   * is its {@link KeyedLayout#LAST_SEEN} element. In first-arrival order (insertion order: a
   * {@code put} of a known key keeps its place); {@code Long} keys are found by their value.
   */
  private final KeyTable keys = new KeyTable();
  /** The monitor that evaluates every compact key's ticks, and its layout (null: none). */
  private DataflowMonitor working;
  private KeyedLayout layout;
  /** Evaluates a compact key's tick on its vector in place (null: the program is not covered). */
  private KeyedKernel kernel;
  /** Whether {@link #kernel} is used (false only in tests of the working monitor's path). */
  private final boolean inPlace;
  /** Whether the kernel's code is generated at once (tests), else after a number of ticks. */
  private final boolean eagerCode;
  /**
   * Whether keys the kernel covers are resident in its hot format when it has one (false only
   * in tests of the wide format).
   */
  private final boolean hotKeys;
  /** The length of a hot vector (see {@link KeyedKernel#hotLength}), or -1: none. */
  private int hotLength = -1;
  /** A new key's vector in the hot format, or null. */
  private long[] freshHot;
  /** Ticks evaluated in place before the kernel's code was asked for. */
  private int inPlaceTicks;
  private boolean codeRequested;
  /** A new key's vector and references (a fresh monitor's state). */
  private long[] fresh;
  private Object[] freshRefs;
  /** The vector whose state the working monitor holds (skips the load), or null. */
  private long[] resident;
  /** The revision index the working monitor holds, or -1. */
  private int loadedRevision = -1;
  /** The revisions keys have, interned: a vector keeps an index into this list. */
  private final List<MonitorRevision> revisions = new ArrayList<>();
  private final Map<MonitorRevision, Integer> revisionIndex = new HashMap<>();

  /** A compact key that holds reference values. */
  private static final class Boxed {
    long[] vector;
    Object[] refs;

    Boxed(long[] vector, Object[] refs) {
      this.vector = vector;
      this.refs = refs;
    }
  }

  /** A key with a whole monitor of its own. */
  private static final class Full {
    final DataflowMonitor monitor;
    long lastSeenNanos;

    Full(DataflowMonitor monitor, long lastSeenNanos) {
      this.monitor = monitor;
      this.lastSeenNanos = lastSeenNanos;
    }
  }

  private KeyedMonitor(DataflowProgram program, DataflowMonitor.Options options,
      boolean inPlace, boolean eagerCode) {
    this(program, options, inPlace, eagerCode, true);
  }

  private KeyedMonitor(DataflowProgram program, DataflowMonitor.Options options,
      boolean inPlace, boolean eagerCode, boolean hotKeys) {
    this.program = Objects.requireNonNull(program, "program");
    this.inPlace = inPlace;
    this.eagerCode = eagerCode;
    this.hotKeys = hotKeys;
    // Keys and the working monitor interpret: see "Per-key state".
    this.options = options.withFusion(DataflowMonitor.Fusion.OFF);
    newWorking();
  }

  /** Keyed monitors of {@code program}, no key yet. */
  public static KeyedMonitor create(DataflowProgram program) {
    return new KeyedMonitor(program, DataflowMonitor.Options.DEFAULT, true, false);
  }

  /**
   * Tests: keyed monitors that load every key into the working monitor (no evaluation in
   * place), the path of the programs the kernel does not cover.
   */
  static KeyedMonitor createLoading(DataflowProgram program) {
    return new KeyedMonitor(program, DataflowMonitor.Options.DEFAULT, false, false);
  }

  /** Tests: keyed monitors whose kernel runs generated code from the first tick. */
  static KeyedMonitor createGenerated(DataflowProgram program) {
    return new KeyedMonitor(program, DataflowMonitor.Options.DEFAULT, true, true);
  }

  /**
   * Tests: keyed monitors whose keys stay in the wide format (no hot format), generated code
   * from the first tick when {@code eager}.
   */
  static KeyedMonitor createWide(DataflowProgram program, boolean eager) {
    return new KeyedMonitor(program, DataflowMonitor.Options.DEFAULT, true, eager, false);
  }

  /** Tests and diagnostics: whether {@code key}'s state is resident in the hot format. */
  boolean isHot(Object key) {
    return keys.get(key) instanceof long[] v && v.length == hotLength;
  }

  /**
   * Tests: moves {@code key} to the wide format ({@code wide}) or, when its state fits, to the
   * hot format; the key's behaviour does not change either way.
   */
  void convert(Object key, boolean wide) {
    Object s = keys.get(key);
    if (!(s instanceof long[] v)) {
      return;
    }
    if (wide) {
      if (v.length == hotLength) {
        widen(key, v);
      }
    } else {
      keys.put(key, hotOrWide(v));
    }
  }

  /** Tests and diagnostics: whether compact keys' ticks run the kernel's generated code. */
  boolean runsGeneratedCode() {
    return kernel != null && kernel.runsGeneratedCode();
  }

  /** Tests and diagnostics: whether compact keys' ticks are evaluated in place. */
  boolean evaluatesInPlace() {
    return kernel != null;
  }

  /** A fresh working monitor for {@link #program}, its layout and a new key's state. */
  private void newWorking() {
    KeyedKernel previous = kernel;
    working = DataflowMonitor.create(program, options);
    layout = KeyedLayout.of(working.evaluator);
    resident = null;
    loadedRevision = -1;
    if (layout != null) {
      fresh = layout.store(null, intern(working.revision()), layout);
      Object[] r = layout.storedRefs();
      freshRefs = r == null ? null : r.clone();
    }
    kernel = inPlace && layout != null
        ? KeyedKernel.of(layout, hotKeys && freshRefs == null ? fresh : null) : null;
    if (hotLength > 0 && (kernel == null
        || !kernel.hotSignature().equals(previous.hotSignature()))) {
      widenAll(previous); // keys in another hot format (not after a failure: the same program)
    }
    hotLength = kernel == null ? -1 : kernel.hotLength();
    freshHot = hotLength > 0 ? kernel.compact(fresh) : null;
    codeRequested = false;
    inPlaceTicks = 0;
    if (kernel != null && eagerCode) {
      codeRequested = true;
      offerCode(kernel);
    }
  }

  /**
   * Moves every key resident in the hot format of {@code k} to the wide format: the one place
   * where the hot format is left wholesale (a reconfiguration, a new kernel).
   */
  private void widenAll(KeyedKernel k) {
    int n = hotLength;
    for (Map.Entry<Object, Object> e : keys.entrySet()) {
      if (e.getValue() instanceof long[] v && v.length == n) {
        e.setValue(k.widen(v));
      }
    }
  }

  /**
   * The key's vector in the wide format, the key moved there when it was hot (for everything
   * that changes a key's state other than a tick in place: a tick on the working monitor).
   */
  private long[] widen(Object key, long[] v) {
    if (v.length != hotLength) {
      return v;
    }
    long[] w = kernel.widen(v);
    keys.put(key, w);
    return w;
  }

  /**
   * A compact key's vector in the wide format, for reading only: a new array for a hot key (the
   * key stays hot), {@code v} itself otherwise.
   */
  private long[] wideCopy(long[] v) {
    return v.length == hotLength ? kernel.widen(v) : v;
  }

  /** A scratch wide vector for {@link #writeState} (owner thread only; never a key's state). */
  private long[] wideScratch;

  private long[] wideScratch() {
    if (wideScratch == null || wideScratch.length != layout.compactLength()) {
      wideScratch = new long[layout.compactLength()];
    }
    return wideScratch;
  }

  /** A wide vector as a key's state: in the hot format when it fits, else itself. */
  private long[] hotOrWide(long[] v) {
    if (hotLength > 0) {
      long[] h = kernel.compact(v);
      if (h != null) {
        return h;
      }
    }
    return v;
  }

  private int intern(MonitorRevision r) {
    Integer i = revisionIndex.get(r);
    if (i == null) {
      i = revisions.size();
      revisions.add(r);
      revisionIndex.put(r, i);
    }
    return i;
  }

  /** The program every key runs. */
  public DataflowProgram program() {
    return program;
  }

  /** The input layout of every key's rows. */
  public RowLayout inputs() {
    return program.inputs();
  }

  /** The output layout of every key's rows. */
  public RowLayout outputs() {
    return program.outputs();
  }

  /** The number of keys with state. */
  public int size() {
    return keys.size();
  }

  /**
   * Evaluates key's next tick: {@code output} gets its outputs. A key seen for the first time
   * starts with fresh state at tick 0.
   *
   * @param atNanos the clock reading of this tick (for idle expiry)
   * @return the key's tick that was evaluated (0 for its first)
   * @throws MonitorException when the tick fails; that key's monitor is failed (every later
   *     tick of it throws the same), the other keys are unaffected
   */
  public long evaluate(Object key, long atNanos, Row input, Row output) {
    Object state = stateOf(key);
    if (state instanceof long[] v) {
      v[KeyedLayout.LAST_SEEN] = atNanos;
      long t = v[KeyedLayout.TICK];
      KeyedKernel k = kernel;
      if (v.length == hotLength) {
        int r = k.tickHot(v, input, output);
        if (r != KeyedKernel.DECLINED) {
          tickedHot(key, r, k);
          return t;
        }
        v = widen(key, v);
      } else if (k != null && k.tick(v, input, output)) {
        tickedInPlace(key, v, t, k);
        return t;
      }
      tick(key, v, null, input, output);
      return t;
    }
    return evaluateWhole(key, state, atNanos, input, output);
  }

  /** The key's state, fresh state at tick 0 for a key seen for the first time. */
  private Object stateOf(Object key) {
    Object state = keys.get(key);
    return state != null ? state : newKey(Objects.requireNonNull(key, "key"));
  }

  /**
   * Bookkeeping after the kernel evaluated tick {@code t} of the wide vector {@code v} in place:
   * after the key's first tick, its second, fourth, eighth and so on, the key moves to the hot
   * format when its state fits (a key that left the format comes back once its state fits
   * again, at a cost that shrinks with its age).
   */
  private void tickedInPlace(Object key, long[] v, long t, KeyedKernel k) {
    if (resident == v) {
      resident = null; // the working monitor's copy of this key is stale now
    }
    if (hotLength > 0 && (t & (t + 1)) == 0) {
      long[] h = k.compact(v);
      if (h != null) {
        keys.put(key, h);
      }
    }
    if (!codeRequested && ++inPlaceTicks >= DataflowMonitor.Fusion.BACKGROUND_AFTER_TICKS) {
      codeRequested = true; // as a monitor's own code: generated once the keys proved busy
      FusedCompiler.inBackground(() -> offerCode(k));
    }
  }

  /** Bookkeeping after the kernel evaluated a tick of a hot key (see {@link #tickedInPlace}). */
  private void tickedHot(Object key, int result, KeyedKernel k) {
    if (result == KeyedKernel.WIDENED) {
      keys.put(key, k.widened()); // the tick's state does not fit the hot format
    }
    if (!codeRequested && ++inPlaceTicks >= DataflowMonitor.Fusion.BACKGROUND_AFTER_TICKS) {
      codeRequested = true;
      FusedCompiler.inBackground(() -> offerCode(k));
    }
  }

  /**
   * A tick of a key held boxed or as a whole monitor (never in place): {@code output} gets its
   * outputs.
   *
   * @return the key's tick that was evaluated
   */
  private long evaluateWhole(Object key, Object state, long atNanos, Row input, Row output) {
    if (state instanceof Boxed b) {
      b.vector[KeyedLayout.LAST_SEEN] = atNanos;
      long t = b.vector[KeyedLayout.TICK];
      tick(key, b.vector, b.refs, input, output);
      return t;
    }
    Full f = (Full) state;
    f.lastSeenNanos = atNanos;
    long t = f.monitor.nextTick();
    f.monitor.evaluate(input, output);
    return t;
  }

  static {
    KeyedColumns.install(KeyedMonitor::evaluateInto);
    KeyedFormats.install(new KeyedFormats.Hooks() {
      @Override
      public KeyedMonitor createWide(DataflowProgram p) {
        return KeyedMonitor.createWide(p, false);
      }

      @Override
      public boolean isHot(KeyedMonitor keyed, Object key) {
        return keyed.isHot(key);
      }

      @Override
      public void convert(KeyedMonitor keyed, Object key, boolean wide) {
        keyed.convert(key, wide);
      }
    });
  }

  /**
   * {@link #evaluate} with the outputs written into a batch's columns when the key's tick runs
   * in place: output {@code j}'s kind to {@code kinds[at + j]}, its payload to
   * {@code bits[at + j]} (no output row, no copy of it). Any other tick (a key not in the
   * compact format, a tick the kernel declines, a program it does not cover) writes
   * {@code output} as {@link #evaluate} does. For the pipeline's drivers, through
   * {@link KeyedColumns} (not an API).
   *
   * @param output a row of the outputs' width (the columns' row width)
   * @return the key's tick that was evaluated ({@code t >= 0}) when the outputs are in the
   *     columns, {@code ~t} (negative) when they are in {@code output}
   * @throws MonitorException as {@link #evaluate}
   */
  private long evaluateInto(Object key, long atNanos, Row input, Row output, byte[] kinds,
      long[] bits, int at) {
    Object state = stateOf(key);
    if (state instanceof long[] v) {
      v[KeyedLayout.LAST_SEEN] = atNanos;
      long t = v[KeyedLayout.TICK];
      KeyedKernel k = kernel;
      if (v.length == hotLength) {
        int r = k.tickHot(v, input, output, kinds, bits, at);
        if (r != KeyedKernel.DECLINED) {
          tickedHot(key, r, k);
          return t;
        }
        v = widen(key, v);
      } else if (k != null && k.tick(v, input, output, kinds, bits, at)) {
        tickedInPlace(key, v, t, k);
        return t;
      }
      tick(key, v, null, input, output);
      return ~t;
    }
    return ~evaluateWhole(key, state, atNanos, input, output);
  }

  /**
   * Generates the kernel's code and offers it; a refusal (the JVM's) leaves it interpreting.
   * On the background thread, or on the owner thread when eager.
   */
  private static void offerCode(KeyedKernel k) {
    try {
      k.offer(FusedCompiler.keyedKernel(k));
    } catch (GenerationRefused e) {
      LOG.warn("keyed monitors of '{}' evaluate interpreted steps: {}", k.source(), e.reason());
    }
  }

  private Object newKey(Object key) {
    Object state;
    if (layout == null) {
      state = new Full(DataflowMonitor.create(program, options), 0);
    } else if (freshHot != null) {
      state = freshHot.clone();
    } else {
      state = freshRefs == null ? fresh.clone() : new Boxed(fresh.clone(), freshRefs.clone());
    }
    keys.put(key, state);
    return state;
  }

  /** One tick of a compact key on the working monitor. */
  private void tick(Object key, long[] v, Object[] refs, Row input, Row output) {
    if (resident != v) {
      load(v, refs);
    }
    try {
      working.evaluate(input, output);
    } catch (RuntimeException | Error e) {
      if (working.failure() != null) {
        // The poisoned working monitor is the key's from now on, as a lone one would be.
        keys.put(key, new Full(working, v[KeyedLayout.LAST_SEEN]));
        newWorking();
      } else {
        storeBack(key, v, refs); // not a failure of the key (a row of the wrong width)
      }
      throw e;
    }
    storeBack(key, v, refs);
  }

  private void load(long[] v, Object[] refs) {
    int r = layout.load(v, refs);
    if (r != loadedRevision) {
      working.restoreRevision(revisions.get(r));
      loadedRevision = r;
    }
    resident = v;
  }

  private void storeBack(Object key, long[] v, Object[] refs) {
    long[] next = layout.store(v, loadedRevision, null);
    Object[] r = layout.storedRefs();
    resident = next;
    if (next == v && r == null && refs == null) {
      return; // the common case: scalar state, stored in place
    }
    if (r == null) {
      keys.put(key, next);
    } else if (refs != null && refs.length == r.length && next == v) {
      System.arraycopy(r, 0, refs, 0, r.length);
    } else {
      keys.put(key, new Boxed(next, r.clone()));
    }
  }

  /** The next tick of {@code key} (the number of ticks it evaluated); 0 for an unknown key. */
  public long nextTick(Object key) {
    Object s = keys.get(key);
    if (s == null) {
      return 0;
    }
    return s instanceof Full f ? f.monitor.nextTick() : vector(s)[KeyedLayout.TICK];
  }

  private static long[] vector(Object state) {
    return state instanceof long[] v ? v : ((Boxed) state).vector;
  }

  private static Object[] refs(Object state) {
    return state instanceof Boxed b ? b.refs : null;
  }

  private static long lastSeen(Object state) {
    if (state == null) {
      return 0;
    }
    return state instanceof Full f ? f.lastSeenNanos : vector(state)[KeyedLayout.LAST_SEEN];
  }

  /** True when {@code key} has state. */
  public boolean contains(Object key) {
    return keys.containsKey(key);
  }

  /** Forgets {@code key}'s state; its next tick starts fresh. */
  public boolean remove(Object key) {
    return keys.remove(key) != null;
  }

  /**
   * Forgets every key whose last tick is older than {@code idleSinceNanos} (idle expiry).
   *
   * @return how many keys were forgotten
   */
  public int expireIdle(long idleSinceNanos) {
    int n = 0;
    for (Iterator<Object> it = keys.values().iterator(); it.hasNext(); ) {
      if (lastSeen(it.next()) - idleSinceNanos < 0) {
        it.remove();
        n++;
      }
    }
    return n;
  }

  /** The keys with state, in first-arrival order (see "Order of keys"; a copy). */
  public List<Object> keys() {
    return new ArrayList<>(keys.keySet());
  }

  /**
   * The snapshot of one key's state (docs/snapshots.md), as a lone monitor's would be.
   *
   * @throws IllegalArgumentException for a key without state
   */
  public MonitorSnapshot snapshot(Object key) {
    Object s = keys.get(key);
    if (s == null) {
      throw new IllegalArgumentException("no state for key " + key);
    }
    return snapshotOf(s);
  }

  private MonitorSnapshot snapshotOf(Object state) {
    if (state instanceof Full f) {
      return f.monitor.snapshot();
    }
    long[] v = wideCopy(vector(state));
    if (resident != v) {
      load(v, refs(state));
    }
    return working.snapshot();
  }

  /**
   * Calls {@code action} with every key and its snapshot, in first-arrival order (see "Order of
   * keys"). The action must not change this keyed monitor.
   */
  public void snapshots(BiConsumer<Object, MonitorSnapshot> action) {
    keys.forEach((k, s) -> action.accept(k, snapshotOf(s)));
  }

  /**
   * Replaces {@code key}'s state by a snapshot's (the rules of
   * {@link DataflowMonitor#restore(DataflowProgram, MonitorSnapshot)}: exact with this program's
   * definition key, the transfer rules otherwise).
   *
   * @throws io.dataflow.core.snapshot.SnapshotException when the snapshot does not fit; the
   *     key's state is then unchanged
   */
  public ContextTransferReport restore(Object key, MonitorSnapshot snapshot) {
    DataflowMonitor.Transition t = DataflowMonitor.restore(program, snapshot, options);
    Object old = keys.get(Objects.requireNonNull(key, "key"));
    keys.put(key, adopt(t.monitor(), lastSeen(old), program, layout));
    if (old != null && !(old instanceof Full) && vector(old) == resident) {
      resident = null;
    }
    return t.report();
  }

  /**
   * A key's state from a monitor: its vector when the monitor runs {@code target} in the shape
   * of {@code canonical} (a fresh working monitor's layout) and is healthy, else the monitor.
   */
  private Object adopt(DataflowMonitor m, long lastSeenNanos, DataflowProgram target,
      KeyedLayout canonical) {
    if (canonical == null || m.failure() != null || m.program() != target) {
      return new Full(m, lastSeenNanos);
    }
    KeyedLayout own = KeyedLayout.of(m.evaluator);
    if (own == null || !own.sameShape(canonical)) {
      return new Full(m, lastSeenNanos);
    }
    long[] v = own.store(null, intern(m.revision()), canonical);
    v[KeyedLayout.LAST_SEEN] = lastSeenNanos;
    Object[] r = own.storedRefs();
    return r == null ? hotOrWide(v) : new Boxed(v, r.clone());
  }

  /** A monitor of {@code p} holding a compact key's state (for reconfiguration). */
  private DataflowMonitor monitorOf(Object state, DataflowProgram p) {
    DataflowMonitor m = DataflowMonitor.create(p, options);
    KeyedLayout own = KeyedLayout.of(m.evaluator);
    m.restoreRevision(revisions.get(own.load(vector(state), refs(state))));
    return m;
  }

  /**
   * Moves every key to {@code target}, the same way for every key: with a mapping, the rules of
   * a live transfer ({@link DataflowMonitor#transfer}; {@code RetainExact} when the mapping
   * says so), without one a cold start that continues each key's tick count. A key whose
   * monitor failed starts cold.
   *
   * <p>A cold start, and {@code RetainExact} of a program with the same name and stream order,
   * only rewrite each compact key's revision; a transfer goes through a monitor per key, one key
   * at a time.
   *
   * @return what moved (the same for every key: the first healthy key's report in
   *     first-arrival order, see "Order of keys"); the report of a cold start when there is no
   *     key
   */
  public ContextTransferReport reconfigure(DataflowProgram target, TransferMapping mapping) {
    Objects.requireNonNull(target, "target");
    DataflowProgram source = program;
    KeyedLayout sourceLayout = layout;
    if (hotLength > 0) {
      widenAll(kernel); // every key through the wide format, as before the hot one existed
      hotLength = -1;
    }
    program = target;
    newWorking(); // the target's working monitor, layout and fresh state
    boolean retainInPlace = mapping != null && mapping.retainExact() && sourceLayout != null
        && layout != null && sourceLayout.sameShape(layout)
        && source.name().equals(target.name()) && names(source).equals(names(target));
    ContextTransferReport report = null;
    for (Map.Entry<Object, Object> e : keys.entrySet()) {
      Object s = e.getValue();
      if (!(s instanceof Full) && layout != null && (mapping == null || retainInPlace)) {
        long[] v = vector(s);
        int next = intern(revisions.get(sourceLayout.revisionOf(v)).nextRoot());
        if (mapping == null) {
          long[] cold = fresh.clone();
          cold[KeyedLayout.LAST_SEEN] = v[KeyedLayout.LAST_SEEN];
          cold[KeyedLayout.TICK] = v[KeyedLayout.TICK];
          layout.revisionOf(cold, next);
          e.setValue(freshRefs == null ? hotOrWide(cold) : new Boxed(cold, freshRefs.clone()));
        } else {
          layout.revisionOf(v, next);
          if (s == v) {
            e.setValue(hotOrWide(v));
          }
          if (report == null) {
            report = ContextTransferReport.retainedAll(source);
          }
        }
        continue;
      }
      DataflowMonitor m = s instanceof Full f ? f.monitor : monitorOf(s, source);
      DataflowMonitor.Transition t;
      if (mapping == null || m.failure() != null) {
        t = DataflowMonitor.coldStart(m, target, options);
      } else if (mapping.retainExact()) {
        t = DataflowMonitor.retainExact(m, target, options);
      } else {
        t = DataflowMonitor.transfer(m, target, mapping, options);
      }
      e.setValue(adopt(t.monitor(), lastSeen(s), target, layout));
      if (report == null && m.failure() == null) {
        report = t.report(); // every healthy key moves the same way
      }
    }
    if (report == null) {
      report = mapping != null && mapping.retainExact() ? ContextTransferReport.retainedAll(target)
          : new ContextTransferReport(List.of(), computed(target), List.of());
    }
    return report;
  }

  private static List<String> names(DataflowProgram p) {
    return p.streams().stream().map(DataflowProgram.StreamDefinition::name).toList();
  }

  private static List<String> computed(DataflowProgram p) {
    List<String> out = new ArrayList<>();
    for (DataflowProgram.StreamDefinition s : p.streams()) {
      if (s.role() != DataflowProgram.Role.INPUT) {
        out.add(s.name());
      }
    }
    return out;
  }

  private static final int STATE_MAGIC = 0x44464b4d; // "DFKM"
  private static final int STATE_VERSION = 1;

  /**
   * Writes every key's state, for a checkpoint of many keys: a compact key as its state vector
   * (a copy of a few longs, no snapshot), any other key as its snapshot (docs/snapshots.md), in
   * first-arrival order. {@link #readState} of a keyed monitor of the same program reads it back
   * exactly, order included. Keys must
   * be {@code String}s, {@code Long}s or {@code Integer}s.
   *
   * @throws IllegalArgumentException for a key of another type
   * @throws io.dataflow.core.snapshot.SnapshotException when a key's state cannot be persisted
   */
  public void writeState(DataOutput out) throws IOException {
    out.writeInt(STATE_MAGIC);
    out.writeInt(STATE_VERSION);
    writeText(out, program.definitionKey());
    writeText(out, layout == null ? "" : layout.shape());
    out.writeInt(revisions.size());
    for (MonitorRevision r : revisions) {
      out.writeLong(r.root());
      out.writeLong(r.properties());
    }
    out.writeInt(keys.size());
    for (Map.Entry<Object, Object> e : keys.entrySet()) {
      writeKey(out, e.getKey());
      Object s = e.getValue();
      if (s instanceof long[] h) {
        // checkpoints hold the wide format only: a hot key widened into a scratch array
        long[] v = h.length == hotLength ? kernel.widen(h, wideScratch()) : h;
        out.writeByte(0);
        out.writeInt(v.length);
        writeVector(out, v);
      } else {
        byte[] snapshot = snapshotOf(s).toBytes();
        out.writeByte(1);
        out.writeInt(snapshot.length);
        out.write(snapshot);
      }
    }
  }

  /**
   * Adds the keys of a {@link #writeState} to this keyed monitor (replacing keys of the same
   * name, which keep their place; new keys arrive in the order written), each as if its last
   * tick was at {@code nowNanos} (for idle expiry). Vectors are read only by a keyed monitor of
   * the program that wrote them (the same definition key and layout); snapshots follow the
   * rules of {@link #restore}.
   *
   * @throws io.dataflow.core.snapshot.SnapshotException when the state is damaged, of another
   *     format, or holds vectors of another program; keys read before the problem stay
   */
  public void readState(DataInput in, long nowNanos) throws IOException {
    if (in.readInt() != STATE_MAGIC) {
      throw new io.dataflow.core.snapshot.SnapshotException("not a keyed monitor's state (bad"
          + " magic)");
    }
    int version = in.readInt();
    if (version != STATE_VERSION) {
      throw new io.dataflow.core.snapshot.SnapshotException("keyed state version " + version
          + " is not supported (this library reads version " + STATE_VERSION + ")");
    }
    String definitionKey = readText(in);
    String shape = readText(in);
    boolean vectorsFit = layout != null && definitionKey.equals(program.definitionKey())
        && shape.equals(layout.shape());
    int[] revisionMap = new int[in.readInt()];
    for (int i = 0; i < revisionMap.length; i++) {
      revisionMap[i] = intern(new MonitorRevision(in.readLong(), in.readLong()));
    }
    int n = in.readInt();
    for (int i = 0; i < n; i++) {
      Object key = readKey(in);
      byte kind = in.readByte();
      int length = in.readInt();
      if (length < 0) {
        throw new io.dataflow.core.snapshot.SnapshotException("key " + key + ": negative length");
      }
      if (kind == 0) {
        if (!vectorsFit) {
          throw new io.dataflow.core.snapshot.SnapshotException("key " + key + ": the state was"
              + " written by another program or layout; read it with a keyed monitor of that"
              + " program, then reconfigure");
        }
        long[] v = readVector(in, length);
        int r = layout.revisionOf(v);
        if (r < 0 || r >= revisionMap.length) {
          throw new io.dataflow.core.snapshot.SnapshotException("key " + key + ": revision " + r
              + " is not in the state's table");
        }
        layout.revisionOf(v, revisionMap[r]);
        v[KeyedLayout.LAST_SEEN] = nowNanos;
        Object old = keys.put(key, hotOrWide(v));
        if (old != null && !(old instanceof Full) && vector(old) == resident) {
          resident = null;
        }
      } else if (kind == 1) {
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        restore(key, MonitorSnapshot.fromBytes(bytes));
        touch(key, nowNanos);
      } else {
        throw new io.dataflow.core.snapshot.SnapshotException("key " + key + ": unknown kind "
            + kind);
      }
    }
  }

  /** DataOutput's order (big-endian) for a vector's elements, many at a time. */
  private static final java.lang.invoke.VarHandle BIG_ENDIAN_LONGS =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class,
          java.nio.ByteOrder.BIG_ENDIAN);
  /** The scratch bytes of {@link #writeVector} and {@link #readVector} (owner thread only). */
  private byte[] vectorBytes = new byte[0];

  /** Writes a vector's elements as {@code writeLong} would: one write per key, not per element. */
  private void writeVector(DataOutput out, long[] v) throws IOException {
    byte[] b = vectorScratch(v.length);
    for (int at = 0; at < v.length; ) {
      int n = Math.min(v.length - at, b.length >>> 3);
      for (int i = 0; i < n; i++) {
        BIG_ENDIAN_LONGS.set(b, i << 3, v[at + i]);
      }
      out.write(b, 0, n << 3);
      at += n;
    }
  }

  private long[] readVector(DataInput in, int length) throws IOException {
    long[] v = new long[length];
    byte[] b = vectorScratch(length);
    for (int at = 0; at < length; ) {
      int n = Math.min(length - at, b.length >>> 3);
      in.readFully(b, 0, n << 3);
      for (int i = 0; i < n; i++) {
        v[at + i] = (long) BIG_ENDIAN_LONGS.get(b, i << 3);
      }
      at += n;
    }
    return v;
  }

  /** The scratch array, for up to 512 elements at a time. */
  private byte[] vectorScratch(int longs) {
    int want = 8 * Math.min(Math.max(longs, 1), 512);
    if (vectorBytes.length < want) {
      vectorBytes = new byte[want];
    }
    return vectorBytes;
  }

  private void touch(Object key, long nowNanos) {
    Object s = keys.get(key);
    if (s instanceof Full f) {
      f.lastSeenNanos = nowNanos;
    } else if (s != null) {
      vector(s)[KeyedLayout.LAST_SEEN] = nowNanos;
    }
  }

  private static void writeText(DataOutput out, String text) throws IOException {
    byte[] b = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  private static String readText(DataInput in) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > (1 << 24)) {
      throw new io.dataflow.core.snapshot.SnapshotException("a text of " + n + " bytes");
    }
    byte[] b = new byte[n];
    in.readFully(b);
    return new String(b, java.nio.charset.StandardCharsets.UTF_8);
  }

  private static void writeKey(DataOutput out, Object key) throws IOException {
    if (key instanceof String s) {
      out.writeByte(0);
      writeText(out, s);
    } else if (key instanceof Long l) {
      out.writeByte(1);
      out.writeLong(l);
    } else if (key instanceof Integer i) {
      out.writeByte(2);
      out.writeInt(i);
    } else {
      throw new IllegalArgumentException("a key of type " + key.getClass().getName()
          + " cannot be written; use a String, a Long or an Integer");
    }
  }

  private static Object readKey(DataInput in) throws IOException {
    byte tag = in.readByte();
    return switch (tag) {
      case 0 -> readText(in);
      case 1 -> in.readLong();
      case 2 -> in.readInt();
      default -> throw new io.dataflow.core.snapshot.SnapshotException("unknown key tag " + tag);
    };
  }

  /** The failure of {@code key}'s monitor, or null. */
  public MonitorException failure(Object key) {
    return keys.get(key) instanceof Full f ? f.monitor.failure() : null;
  }
}
