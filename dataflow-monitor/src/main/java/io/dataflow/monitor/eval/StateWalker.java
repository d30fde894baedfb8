package io.dataflow.monitor.eval;

import io.dataflow.core.Kind;
import io.dataflow.core.Value;
import io.dataflow.core.snapshot.OperatorState;
import io.dataflow.core.snapshot.SnapshotException;
import io.dataflow.core.snapshot.SnapshotReader;
import io.dataflow.core.snapshot.SnapshotWriter;
import io.dataflow.core.snapshot.StreamState;
import io.dataflow.monitor.lang.Ast;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Saves and loads the operator state of one stream's node tree (docs/snapshots.md), for
 * {@code DataflowMonitor.snapshot()} and {@code restore}.
 *
 * <h2>Why a reflective walk</h2>
 * State is spread over some thirty node classes (lifting memories in {@link Slot} fields and
 * arrays, primitive memories the generated code writes back, flags, private rings of delays and
 * bodies). A walk over their fields in a fixed order (superclass first, then by field name)
 * saves every one of them, including those a node type added later, without a hand-written
 * save/load pair per class that could forget a field. It visits, from the stream's root, the
 * objects of this package only, each once: a node's own result slot, its {@code Slot} and
 * {@code Slot[]} fields and its non-final primitive fields are its state ({@link OperatorState}
 * of kind = the class name); {@code Node}, {@code Node[]}, lists and other objects of this
 * package are descended into. Three things are not plain fields and are handled here:
 * <ul>
 *   <li>a {@link HistoryRing} of a delay or a body is state, a stream's own ring is not (the
 *       cell's history is saved with the cell);
 *   <li>a lambda call site instantiates bodies lazily: kind {@code CallSite} lists them by
 *       lambda, and loading instantiates them before their state is loaded;
 *   <li>a {@code dynamic}/{@code defer} node's active body: kind {@code Body} holds its text,
 *       and loading recompiles it before the body's state is loaded.
 * </ul>
 * A function value (a closure) in state is saved as {@code List[lambda index, Map of captured
 * values]} and its position is noted in the kind ({@code Strict;f=0}), so it cannot be confused
 * with a list; a closure of a lambda written inside a dynamic body, or one that captured another
 * function, cannot be persisted and throws a {@link SnapshotException} naming the stream.
 * Loading checks every kind and count and throws a {@link SnapshotException} on a mismatch.
 *
 * <p>State marked {@link Derived} (a tick's scratch values, configuration the builder sets, a
 * node's own result that every evaluation rewrites before it is read, a constant) is left out
 * since format version 4, and an operator with nothing else is left out altogether: a restore
 * keeps what the freshly built node holds. Loading a snapshot of versions 1 to 3 walks their
 * layout, with these values, and drops them.
 *
 * <p>A tree built from a {@link NodeRecipe} is walked reflectively once; the walk is then kept
 * flattened on the recipe ({@link WalkPlan}) and later walks of that recipe's trees follow it:
 * the same objects in the same order, saved and loaded by the same per-class code, without the
 * class look-ups, the visited set and the reads of fields that lead to no state
 * (docs/decisions.md, "Snapshot walks follow a per-recipe plan").
 *
 * <p>The fields a class plan saves and loads and a walk plan's {@code via} fields are read and
 * written through {@link FieldAccess}: by their offsets with {@code Unsafe} where the JVM and
 * the field allow, else by reflection, with the same values either way (docs/decisions.md,
 * "The snapshot walk reads and writes fields by their offsets").
 */
public final class StateWalker {
  private static final Map<Class<?>, List<Field>> STATE = new ConcurrentHashMap<>();
  private static final Map<Class<?>, List<Field>> CHILDREN = new ConcurrentHashMap<>();
  private static final String PACKAGE = StateWalker.class.getPackageName();
  /** The first format version whose operator state leaves {@link Derived} state out. */
  public static final int COMPACT_SINCE = 4;

  private final Evaluator evaluator;
  private final String stream;
  /** The scratch's visited set, cleared for this walk when it first needs it (see seen()). */
  private Visited seen;
  private final Scratch scratch;
  private final List<OperatorState> saved;
  private final Iterator<OperatorState> loading;
  /**
   * Per stream name, the lambdas of its equation in source order (what closures name): found
   * when a closure is met, not for every stream walked (an AST walk over every equation).
   */
  private Map<String, List<Ast.Lambda>> lambdas;
  /** Loading into another program than the one saved (bodies may then restart). */
  private boolean transferred;
  /**
   * Without {@link Derived} state (saving, and loading format version 4 on); loading a
   * snapshot of versions 1 to 3, whose operators carry it, reads and drops it.
   */
  private boolean compact = true;

  private StateWalker(Evaluator evaluator, String stream, List<OperatorState> load,
      Scratch scratch) {
    this.evaluator = evaluator;
    this.stream = stream;
    this.saved = load == null ? new ArrayList<>() : null;
    this.loading = load == null ? null : load.iterator();
    this.scratch = scratch;
  }

  /**
   * The visited set of one walk, reused by the walks of one snapshot or restore (one per
   * stream: a set allocated per stream was about 3% of a 100-stream round trip). Not shared
   * between threads; holds nothing between walks that a walk reads.
   */
  public static final class Scratch {
    private static final Object[] NO_OBJECTS = new Object[0];

    Visited visited() {
      if (visited == null) {
        visited = new Visited();
      }
      return visited;
    }

    /** Allocated on the first reflective walk (a walk by a plan needs none). */
    private Visited visited;
    /** The objects of a {@link WalkPlan} replay, by entry (grown as needed, cleared after). */
    Object[] objects = NO_OBJECTS;
    /** Replays that are off ({@code false}: every walk is the reflective one; for tests). */
    boolean plans = true;
    /** A restore's samples read before they are pushed oldest first (grown as needed). */
    private Samples samples;

    Samples samples(int n) {
      Samples s = samples;
      if (s == null || s.tags.length < n) {
        s = samples = new Samples(Math.max(n, 8));
      }
      return s;
    }

    /** Samples as their parts. */
    static final class Samples {
      final byte[] tags;
      final long[] bits;
      final Object[] refs;

      Samples(int n) {
        tags = new byte[n];
        bits = new long[n];
        refs = new Object[n];
      }
    }
  }

  /**
   * A scratch whose walks never follow a {@link WalkPlan}: every walk is the reflective one
   * (for the tests that compare the two).
   */
  public static Scratch withoutPlans() {
    Scratch s = new Scratch();
    s.plans = false;
    return s;
  }

  /**
   * Whether the walks of this cell's tree follow a flattened plan (found on its first walk,
   * so after one; for tests).
   */
  public static boolean followsPlan(StreamCell cell) {
    NodeRecipe r = cell.rootRecipe;
    return r != null && cell.root != null && r.walkPlan != null && r.walkPlan != UNPLANNABLE;
  }

  /**
   * A stream's walk flattened, once per top-level {@link NodeRecipe}: every object the walk
   * ({@link #visit}) enters, in its order, as where it is found (the field of an earlier entry,
   * or an element of an earlier entry that is an array), its class, and what the walk does
   * there (save or load its fields, or a private ring's samples). A tree made by the recipe has
   * the same objects in the same places (a recipe's trees differ only in their fresh slots,
   * rings and the cells they read, and the fields holding them are final), so a walk of it is a
   * loop over the entries: no class plan looked up, no visited set, no field read for objects
   * without state. Only trees of plain equations have a recipe: no list, call site, lambda or
   * dynamic body. Every entry's object is found and its class checked before any state moves;
   * a difference (which a recipe's tree cannot have) falls back to the reflective walk.
   */
  static final class WalkPlan {
    static final byte NOTHING = 0;
    static final byte FIELDS = 1;
    static final byte RING = 2;
    /** A stream's own ring (no state of the tree's): the replay checks that it still is. */
    static final byte CELL_RING = 3;

    /** Per entry: the entry it is found in, -1 for the root. */
    final int[] parent;
    /**
     * Per entry: the field of the parent holding it, or null: element {@link #element} (read by
     * its offset where it can be: {@link FieldAccess}).
     */
    final FieldAccess[] via;
    final int[] element;
    final Class<?>[] type;
    /** Per entry: the class plan (null for an array). */
    final Plan[] plans;
    final byte[] action;

    /** How many operators a snapshot (compact layout) writes for a tree of this plan. */
    final int operators;
    /**
     * Set when a snapshot's one-pass writing met a function in a slot of a tree of this plan:
     * the trees of this plan are then written from their records (racy, benign).
     */
    boolean metFunction;

    WalkPlan(int[] parent, FieldAccess[] via, int[] element, Class<?>[] type, Plan[] plans,
        byte[] action) {
      this.parent = parent;
      this.via = via;
      this.element = element;
      this.type = type;
      this.plans = plans;
      this.action = action;
      int ops = 0;
      for (int i = 0; i < action.length; i++) {
        if (action[i] == FIELDS && (plans[i].ownSlotKept || plans[i].kept.length > 0)
            || action[i] == RING) {
          ops++;
        }
      }
      this.operators = ops;
    }

    int size() {
      return parent.length;
    }
  }

  /** A tree the walk cannot flatten (a list, a call site, a dynamic body, a non-final field). */
  private static final WalkPlan UNPLANNABLE = new WalkPlan(new int[0], new FieldAccess[0],
      new int[0], new Class<?>[0], new Plan[0], new byte[0]);

  /** The flattened walk of the cell's tree, found on its first walk; null when it has none. */
  static WalkPlan walkPlan(StreamCell cell, Scratch scratch) {
    NodeRecipe recipe = cell.rootRecipe;
    if (recipe == null || cell.root == null || !scratch.plans) {
      return null;
    }
    WalkPlan p = recipe.walkPlan;
    if (p == null) {
      p = flatten(cell.root);
      recipe.walkPlan = p; // immutable (final fields): a racing reader sees it whole
    }
    return p == UNPLANNABLE ? null : p;
  }

  /** {@link #visit}'s order over a tree, without moving state (see {@link WalkPlan}). */
  static WalkPlan flatten(Object root) {
    Flattener f = new Flattener();
    try {
      f.enter(root, -1, null, -1);
    } catch (Unplannable u) {
      return UNPLANNABLE;
    }
    int n = f.parent.size();
    int[] parent = new int[n];
    int[] element = new int[n];
    byte[] action = new byte[n];
    for (int i = 0; i < n; i++) {
      parent[i] = f.parent.get(i);
      element[i] = f.element.get(i);
      action[i] = f.action.get(i);
    }
    FieldAccess[] via = new FieldAccess[n];
    for (int i = 0; i < n; i++) {
      Field field = f.via.get(i);
      via[i] = field == null ? null : FieldAccess.of(field);
    }
    return new WalkPlan(parent, via, element,
        f.type.toArray(new Class<?>[0]), f.plans.toArray(new Plan[0]), action);
  }

  private static final class Unplannable extends RuntimeException {
    Unplannable() {
      super(null, null, false, false);
    }
  }

  private static final class Flattener {
    final List<Integer> parent = new ArrayList<>();
    final List<Field> via = new ArrayList<>();
    final List<Integer> element = new ArrayList<>();
    final List<Class<?>> type = new ArrayList<>();
    final List<Plan> plans = new ArrayList<>();
    final List<Byte> action = new ArrayList<>();
    final Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());

    void enter(Object o, int from, Field field, int index) {
      // The same tests, in the same order, as visit.
      if (o == null || o instanceof StreamCell || o instanceof Functions.LambdaNode) {
        return;
      }
      if (o instanceof List<?> || o instanceof Functions.CallSite || o instanceof DynamicNode
          || o instanceof Functions.Instance) {
        throw new Unplannable();
      }
      Plan plan = null;
      if (!(o instanceof Object[])) {
        plan = plan(o.getClass());
        if (plan.ignored) {
          return;
        }
      }
      if (!seen.add(o)) {
        return;
      }
      int at = parent.size();
      parent.add(from);
      via.add(field);
      element.add(index);
      type.add(o.getClass());
      plans.add(plan);
      if (o instanceof Object[] array) {
        action.add(WalkPlan.NOTHING);
        for (int i = 0; i < array.length; i++) {
          enter(array[i], at, null, i);
        }
        return;
      }
      if (o instanceof HistoryRing ring) {
        action.add(ring.ofCell ? WalkPlan.CELL_RING : WalkPlan.RING);
        return;
      }
      action.add(plan.ownSlot || plan.state.length > 0 ? WalkPlan.FIELDS : WalkPlan.NOTHING);
      for (Field f : plan.children) {
        Object child = get(f, o);
        if (!Modifier.isFinal(f.getModifiers())
            && !(child instanceof HistoryRing r && r.ofCell && !seen.contains(r))) {
          // A field that may point elsewhere later: only a history read's stream ring (no
          // state of the tree's, and the replay checks that it still is one).
          throw new Unplannable();
        }
        enter(child, at, f, -1);
      }
    }
  }

  /**
   * Walks the tree rooted at {@code root} by its plan: finds every entry's object (false, with
   * nothing moved, when one is not where the plan has it), then saves or loads their state in
   * the walk's order.
   */
  private boolean replay(WalkPlan p, Object root, Scratch scratch) {
    int n = p.size();
    Object[] objects = null;
    try {
      if (!resolve(p, root, scratch)) {
        return false;
      }
      objects = scratch.objects;
      for (int i = 0; i < n; i++) {
        byte action = p.action[i];
        if (action == WalkPlan.FIELDS) {
          Plan plan = p.plans[i];
          if (compact ? plan.ownSlotKept || plan.kept.length > 0
              : plan.ownSlot || plan.state.length > 0) {
            fields(objects[i], plan);
          }
        } else if (action == WalkPlan.RING) {
          ring((HistoryRing) objects[i]);
        }
      }
      return true;
    } finally {
      if (objects != null) {
        java.util.Arrays.fill(objects, 0, n, null);
      }
    }
  }

  /**
   * Entry {@code i}'s object, found in its parent (already in {@code objects}) by its field or
   * array element, or null when it is missing or not of the class the plan expects.
   */
  private static Object entry(WalkPlan p, int i, Object root, Object[] objects) {
    Object o;
    if (i == 0) {
      o = root;
    } else {
      Object from = objects[p.parent[i]];
      FieldAccess f = p.via[i];
      if (f != null) {
        o = f.get(from); // from's class is checked: the field is one of its own
      } else {
        Object[] array = (Object[]) from;
        int k = p.element[i];
        o = k < array.length ? array[k] : null;
      }
    }
    return o == null || o.getClass() != p.type[i] ? null : o;
  }

  /**
   * Finds every entry's object of the plan into the scratch's objects (the caller clears
   * them), checking classes and rings; false, with the objects cleared, when one is not where
   * the plan has it.
   */
  static boolean resolve(WalkPlan p, Object root, Scratch scratch) {
    int n = p.size();
    if (scratch.objects.length < n) {
      scratch.objects = new Object[Math.max(n, Math.max(16, 2 * scratch.objects.length))];
    }
    Object[] objects = scratch.objects;
    boolean found = false;
    try {
      for (int i = 0; i < n; i++) {
        Object o = entry(p, i, root, objects);
        if (o == null) {
          return false;
        }
        byte action = p.action[i];
        if ((action == WalkPlan.RING || action == WalkPlan.CELL_RING)
            && ((HistoryRing) o).ofCell != (action == WalkPlan.CELL_RING)) {
          return false;
        }
        objects[i] = o;
      }
      found = true;
      return true;
    } finally {
      if (!found) {
        java.util.Arrays.fill(objects, 0, n, null);
      }
    }
  }

  /** The operator state of a computed stream's node tree (empty for an input). */
  public static List<OperatorState> save(Evaluator evaluator, StreamCell cell) {
    return save(evaluator, cell, new Scratch());
  }

  private static List<OperatorState> save(Evaluator evaluator, StreamCell cell,
      Scratch scratch) {
    StateWalker w = new StateWalker(evaluator, cell.name, null, scratch);
    WalkPlan p = walkPlan(cell, scratch);
    if (p == null || !w.replay(p, cell.root, scratch)) {
      w.visit(cell.root);
    }
    return w.saved; // copied by the StreamState that holds it
  }

  /**
   * Loads {@link #save saved} operator state into a stream's freshly built node tree.
   *
   * @throws SnapshotException when the state does not fit the tree
   */
  public static void load(Evaluator evaluator, StreamCell cell, List<OperatorState> state,
      boolean transferred, int formatVersion) {
    load(evaluator, cell, state, transferred, formatVersion, new Scratch());
  }

  private static void load(Evaluator evaluator, StreamCell cell, List<OperatorState> state,
      boolean transferred, int formatVersion, Scratch scratch) {
    StateWalker w = new StateWalker(evaluator, cell.name, state, scratch);
    w.transferred = transferred;
    w.compact = formatVersion >= COMPACT_SINCE;
    WalkPlan p = walkPlan(cell, scratch);
    try {
      if (p == null || !w.replay(p, cell.root, scratch)) {
        w.visit(cell.root);
      }
    } catch (EvalError e) {
      throw w.mismatch("a dynamic body does not compile: " + e.getMessage());
    }
    if (w.loading.hasNext()) {
      throw w.mismatch("more operator state than the stream has operators");
    }
  }

  /**
   * A stream's whole state: its cell, history and operators. When the cell's value or the
   * run's last present value is a function, both are NoVal in the record and the operators
   * start with kind {@code Cell} holding the two.
   */
  public static StreamState saveStream(Evaluator evaluator, StreamCell cell, String role,
      String declaredType, String fingerprint) {
    return saveStream(evaluator, cell, role, declaredType, fingerprint, new Scratch());
  }

  /** {@link #saveStream(Evaluator, StreamCell, String, String, String)} reusing a scratch. */
  public static StreamState saveStream(Evaluator evaluator, StreamCell cell, String role,
      String declaredType, String fingerprint, Scratch scratch) {
    List<OperatorState> ops = List.of();
    // The held value as it is: read only while the cell is NoVal, and kept only where a reader
    // exists (inputs, dynamic programs); saving it raw keeps a restored monitor identical.
    Slot present = cell.heldOrNoVal();
    Value current;
    Value last;
    if (cell.tag == Kind.FUNCTION || present.tag == Kind.FUNCTION) {
      StateWalker w = new StateWalker(evaluator, cell.name, null, scratch);
      List<Value> values = new ArrayList<>();
      List<Integer> functions = new ArrayList<>();
      w.addSlot(cell, values, functions);
      w.addSlot(present, values, functions);
      ops = new ArrayList<>();
      ops.add(new OperatorState("Cell;f=" + String.join(",",
          functions.stream().map(String::valueOf).toList()), values));
      current = Value.NOVAL;
      last = Value.NOVAL;
    } else {
      current = cell.toValue();
      last = present.toValue();
    }
    int depth = cell.ring == null ? 0 : cell.ring.depth();
    List<Value> history = cell.ring == null ? List.of() : history(cell.ring, cell.name);
    if (cell.root != null) {
      ops = ops.isEmpty() ? save(evaluator, cell, scratch)
          : concat(ops, save(evaluator, cell, scratch));
    }
    return new StreamState(cell.name, role, declaredType, fingerprint, current, last, depth,
        history, ops);
  }

  /**
   * Writes a stream's whole state, as {@link #saveStream} saves it, straight into a snapshot's
   * bytes: by the tree's {@link WalkPlan}, from its slots and fields, without the records and
   * boxed values (docs/decisions.md, "A monitor's snapshot is written straight into its
   * bytes"), in one pass that finds each entry's object, checks it and writes it (each slot
   * read once). A stream the plan does not cover (no plan, a function in its cell or history)
   * is saved into its record and written from it: the same bytes.
   *
   * @return false when the one pass met what it cannot write after it had written part of the
   *     stream (a function in a slot of the tree, a tree that differs from its plan): the
   *     caller then writes the whole snapshot again from the records ({@link #saveStream}),
   *     and the plan remembers a function, so that its trees are written from their records
   */
  public static boolean writeStream(Evaluator evaluator, StreamCell cell, String role,
      String declaredType, String fingerprint, Scratch scratch, SnapshotWriter out) {
    int written = writeDirect(cell, role, declaredType, fingerprint, scratch, out);
    if (written == NOT_WRITTEN) {
      out.stream(saveStream(evaluator, cell, role, declaredType, fingerprint, scratch));
    }
    return written != PART_WRITTEN;
  }

  private static final int WRITTEN = 0;
  private static final int NOT_WRITTEN = 1;
  private static final int PART_WRITTEN = 2;

  /** {@link #writeStream} by the plan, in one pass over its entries. */
  private static int writeDirect(StreamCell cell, String role, String declaredType,
      String fingerprint, Scratch scratch, SnapshotWriter out) {
    Slot present = cell.heldOrNoVal();
    HistoryRing history = cell.ring;
    if (cell.tag == Kind.FUNCTION || present.tag == Kind.FUNCTION
        || (history != null && holdsFunction(history))) {
      return NOT_WRITTEN;
    }
    WalkPlan p = null;
    int n = 0;
    int ops = 0;
    if (cell.root != null) {
      p = walkPlan(cell, scratch);
      if (p == null || p.metFunction) {
        return NOT_WRITTEN;
      }
      n = p.size();
      ops = p.operators;
    }
    int depth = history == null ? 0 : history.depth();
    boolean lastPresent = present.tag != Kind.NOVAL;
    boolean state = depth > 0 || ops > 0;
    out.beginStream(cell.name, role, declaredType, fingerprint, lastPresent, state);
    out.value(cell.tag, cell.bits, cell.ref);
    if (lastPresent) {
      out.value(present.tag, present.bits, present.ref);
    }
    if (!state) {
      return WRITTEN;
    }
    if (history == null) {
      out.history(depth, 0);
    } else {
      out.history(depth, history.size());
      samples(history, out);
    }
    out.count(ops);
    if (n == 0) {
      return WRITTEN;
    }
    if (scratch.objects.length < n) {
      scratch.objects = new Object[Math.max(n, Math.max(16, 2 * scratch.objects.length))];
    }
    Object[] objects = scratch.objects;
    Object root = cell.root;
    try {
      for (int i = 0; i < n; i++) {
        Object o = entry(p, i, root, objects);
        if (o == null) {
          return PART_WRITTEN;
        }
        objects[i] = o;
        byte action = p.action[i];
        if (action == WalkPlan.FIELDS) {
          Plan plan = p.plans[i];
          if ((plan.ownSlotKept || plan.kept.length > 0) && !writeFields(o, plan, out)) {
            p.metFunction = true;
            return PART_WRITTEN;
          }
        } else if (action == WalkPlan.RING || action == WalkPlan.CELL_RING) {
          HistoryRing ring = (HistoryRing) o;
          if (ring.ofCell != (action == WalkPlan.CELL_RING)) {
            return PART_WRITTEN;
          }
          if (action == WalkPlan.RING) {
            if (holdsFunction(ring)) {
              p.metFunction = true;
              return PART_WRITTEN;
            }
            out.operator("Ring", 1 + ring.size());
            out.intValue(ring.depth());
            for (int ago = 1; ago <= ring.size(); ago++) {
              int k = ring.head - (ago - 1);
              k = k < 0 ? k + ring.tags.length : k;
              out.value(ring.tags[k], ring.bits[k], ring.refAt(k));
            }
          }
        }
      }
      return WRITTEN;
    } finally {
      java.util.Arrays.fill(objects, 0, n, null);
    }
  }

  /** A ring's samples, newest first. */
  private static void samples(HistoryRing ring, SnapshotWriter out) {
    int size = ring.size();
    for (int ago = 1; ago <= size; ago++) {
      int k = ring.head - (ago - 1);
      k = k < 0 ? k + ring.tags.length : k;
      out.value(ring.tags[k], ring.bits[k], ring.refAt(k));
    }
  }

  private static boolean holdsFunction(HistoryRing ring) {
    for (int ago = 1; ago <= ring.size(); ago++) {
      int k = ring.head - (ago - 1);
      if (ring.tags[k < 0 ? k + ring.tags.length : k] == Kind.FUNCTION) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@link #fields}' saving of the compact layout, written; false when a slot holds a function
   * (what the records write), with part of the operator written.
   */
  private static boolean writeFields(Object o, Plan plan, SnapshotWriter out) {
    FieldAccess[] state = plan.keptAccess;
    byte[] types = plan.keptTypes;
    out.operator(plan.kind, Plan.size(o, state, types, plan.ownSlotKept));
    if (plan.ownSlotKept) {
      Slot s = (Slot) o;
      if (s.tag == Kind.FUNCTION) {
        return false;
      }
      out.value(s.tag, s.bits, s.ref);
    }
    for (int i = 0; i < state.length; i++) {
      FieldAccess f = state[i];
      switch (types[i]) {
        case Plan.SLOT -> {
          Slot s = (Slot) f.get(o);
          if (s.tag == Kind.FUNCTION) {
            return false;
          }
          out.value(s.tag, s.bits, s.ref);
        }
        case Plan.SLOTS -> {
          Slot[] slots = (Slot[]) f.get(o);
          out.intValue(slots.length);
          for (Slot s : slots) {
            if (s.tag == Kind.FUNCTION) {
              return false;
            }
            out.value(s.tag, s.bits, s.ref);
          }
        }
        case Plan.BOOLEAN -> out.value(Kind.BOOL, f.getBoolean(o) ? 1 : 0, null);
        case Plan.DOUBLE -> out.intValue(Double.doubleToRawLongBits(f.getDouble(o)));
        case Plan.FLOAT -> out.intValue(java.lang.Float.floatToRawIntBits(f.getFloat(o)));
        default -> out.intValue(f.getLong(o));
      }
    }
    return true;
  }

  /**
   * Loads a stream's state into a freshly built evaluator's cell as a state transfer would move
   * it ({@code Evaluator.adopt}): the history when {@code keepHistory} (resized, newest kept);
   * the value and the run's last present value when the history moves and the stream is an
   * input or keeps its state; the operators when {@code keepState}. With {@code transferred}
   * (another program), kept dynamic nodes revalidate their body as after a live transfer.
   *
   * @return whether a non-empty history moved
   * @throws SnapshotException when the state does not fit the stream's operators
   */
  public static boolean loadStream(Evaluator evaluator, StreamCell cell, StreamState state,
      boolean keepState, boolean keepHistory, boolean transferred, int formatVersion) {
    return loadStream(evaluator, cell, state, keepState, keepHistory, transferred,
        formatVersion, new Scratch());
  }

  /** {@link #loadStream(Evaluator, StreamCell, StreamState, boolean, boolean, boolean, int)}
   * reusing a scratch. */
  public static boolean loadStream(Evaluator evaluator, StreamCell cell, StreamState state,
      boolean keepState, boolean keepHistory, boolean transferred, int formatVersion,
      Scratch scratch) {
    List<OperatorState> ops = state.operators();
    Slot current = new Slot();
    Slot present = new Slot();
    current.setValue(state.current());
    present.setValue(state.lastPresent());
    if (!ops.isEmpty() && ops.get(0).kind().startsWith("Cell")) {
      StateWalker w = new StateWalker(evaluator, cell.name, ops.subList(0, 1), scratch);
      OperatorState op = w.next("Cell");
      Set<Integer> functions = w.functionPositions(op.kind());
      Iterator<Value> values = op.values().iterator();
      int[] at = {0};
      try {
        w.loadSlot(current, values, at, functions);
        w.loadSlot(present, values, at, functions);
      } catch (java.util.NoSuchElementException | io.dataflow.core.ValueTypeException e) {
        throw w.mismatch("a cell's state is its value and its last present value");
      }
      ops = ops.subList(1, ops.size());
    }
    boolean input = cell.root == null;
    boolean moved = false;
    if (cell.ring != null && keepHistory) {
      loadHistory(cell.ring, state.history());
      moved = cell.ring.size() > 0;
    }
    if (keepHistory && (input || keepState)) {
      cell.restore(current, present);
    }
    if (keepState && !input) {
      load(evaluator, cell, ops, transferred, formatVersion, scratch);
      if (transferred) {
        for (Committable kept : cell.commits) {
          if (kept instanceof DynamicNode d) {
            d.transferred();
          }
        }
      }
    }
    return moved;
  }

  /** {@link #loadDirect}: the stream was loaded. */
  public static final int LOADED = 0;
  /** {@link #loadDirect}: the stream's tree has no walk plan (it never will). */
  public static final int NO_PLAN = 1;
  /** {@link #loadDirect}: the bytes are not what the plan expects (the records say why). */
  public static final int MISFIT = 2;

  /**
   * Loads a stream's state from a snapshot's bytes into a freshly built evaluator's cell, as
   * {@link #loadStream} loads its record into the same program (history, value, last present
   * value and operators; format version 5), by the tree's {@link WalkPlan}, without the records
   * (docs/decisions.md, "A restore into the same program reads the snapshot's bytes into the
   * slots"). The reader stands after the stream's head ({@code SnapshotReader.stream}).
   *
   * @return {@link #LOADED}; {@link #NO_PLAN} or {@link #MISFIT} when the stream cannot be
   *     loaded this way, with part of it maybe loaded: the caller drops the monitor and
   *     restores from the records, which load the stream or say why it does not fit
   */
  public static int loadDirect(StreamCell cell, SnapshotReader in, Scratch scratch) {
    WalkPlan p = null;
    int n = 0;
    if (cell.root != null) {
      p = walkPlan(cell, scratch);
      if (p == null) {
        return NO_PLAN;
      }
      if (!resolve(p, cell.root, scratch)) {
        return MISFIT;
      }
      n = p.size();
    }
    Object[] objects = scratch.objects;
    try {
      in.value();
      byte tag = in.tag();
      long bits = in.bits();
      Object ref = in.ref();
      byte presentTag = Kind.NOVAL;
      long presentBits = 0;
      Object presentRef = null;
      if (in.hasLastPresent()) {
        in.value();
        presentTag = in.tag();
        presentBits = in.bits();
        presentRef = in.ref();
      }
      cell.restoreRaw(tag, bits, ref, presentTag, presentBits, presentRef);
      int ops = 0;
      HistoryRing history = cell.ring;
      if (in.hasState()) {
        int samples = in.history(); // the depth is not used: the program's ring keeps its own
        if (history != null) {
          samples(history, samples, history.depth(), in, scratch);
        } else {
          for (int i = 0; i < samples; i++) {
            in.value();
          }
        }
        ops = in.count();
      } else if (history != null) {
        history.clear();
      }
      for (int i = 0; i < n; i++) {
        byte action = p.action[i];
        if (action == WalkPlan.FIELDS) {
          Plan plan = p.plans[i];
          if (plan.ownSlotKept || plan.kept.length > 0) {
            if (ops-- == 0 || !loadFields(objects[i], plan, in)) {
              return MISFIT;
            }
          }
        } else if (action == WalkPlan.RING) {
          if (ops-- == 0 || !loadRing((HistoryRing) objects[i], in, scratch)) {
            return MISFIT;
          }
        }
      }
      return ops == 0 ? LOADED : MISFIT;
    } finally {
      java.util.Arrays.fill(objects, 0, n, null);
    }
  }

  /**
   * {@code count} samples (newest first) read into a ring as {@link #loadHistory} loads them:
   * cleared, the newest {@code keep} kept.
   */
  private static void samples(HistoryRing ring, int count, int keep, SnapshotReader in,
      Scratch scratch) {
    ring.clear();
    if (count == 1) { // the usual history read: one sample, nothing to reverse
      in.value();
      if (keep > 0) {
        ring.pushRaw(in.tag(), in.bits(), in.ref());
      }
      return;
    }
    Scratch.Samples s = scratch.samples(count);
    for (int i = 0; i < count; i++) {
      in.value();
      s.tags[i] = in.tag();
      s.bits[i] = in.bits();
      s.refs[i] = in.ref();
    }
    for (int i = Math.min(count, keep) - 1; i >= 0; i--) {
      ring.pushRaw(s.tags[i], s.bits[i], s.refs[i]);
    }
    java.util.Arrays.fill(s.refs, 0, count, null);
  }

  /** A private ring's operator ({@link #ring}'s loading); false when it does not fit. */
  private static boolean loadRing(HistoryRing ring, SnapshotReader in, Scratch scratch) {
    if (in.kind() != "Ring") { // interned: the kind table's literal
      return false;
    }
    int count = in.valueCount();
    if (count == 0) {
      return false;
    }
    in.value();
    if (in.tag() != Kind.INT || in.bits() != ring.depth() || count - 1 > ring.depth()) {
      return false;
    }
    samples(ring, count - 1, count - 1, in, scratch);
    return true;
  }

  /**
   * {@link #fields}' loading of the compact layout into {@code o}; false when the operator's
   * kind, value count or a value's kind does not fit.
   */
  private static boolean loadFields(Object o, Plan plan, SnapshotReader in) {
    FieldAccess[] state = plan.keptAccess;
    byte[] types = plan.keptTypes;
    String kind = in.kind();
    if (kind != plan.kind && (kind == null || !kind.equals(plan.kind))) {
      return false;
    }
    if (in.valueCount() != Plan.size(o, state, types, plan.ownSlotKept)) {
      return false;
    }
    if (plan.ownSlotKept) {
      in.value();
      ((Slot) o).setRaw(in.tag(), in.bits(), in.ref());
    }
    for (int i = 0; i < state.length; i++) {
      FieldAccess f = state[i];
      switch (types[i]) {
        case Plan.SLOT -> {
          in.value();
          ((Slot) f.get(o)).setRaw(in.tag(), in.bits(), in.ref());
        }
        case Plan.SLOTS -> {
          Slot[] slots = (Slot[]) f.get(o);
          in.value();
          if (in.tag() != Kind.INT || in.bits() != slots.length) {
            return false;
          }
          for (Slot s : slots) {
            in.value();
            s.setRaw(in.tag(), in.bits(), in.ref());
          }
        }
        default -> {
          in.value();
          if (f.isBoolean()) {
            if (in.tag() != Kind.BOOL) {
              return false;
            }
            f.setPrimitive(o, in.bits() != 0, 0);
          } else {
            if (in.tag() != Kind.INT) {
              return false;
            }
            try {
              f.setPrimitive(o, false, in.bits());
            } catch (ArithmeticException e) {
              return false;
            }
          }
        }
      }
    }
    return true;
  }

  private static List<OperatorState> concat(List<OperatorState> a, List<OperatorState> b) {
    a.addAll(b);
    return a;
  }

  /** The value of a slot as a snapshot value; a function is an error (cells, histories). */
  public static Value plainValue(Slot s, String stream) {
    if (s.tag == Kind.FUNCTION) {
      throw new SnapshotException("stream '" + stream + "' holds a function value, which "
          + "cannot be persisted");
    }
    return s.toValue();
  }

  // ---- the walk ----

  /** This walk's visited set: the scratch's, cleared when this walk first asks for it. */
  private Visited seen() {
    if (seen == null) {
      seen = scratch.visited().cleared();
    }
    return seen;
  }

  private void visit(Object o) {
    if (o == null || o instanceof StreamCell || o instanceof Functions.LambdaNode) {
      return;
    }
    Plan plan = null;
    if (!(o instanceof Object[]) && !(o instanceof List<?>)) {
      plan = plan(o.getClass());
      if (plan.ignored) {
        return; // holds no state: not worth a place among the visited
      }
    }
    if (!seen().add(o)) {
      return;
    }
    if (o instanceof Object[] array) {
      for (Object e : array) {
        visit(e);
      }
      return;
    }
    if (o instanceof List<?> list) {
      for (Object e : list.toArray()) {
        visit(e);
      }
      return;
    }
    if (o instanceof HistoryRing ring) {
      if (!ring.ofCell) {
        ring(ring);
      }
      return;
    }
    if (o instanceof Functions.CallSite site) {
      callSite(site);
      return;
    }
    if (o instanceof DynamicNode d) {
      body(d); // its active body first (see body)
    }
    if (compact ? plan.ownSlotKept || plan.kept.length > 0
        : plan.ownSlot || plan.state.length > 0) {
      fields(o, plan);
    }
    for (Field f : plan.children) {
      visit(get(f, o));
    }
    if (o instanceof DynamicNode d && loading != null) {
      d.restored();
    }
  }

  /** Objects of this package that hold no state of the stream (shared, or configuration). */
  static boolean skipped(Object o) {
    for (Class<?> k : SKIPPED) {
      if (k.isInstance(o)) {
        return true;
      }
    }
    return false;
  }

  private void fields(Object o, Plan plan) {
    FieldAccess[] state = compact ? plan.keptAccess : plan.stateAccess;
    byte[] types = compact ? plan.keptTypes : plan.types;
    boolean ownSlot = compact ? plan.ownSlotKept : plan.ownSlot;
    String kind = plan.kind;
    if (saved != null) {
      Value[] values = new Value[plan.size(o, state, types, ownSlot)];
      int n = 0;
      List<Integer> functions = null;
      if (ownSlot) {
        Slot s = (Slot) o;
        if (s.tag == Kind.FUNCTION) {
          functions = addFunction(functions, n);
        }
        values[n++] = slotValue(s);
      }
      for (int i = 0; i < state.length; i++) {
        FieldAccess f = state[i];
        switch (types[i]) {
          case Plan.SLOT -> {
            Slot s = (Slot) f.get(o);
            if (s.tag == Kind.FUNCTION) {
              functions = addFunction(functions, n);
            }
            values[n++] = slotValue(s);
          }
          case Plan.SLOTS -> {
            Slot[] slots = (Slot[]) f.get(o);
            values[n++] = Value.of(slots.length);
            for (Slot s : slots) {
              if (s.tag == Kind.FUNCTION) {
                functions = addFunction(functions, n);
              }
              values[n++] = slotValue(s);
            }
          }
          case Plan.BOOLEAN -> values[n++] = Value.of(f.getBoolean(o));
          case Plan.DOUBLE -> values[n++] = Value.of(Double.doubleToRawLongBits(
              f.getDouble(o)));
          case Plan.FLOAT -> values[n++] = Value.of((long) java.lang.Float.floatToRawIntBits(
              f.getFloat(o)));
          default -> values[n++] = Value.of(f.getLong(o));
        }
      }
      saved.add(new OperatorState(functions == null ? kind : kind + ";f="
          + String.join(",", functions.stream().map(String::valueOf).toList()),
          List.of(values))); // immutable: the record keeps it without another copy
      return;
    }
    OperatorState op = next(kind);
    Set<Integer> functions = functionPositions(op.kind());
    Iterator<Value> values = op.values().iterator();
    int[] at = {0};
    // Loading a version 1-3 snapshot: the derived values are there, read and dropped (the
    // fresh node's own are kept).
    boolean drop = !compact;
    try {
      if (ownSlot) {
        loadSlot(drop && plan.ownSlotDerived ? new Slot() : (Slot) o, values, at, functions);
      }
      for (int i = 0; i < state.length; i++) {
        FieldAccess f = state[i];
        byte type = types[i];
        boolean dropped = drop && plan.derived[i];
        if (type == Plan.SLOT) {
          loadSlot(dropped ? new Slot() : (Slot) f.get(o), values, at, functions);
        } else if (type == Plan.SLOTS) {
          Slot[] slots = (Slot[]) f.get(o);
          long n = values.next().asLong();
          at[0]++;
          if (n != slots.length) {
            throw mismatch(kind + " has " + slots.length + " memories, the snapshot " + n);
          }
          for (Slot s : slots) {
            loadSlot(dropped ? new Slot() : s, values, at, functions);
          }
        } else {
          Value x = values.next();
          at[0]++;
          if (dropped) {
            if (type == Plan.BOOLEAN) { // checked as it would be loaded
              x.asBoolean();
            } else {
              x.asLong();
            }
            continue;
          }
          if (f.isBoolean()) {
            f.setPrimitive(o, x.asBoolean(), 0);
          } else {
            f.setPrimitive(o, false, x.asLong());
          }
        }
      }
    } catch (java.util.NoSuchElementException e) {
      throw mismatch(kind + " has fewer values than it needs");
    } catch (io.dataflow.core.ValueTypeException | ArithmeticException e) {
      throw mismatch(kind + ": " + e.getMessage());
    }
    if (values.hasNext()) {
      throw mismatch(kind + " has more values than it needs");
    }
  }

  private static List<Integer> addFunction(List<Integer> functions, int position) {
    List<Integer> out = functions == null ? new ArrayList<>() : functions;
    out.add(position);
    return out;
  }

  /** A slot's value; a function becomes its closure's description (see closure). */
  private Value slotValue(Slot s) {
    return s.tag == Kind.FUNCTION ? closure((Functions.Closure) s.ref) : s.toValue();
  }

  private void addSlot(Slot s, List<Value> values, List<Integer> functions) {
    if (s.tag == Kind.FUNCTION) {
      functions.add(values.size());
      values.add(closure((Functions.Closure) s.ref));
    } else {
      values.add(s.toValue());
    }
  }

  private void loadSlot(Slot s, Iterator<Value> values, int[] at, Set<Integer> functions) {
    Value v = values.next();
    int position = at[0]++;
    if (!functions.isEmpty() && functions.contains(position)) {
      s.setRaw(Kind.FUNCTION, 0, closure(v));
    } else {
      s.setValue(v);
    }
  }

  private Value closure(Functions.Closure c) {
    Value index = indexOf(c.lambda());
    TreeMap<String, Value> captured = new TreeMap<>();
    for (Map.Entry<String, Slot> e : c.captured().entrySet()) {
      if (e.getValue().tag == Kind.FUNCTION) {
        throw new SnapshotException("stream '" + stream + "' holds a function that captured "
            + "another function, which cannot be persisted");
      }
      captured.put(e.getKey(), e.getValue().toValue());
    }
    return Value.list(index, new Value.Map(captured));
  }

  private Functions.Closure closure(Value v) {
    List<Value> parts = v.asList();
    if (parts.size() != 2) {
      throw mismatch("a function value needs a lambda index and its captured values");
    }
    Ast.Lambda lambda = lambda(parts.get(0));
    Map<String, Slot> captured = new java.util.HashMap<>();
    for (Map.Entry<String, Value> e : parts.get(1).asMap().entrySet()) {
      Slot s = new Slot();
      s.setValue(e.getValue());
      captured.put(e.getKey(), s);
    }
    return new Functions.Closure(lambda, captured);
  }

  private void ring(HistoryRing ring) {
    if (saved != null) {
      List<Value> values = new ArrayList<>();
      List<Integer> functions = new ArrayList<>();
      values.add(Value.of(ring.depth()));
      Slot tmp = new Slot();
      for (int ago = 1; ago <= ring.size(); ago++) {
        ring.read(ago, tmp);
        addSlot(tmp, values, functions);
      }
      saved.add(new OperatorState(functions.isEmpty() ? "Ring" : "Ring;f="
          + String.join(",", functions.stream().map(String::valueOf).toList()), values));
      return;
    }
    OperatorState op = next("Ring");
    List<Value> values = op.values();
    if (values.isEmpty() || values.get(0).kind() != Kind.INT
        || values.get(0).asLong() != ring.depth() || values.size() - 1 > ring.depth()) {
      throw mismatch("a ring of depth " + ring.depth() + " does not fit " + values);
    }
    loadRing(ring, values.subList(1, values.size()), functionPositions(op.kind()), 1);
  }

  /** Loads samples (newest first) into a ring; {@code offset} is their index in the state. */
  private void loadRing(HistoryRing ring, List<Value> newestFirst, Set<Integer> functions,
      int offset) {
    ring.clear();
    Slot tmp = new Slot();
    for (int i = newestFirst.size() - 1; i >= 0; i--) {
      if (functions.contains(i + offset)) {
        tmp.setRaw(Kind.FUNCTION, 0, closure(newestFirst.get(i)));
      } else {
        tmp.setValue(newestFirst.get(i));
      }
      ring.push(tmp);
    }
  }

  /** A stream's history (newest first) into its ring, resized as a transfer resizes it. */
  public static void loadHistory(HistoryRing ring, List<Value> newestFirst) {
    ring.clear();
    Slot tmp = new Slot();
    int keep = Math.min(newestFirst.size(), ring.depth());
    for (int i = keep - 1; i >= 0; i--) {
      tmp.setValue(newestFirst.get(i));
      ring.push(tmp);
    }
  }

  /** The samples of a stream's ring, newest first. */
  public static List<Value> history(HistoryRing ring, String stream) {
    List<Value> out = new ArrayList<>(ring.size());
    Slot tmp = new Slot();
    for (int ago = 1; ago <= ring.size(); ago++) {
      ring.read(ago, tmp);
      out.add(plainValue(tmp, stream));
    }
    return out;
  }

  private void callSite(Functions.CallSite site) {
    if (saved != null) {
      List<Map.Entry<Value, Functions.Instance>> byIndex = new ArrayList<>();
      List<Value> values = new ArrayList<>();
      for (Map.Entry<Ast.Lambda, Functions.Instance> e : site.instances.entrySet()) {
        byIndex.add(Map.entry(indexOf(e.getKey()), e.getValue()));
      }
      byIndex.sort(Comparator.comparing((Map.Entry<Value, Functions.Instance> e) ->
          e.getKey().asList().get(0).asString())
          .thenComparingLong(e -> e.getKey().asList().get(1).asLong()));
      for (Map.Entry<Value, Functions.Instance> e : byIndex) {
        List<Value> names = new ArrayList<>();
        for (String n : new java.util.TreeSet<>(e.getValue().capturedCells.keySet())) {
          names.add(Value.of(n));
        }
        values.add(Value.list(e.getKey(), new Value.List(names)));
      }
      saved.add(new OperatorState("CallSite", values));
      for (Map.Entry<Value, Functions.Instance> e : byIndex) {
        visit(e.getValue());
      }
      return;
    }
    OperatorState op = next("CallSite");
    List<Functions.Instance> instances = new ArrayList<>();
    try {
      for (Value v : op.values()) {
        Ast.Lambda lambda = lambda(v.asList().get(0));
        Map<String, Slot> captured = new java.util.HashMap<>();
        for (Value n : v.asList().get(1).asList()) {
          captured.put(n.asString(), new Slot());
        }
        instances.add(site.instance(lambda, captured));
      }
    } catch (io.dataflow.core.ValueTypeException | IndexOutOfBoundsException e) {
      throw mismatch("a call site's instances are malformed: " + op.values());
    }
    for (Functions.Instance i : instances) {
      visit(i);
    }
  }

  /**
   * A dynamic node's active body: kind {@code Body} holds its text (NoVal before the first), the
   * signature of its typing and how many states of the body follow; then the body's own state.
   * Into another program, a body whose typing changed restarts as a fresh activation, as after
   * a live transfer ({@code DynamicNode.revalidateActive}).
   */
  private void body(DynamicNode d) {
    DynamicBodies.Instance active = d.active();
    if (saved != null) {
      if (active == null) {
        saved.add(new OperatorState("Body", List.of(Value.NOVAL, Value.NOVAL, Value.of(0))));
        return;
      }
      int at = saved.size();
      saved.add(null);
      visit(active);
      saved.set(at, new OperatorState("Body", List.of(Value.of(active.template.text()),
          Value.of(DynamicBodies.typingSignature(active.template)),
          Value.of(saved.size() - at - 1))));
      return;
    }
    OperatorState op = next("Body");
    List<Value> v = op.values();
    if (v.size() != 3 || v.get(2).kind() != Kind.INT || v.get(2).asLong() < 0) {
      throw mismatch("a body's state is its text, its typing and its state count");
    }
    if (v.get(0).kind() != Kind.STR) {
      if (v.get(0) != Value.NOVAL || v.get(2).asLong() != 0) {
        throw mismatch("a body's text must be a Str or NoVal, got " + v.get(0));
      }
      return;
    }
    d.restoreBody(v.get(0).asString());
    DynamicBodies.Instance fresh = d.active();
    boolean sameTyping = v.get(1).kind() == Kind.STR
        && v.get(1).asString().equals(DynamicBodies.typingSignature(fresh.template));
    if (!sameTyping && transferred) {
      for (long i = v.get(2).asLong(); i > 0; i--) {
        if (!loading.hasNext()) {
          throw mismatch("a body's state count exceeds the states");
        }
        loading.next();
      }
      seen().add(fresh); // a fresh activation: nothing to load
      return;
    }
    visit(fresh);
  }

  // ---- lambdas ----

  private Map<String, List<Ast.Lambda>> lambdas() {
    if (lambdas == null) {
      lambdas = lambdas(evaluator);
    }
    return lambdas;
  }

  /** The lambdas of the program's equations, in declaration order and then source order. */
  private static Map<String, List<Ast.Lambda>> lambdas(Evaluator evaluator) {
    if (!evaluator.spec().hasLambda()) {
      return Map.of();
    }
    Map<String, List<Ast.Lambda>> out = new java.util.HashMap<>();
    for (var s : evaluator.spec().streams()) {
      if (s.equation() != null) {
        List<Ast.Lambda> found = new ArrayList<>();
        collect(s.equation().expr(), found);
        out.put(s.name(), found);
      }
    }
    return out;
  }

  private static void collect(Object node, List<Ast.Lambda> out) {
    if (node instanceof Ast.Lambda l) {
      out.add(l);
    }
    if (node instanceof List<?> list) {
      for (Object e : list) {
        collect(e, out);
      }
    } else if (node instanceof Record r) {
      for (var c : r.getClass().getRecordComponents()) {
        if (c.getType() == Ast.Pos.class || c.getType().isPrimitive()) {
          continue;
        }
        try {
          collect(c.getAccessor().invoke(r), out);
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
      }
    }
  }

  /** A lambda as {@code List[Str stream, Int index in its equation]}. */
  private Value indexOf(Ast.Lambda lambda) {
    // By identity; else (nodes kept by a live transfer were built from the previous program's
    // syntax) the same lambda wherever it is written.
    for (int pass = 0; pass < 2; pass++) {
      for (Map.Entry<String, List<Ast.Lambda>> e : new TreeMap<>(lambdas()).entrySet()) {
        List<Ast.Lambda> in = e.getValue();
        for (int i = 0; i < in.size(); i++) {
          if (pass == 0 ? in.get(i) == lambda : sameSyntax(in.get(i), lambda)) {
            return Value.list(Value.of(e.getKey()), Value.of(i));
          }
        }
      }
    }
    throw new SnapshotException("stream '" + stream + "' holds a function defined inside a "
        + "dynamic body, which cannot be persisted");
  }

  /** Structural equality of syntax, ignoring where it is written. */
  private static boolean sameSyntax(Object a, Object b) {
    if (a instanceof Ast.Pos || a == b) {
      return true;
    }
    if (a instanceof List<?> x && b instanceof List<?> y) {
      if (x.size() != y.size()) {
        return false;
      }
      for (int i = 0; i < x.size(); i++) {
        if (!sameSyntax(x.get(i), y.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a instanceof Record r && b != null && a.getClass() == b.getClass()) {
      for (var c : r.getClass().getRecordComponents()) {
        try {
          if (!sameSyntax(c.getAccessor().invoke(a), c.getAccessor().invoke(b))) {
            return false;
          }
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
      }
      return true;
    }
    return java.util.Objects.equals(a, b);
  }

  private Ast.Lambda lambda(Value ref) {
    try {
      List<Ast.Lambda> in = lambdas().get(ref.asList().get(0).asString());
      long index = ref.asList().get(1).asLong();
      if (in == null || index < 0 || index >= in.size() || ref.asList().size() != 2) {
        throw mismatch("no lambda " + ref + " in the program");
      }
      return in.get((int) index);
    } catch (io.dataflow.core.ValueTypeException | IndexOutOfBoundsException e) {
      throw mismatch("a lambda reference must be [stream, index], got " + ref);
    }
  }

  // ---- helpers ----

  private OperatorState next(String kind) {
    if (!loading.hasNext()) {
      throw mismatch("the snapshot has no state for operator " + kind);
    }
    OperatorState op = loading.next();
    if (op.kind().equals(kind)) {
      return op; // the usual case: no suffix
    }
    int semi = op.kind().indexOf(';');
    String k = semi < 0 ? op.kind() : op.kind().substring(0, semi);
    if (!k.equals(kind)) {
      throw mismatch("expected state of " + kind + ", the snapshot has " + op.kind());
    }
    return op;
  }

  private Set<Integer> functionPositions(String kind) {
    int at = kind.indexOf(";f=");
    if (at < 0) {
      return Set.of();
    }
    Set<Integer> out = new java.util.HashSet<>();
    try {
      for (String s : kind.substring(at + 3).split(",")) {
        out.add(Integer.parseInt(s));
      }
    } catch (NumberFormatException e) {
      throw mismatch("malformed operator kind " + kind);
    }
    return out;
  }

  private SnapshotException mismatch(String reason) {
    return new SnapshotException("the snapshot's state of stream '" + stream
        + "' does not fit its operators: " + reason);
  }

  private static String kindOf(Class<?> c) {
    if (c.isHidden() || c.isSynthetic()) {
      return "Lambda";
    }
    // Interned: the codec's table of kind codes and a decoded snapshot's kinds are literals,
    // so the look-ups and comparisons of a plan's kind succeed on identity.
    return c.getSimpleName().intern();
  }

  /**
   * The objects already visited, by identity. A stream's tree is a handful of nodes, so a
   * linear scan of a small array, not an identity hash set per stream (whose table was about
   * 5% of a 100-stream round trip); past {@link #SCAN} objects it falls back to the set.
   */
  static final class Visited {
    private static final int SCAN = 16;
    private final Object[] few = new Object[SCAN];
    private int size;
    private Set<Object> many;

    /** Empty again, for the next walk (no reference to the last walk's objects kept). */
    Visited cleared() {
      java.util.Arrays.fill(few, 0, size, null);
      size = 0;
      many = null;
      return this;
    }

    /** Adds {@code o}; false when it was already there. */
    boolean add(Object o) {
      if (many != null) {
        return many.add(o);
      }
      for (int i = 0; i < size; i++) {
        if (few[i] == o) {
          return false;
        }
      }
      if (size < SCAN) {
        few[size++] = o;
        return true;
      }
      many = Collections.newSetFromMap(new IdentityHashMap<>(4 * SCAN));
      for (Object x : few) {
        many.add(x);
      }
      return many.add(o);
    }
  }

  /**
   * {@link #PLANS} in front of the class value: a direct-mapped table by the class's identity
   * hash (a walk visits a few classes many times, and the class value's look-up was about 8%
   * of a 100-stream round trip). Races are benign: a plan is immutable, and a miss asks
   * {@link #PLANS}.
   */
  private static final Plan[] CACHE = new Plan[256];

  static Plan plan(Class<?> c) {
    int i = System.identityHashCode(c) & (CACHE.length - 1);
    Plan p = CACHE[i];
    if (p == null || p.type != c) {
      p = PLANS.get(c);
      CACHE[i] = p;
    }
    return p;
  }

  /** What the walk needs of a class, derived once from its fields (see fieldsOf). */
  private static final ClassValue<Plan> PLANS = new ClassValue<>() {
    @Override
    protected Plan computeValue(Class<?> type) {
      return new Plan(type);
    }
  };

  /** The walk's view of one class: its kind, state fields by type, and children. */
  static final class Plan {
    static final byte SLOT = 0;
    static final byte SLOTS = 1;
    static final byte BOOLEAN = 2;
    static final byte DOUBLE = 3;
    static final byte FLOAT = 4;
    static final byte INTEGRAL = 5;

    final Class<?> type;
    /** Not of this package, or shared/configuration objects (see skipped): not visited. */
    final boolean ignored;
    final boolean ownSlot;
    final String kind;
    final Field[] state;
    final byte[] types;
    final Field[] children;
    /** Per field of {@link #state}: {@link Derived}, left out of the compact layout. */
    final boolean[] derived;
    /** The class is {@link Derived}: its own result slot is left out. */
    final boolean ownSlotDerived;
    /** The compact layout (format version 4 on): {@link #state} without derived fields. */
    final Field[] kept;
    final byte[] keptTypes;
    final boolean ownSlotKept;
    /** {@link #state}'s and {@link #kept}'s accessors (by offset where they can be). */
    final FieldAccess[] stateAccess;
    final FieldAccess[] keptAccess;

    Plan(Class<?> c) {
      type = c;
      ignored = !c.getPackageName().equals(PACKAGE)
          || SKIPPED.stream().anyMatch(k -> k.isAssignableFrom(c));
      ownSlot = Slot.class.isAssignableFrom(c);
      kind = kindOf(c);
      ownSlotDerived = ownSlot && c.isAnnotationPresent(Derived.class);
      ownSlotKept = ownSlot && !ownSlotDerived;
      if (ignored) {
        state = new Field[0];
        children = new Field[0];
        types = new byte[0];
        derived = new boolean[0];
        kept = state;
        keptTypes = types;
        stateAccess = new FieldAccess[0];
        keptAccess = stateAccess;
        return;
      }
      state = stateFields(c).toArray(new Field[0]);
      children = children(c).stream().filter(f -> mayHoldState(f.getType()))
          .toArray(Field[]::new);
      types = new byte[state.length];
      for (int i = 0; i < state.length; i++) {
        Class<?> t = state[i].getType();
        types[i] = t == Slot[].class ? SLOTS : !t.isPrimitive() ? SLOT
            : t == boolean.class ? BOOLEAN : t == double.class ? DOUBLE
            : t == float.class ? FLOAT : INTEGRAL;
      }
      derived = new boolean[state.length];
      List<Field> keep = new ArrayList<>();
      byte[] keepTypes = new byte[state.length];
      for (int i = 0; i < state.length; i++) {
        derived[i] = state[i].isAnnotationPresent(Derived.class);
        if (!derived[i]) {
          keepTypes[keep.size()] = types[i];
          keep.add(state[i]);
        }
      }
      kept = keep.toArray(new Field[0]);
      keptTypes = java.util.Arrays.copyOf(keepTypes, kept.length);
      stateAccess = FieldAccess.of(state);
      keptAccess = FieldAccess.of(kept);
    }

    /** The number of values {@code o}'s state has in a layout (state, types, own slot). */
    static int size(Object o, FieldAccess[] state, byte[] types, boolean ownSlot) {
      int n = (ownSlot ? 1 : 0) + state.length;
      for (int i = 0; i < state.length; i++) {
        if (types[i] == SLOTS) {
          n += ((Slot[]) state[i].get(o)).length;
        }
      }
      return n;
    }
  }

  /**
   * Whether a field of this declared type may lead to state: not when its every value is of a
   * class outside this package (a final class, an enum, a record: strings, syntax, operators).
   */
  private static boolean mayHoldState(Class<?> t) {
    if (t.isArray()) {
      return !t.getComponentType().isPrimitive() && mayHoldState(t.getComponentType());
    }
    return t.getPackageName().equals(PACKAGE)
        || !(Modifier.isFinal(t.getModifiers()) || t.isEnum() || t.isRecord());
  }

  /** The classes of {@link #skipped}. */
  private static final List<Class<?>> SKIPPED = List.of(Evaluator.class, DynamicBodies.class,
      NodeBuilder.class, NodeBuilder.Locals.class, TypeCheck.Compiled.class,
      DynamicBodies.Template.class, Functions.Closure.class);

  static Object get(Field f, Object o) {
    try {
      return f.get(o);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Slot, Slot[] (not Node[]) and non-final primitive fields, superclass first, by name. */
  static List<Field> stateFields(Class<?> c) {
    return STATE.computeIfAbsent(c, k -> fieldsOf(k, true));
  }

  /** The fields that may lead to more state: everything else that is not a primitive. */
  static List<Field> children(Class<?> c) {
    return CHILDREN.computeIfAbsent(c, k -> fieldsOf(k, false));
  }

  private static List<Field> fieldsOf(Class<?> c, boolean state) {
    List<Class<?>> chain = new ArrayList<>();
    for (Class<?> k = c; k != null && k != Object.class && k != Slot.class; k = k.getSuperclass()) {
      chain.add(0, k);
    }
    List<Field> out = new ArrayList<>();
    for (Class<?> k : chain) {
      Field[] declared = k.getDeclaredFields();
      java.util.Arrays.sort(declared, Comparator.comparing(Field::getName));
      for (Field f : declared) {
        if (Modifier.isStatic(f.getModifiers()) || transientAlias(f)) {
          continue;
        }
        Class<?> t = f.getType();
        boolean isState = (Slot.class.isAssignableFrom(t) && !Node.class.isAssignableFrom(t))
            || (t == Slot[].class)
            || (t.isPrimitive() && !Modifier.isFinal(f.getModifiers()));
        boolean isChild = !t.isPrimitive() && !isState;
        if (state ? isState : isChild) {
          f.setAccessible(true);
          out.add(f);
        }
      }
    }
    return List.copyOf(out);
  }

  /**
   * Fields that point at other slots of the same tree for the duration of one tick (not
   * memories of their own): {@code Builtins.Strict.lifted}.
   */
  private static boolean transientAlias(Field f) {
    return f.getDeclaringClass() == Builtins.Strict.class && f.getName().equals("lifted");
  }
}
