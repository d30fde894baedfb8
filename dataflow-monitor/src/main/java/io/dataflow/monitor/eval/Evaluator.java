package io.dataflow.monitor.eval;

import io.dataflow.core.Kind;
import io.dataflow.core.MonitorException;
import io.dataflow.core.Row;
import io.dataflow.monitor.lang.CheckedSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * One monitor's evaluation state, and the interpreter's tick: a {@link StreamCell} per stream
 * (its value, root node, history ring and operator state), the evaluation order, the tick
 * counter, the stream being evaluated (which an error names) and the on-demand evaluation that
 * dynamic bodies need.
 *
 * <p>The API's {@code DataflowMonitor} owns one and decides how its ticks run (interpreted, or
 * as generated code) and what a failure does to the monitor. The generated code
 * ({@code io.dataflow.monitor.codegen}) runs the same tick over the same cells and nodes and
 * calls back into the public methods documented as being for it.
 *
 * <h2>Implementation note</h2>
 * Every stream has a cell holding its current value; every computed stream has a root
 * {@link Node} built from its equation. References read cells, {@code name[n]} reads the
 * stream's {@link HistoryRing}. Dynamic properties may read computed streams that the static
 * order evaluates later: those are evaluated on demand ({@link #ensureEvaluated}), which both
 * repairs the order for the tick and detects dynamic cycles. A stream evaluated on demand first
 * evaluates its own static same-tick inputs the same way, so the repair is transitive and a
 * cycle closed through a static reference is seen.
 *
 * <p>Thread-safety: owner thread only.
 */
public final class Evaluator {
  /**
   * How the dynamic-property bodies of a monitor are kept and get generated code.
   *
   * @param cacheSize how many compiled bodies are cached by text
   * @param compiler what generates code for a body that stays active, or null for never
   * @param eager whether that code is generated at once on the owner thread (else in the
   *     background)
   */
  public record BodySettings(int cacheSize, BodyCompiler compiler, boolean eager) {}

  /**
   * What a replacement takes over from the evaluator it replaces, per stream of the new
   * specification (by index): the cell of a stream of the same name always moves.
   *
   * @param donor the evaluator replaced (it may not be used afterwards)
   * @param keepState whether the stream keeps its root node and operator state
   * @param keepHistory whether the stream keeps its history and run-long memories
   */
  public record Takeover(Evaluator donor, boolean[] keepState, boolean[] keepHistory) {}

  private final CheckedSpec spec;
  /** One cell per stream, in declaration order. */
  final StreamCell[] cells;
  final DynamicBodies bodies;
  final BodyCompiler bodyCompiler;
  final boolean eagerBodies;
  private final Runnable bodyInstalled;
  private final StreamCell[] order;
  private final StreamCell[] inputCells;
  private final StreamCell[] outputCells;
  /**
   * The values staged by the typed input handles for the next step, in slot order; null until
   * first asked for ({@link #staged()}: an input handle, the generated code's compilation, a
   * step), so a monitor that is only evaluated with rows never makes them (docs/decisions.md,
   * "A ring's references and the staged inputs on first use; equal cell arrays shared").
   */
  private Slot[] staged;
  private final StreamCell[] untypedOutputs;
  private final StreamCell[] ringCells;
  private final StreamCell[] committing;
  private final TypeCheck.Compiled[] checkedTypes;
  /** Per stream, its node tree's recipe (shared per program, never written), or null. */
  private final NodeRecipe[] recipes;
  private final boolean[] checkedStreams;
  private final boolean hasDynamic;
  /** The streams a dynamic body can evaluate out of order (see repairable()), or null. */
  private final boolean[] repairable;

  // On-demand evaluation for dynamic bodies (owner thread only).
  /** The streams being evaluated, innermost last (a dynamic body can nest them). */
  private final StreamCell[] evaluating;
  private int depth;

  private long tick;
  /** The index of the stream being evaluated, or -1 (a primitive: no GC barrier per store). */
  private int current = -1;
  /** The batch tick at which generated batch code failed, or -1 (see failedInBatch). */
  private int batchFailedAt = -1;
  /**
   * Batches evaluated by the dense variant of the generated loop (for tests and diagnostics;
   * the generated code counts them).
   */
  public long denseBatches;

  /**
   * Builds the cells and nodes of {@code spec}; with a takeover, takes over the donor's stream
   * cells by name (history resized or cleared as it says) and the root nodes of the streams
   * that keep their state.
   *
   * @param firstTick the number of the first tick
   * @param bodyInstalled called each time a dynamic property installs a new body
   * @param takeover what to take over, or null for a fresh evaluator
   * @param report with a takeover, receives the streams that kept their state, the streams
   *     that started cold and the streams whose history moved; or null
   */
  public Evaluator(CheckedSpec spec, long firstTick, BodySettings settings,
      Runnable bodyInstalled, Takeover takeover, List<List<String>> report) {
    this.spec = spec;
    int n = spec.streams().size();
    this.tick = firstTick;
    this.cells = new StreamCell[n];
    // Only dynamic bodies evaluate streams on demand (enter() is theirs and their code's).
    this.evaluating = spec.hasDynamic() ? new StreamCell[n] : StreamCell.NONE;
    Shape shape = (Shape) spec.evaluatorShape(Shape::new);
    this.recipes = shape.recipes;
    this.checkedTypes = shape.checkedTypes;
    this.hasDynamic = spec.hasDynamic();
    this.bodyCompiler = settings.compiler();
    this.eagerBodies = settings.eager();
    this.bodyInstalled = bodyInstalled;
    Evaluator donor = takeover == null ? null : takeover.donor();
    boolean[] keepState = donor == null ? null : new boolean[n];
    for (int i = 0; i < n; i++) {
      String name = spec.streams().get(i).name();
      int depth = spec.historyDepth()[i];
      StreamCell old = donor == null ? null : donor.cellNamed(name);
      if (old == null) {
        cells[i] = new StreamCell(name, i, this);
        cells[i].ring = depth > 0 ? HistoryRing.ofCell(depth) : null;
      } else {
        cells[i] = adopt(old, i, depth, takeover.keepState()[i], takeover.keepHistory()[i],
            report);
        keepState[i] = takeover.keepState()[i];
      }
    }
    this.bodies = hasDynamic ? new DynamicBodies(this, settings.cacheSize()) : null;
    this.order = pick(shape.computed);
    if (hasDynamic) {
      // A body may evaluate a stream ahead of the static order; that stream's own same-tick
      // inputs must then be evaluated first (the repair is transitive), whichever program
      // built its nodes.
      for (StreamCell c : cells) {
        c.sameTick = pick(shape.sameTick[c.index]);
      }
    } else {
      for (StreamCell c : cells) {
        c.sameTick = StreamCell.NONE;
      }
    }
    this.inputCells = pick(spec.inputIndex());
    // The same cells in the same order share one array (never written once made): in a
    // program such as counter the outputs are the computed streams and have the rings.
    this.outputCells = shape.outputsAreOrder ? order : pick(spec.outputIndex());
    // Only an output of unknown static type in a program with lambdas can hold a function.
    this.untypedOutputs = shape.untypedOutputs.length == 0 ? StreamCell.NONE
        : pick(shape.untypedOutputs);
    if (donor != null && donor.bodies != null) {
      donor.bodies.evaluator = this; // kept bodies now read this evaluator's cells
    }
    for (StreamCell c : order) {
      if (keepState != null && keepState[c.index] && c.root != null) {
        if (report != null) {
          report.get(0).add(c.name);
        }
        for (Committable kept : c.commits) {
          if (kept instanceof DynamicNode d) {
            d.transferred();
          }
        }
        continue; // same definition: the node tree and its state move as they are
      }
      c.commits.clear();
      c.root = buildRoot(c.index);
      c.rootRecipe = recipes[c.index]; // buildRoot used it when there is one
      if (report != null) {
        report.get(1).add(c.name);
      }
    }
    for (StreamCell c : inputCells) {
      c.root = null;
      c.rootRecipe = null;
      c.commits.clear();
    }
    this.ringCells = shape.ringsAreOrder ? order : shape.ringsAreOutputs ? outputCells
        : select(cells, c -> c.ring != null);
    // Lambda call sites register their instances' state lazily, so they commit too.
    for (StreamCell c : cells) {
      c.commitsGrow = c.root != null && spec.hasCallSite(c.index);
    }
    this.committing = select(cells, c -> !c.commits.isEmpty() || c.commitsGrow);
    this.checkedStreams = shape.checkedStreams;
    // Here, on the owner thread, once every root (and so every dynamic node) is built.
    this.repairable = hasDynamic ? computeRepairable() : null;
  }

  /**
   * What an evaluator derives from its specification alone, found once per specification
   * ({@link CheckedSpec#evaluatorShape}): every restore builds an evaluator. Immutable and
   * shared by all evaluators of the specification (the arrays are never written).
   */
  private static final class Shape {
    /** The streams with an equation, in evaluation order. */
    final int[] computed;
    /** Per stream, the compiled check of its declared type, or null when unchecked. */
    final TypeCheck.Compiled[] checkedTypes;
    final boolean[] checkedStreams;
    /** Per stream, the streams it reads in the same tick (used with dynamic bodies only). */
    final int[][] sameTick;
    /** Outputs that can hold a function: of unknown static type in a program with lambdas. */
    final int[] untypedOutputs;
    /** Per stream, how its equation's node tree is built, or null (input, or NodeBuilder). */
    final NodeRecipe[] recipes;
    /** Whether the outputs are the computed streams in evaluation order (one array for both). */
    final boolean outputsAreOrder;
    /**
     * Whether the streams with a ring (a history depth), in declaration order, are the computed
     * streams in evaluation order, or the outputs in slot order (the ring cells share that
     * array; the evaluator's cells have a ring exactly when their depth is positive).
     */
    final boolean ringsAreOrder;
    final boolean ringsAreOutputs;

    Shape(CheckedSpec spec) {
      int n = spec.streams().size();
      computed = java.util.Arrays.stream(spec.order())
          .filter(i -> spec.streams().get(i).equation() != null).toArray();
      checkedTypes = new TypeCheck.Compiled[n];
      checkedStreams = new boolean[n];
      sameTick = new int[n][];
      for (int i = 0; i < n; i++) {
        boolean typedInput = spec.isInput(i) && !spec.streamType(i).isAny();
        if (typedInput || spec.needsCheck(i)) {
          checkedTypes[i] = new TypeCheck.Compiled(spec.streamType(i));
          checkedStreams[i] = true;
        }
        sameTick[i] = spec.hasDynamic() ? spec.sameTickDeps().get(i).stream().toArray()
            : new int[0];
      }
      recipes = new NodeRecipe[n];
      for (int i : computed) {
        recipes[i] = NodeRecipe.of(spec.streams().get(i).equation().expr(), spec);
      }
      int[] rings = java.util.stream.IntStream.range(0, n)
          .filter(i -> spec.historyDepth()[i] > 0).toArray();
      outputsAreOrder = computed.length > 0
          && java.util.Arrays.equals(spec.outputIndex(), computed);
      ringsAreOrder = rings.length > 0 && java.util.Arrays.equals(rings, computed);
      ringsAreOutputs = rings.length > 0 && java.util.Arrays.equals(rings, spec.outputIndex());
      untypedOutputs = !spec.hasLambda() ? new int[0]
          : java.util.Arrays.stream(spec.outputIndex())
              .filter(i -> spec.streamType(i).isAny()).toArray();
    }
  }

  /**
   * The cells that {@code keep} accepts, in order (a loop, not a stream pipeline: building an
   * evaluator is on the path of every restore).
   */
  private static StreamCell[] select(StreamCell[] from,
      java.util.function.Predicate<StreamCell> keep) {
    int n = 0;
    for (StreamCell c : from) {
      if (keep.test(c)) {
        n++;
      }
    }
    if (n == 0) {
      return StreamCell.NONE;
    }
    // Counted first: one array of the right size, no copy.
    StreamCell[] out = new StreamCell[n];
    n = 0;
    for (StreamCell c : from) {
      if (keep.test(c)) {
        out[n++] = c;
      }
    }
    return out;
  }

  /** Takes over a donor's cell: the nodes that read it keep working. */
  private StreamCell adopt(StreamCell old, int index, int depth, boolean keepState,
      boolean keepHistory, List<List<String>> report) {
    old.owner = this;
    old.index = index;
    old.evaluatedAt = -1;
    old.inProgress = false;
    if (!keepHistory && old.ring != null) {
      old.ring.clear();
    }
    if (depth == 0) {
      old.ring = null;
    } else if (old.ring == null) {
      old.ring = HistoryRing.ofCell(depth);
    } else {
      old.ring.resize(depth);
      if (report != null && old.ring.size() > 0) {
        report.get(2).add(old.name);
      }
    }
    if (!(keepHistory && (spec.isInput(index) || keepState))) {
      // Run-long memories move for inputs and exact matches only. The cell's value of the last
      // tick goes too: it is the run's last present value while nothing replaced it.
      old.forgetPresent();
    }
    if (!keepState) {
      old.root = null;
      old.rootRecipe = null;
    }
    return old;
  }

  private StreamCell cellNamed(String name) {
    Integer i = spec.byName().get(name);
    return i == null ? null : cells[i];
  }

  private StreamCell[] pick(int[] indices) {
    StreamCell[] out = new StreamCell[indices.length];
    for (int i = 0; i < indices.length; i++) {
      out[i] = cells[indices[i]];
    }
    return out;
  }

  private Node buildRoot(int stream) {
    StreamCell owner = cells[stream];
    NodeRecipe recipe = recipes[stream];
    if (recipe != null) {
      return recipe.make(cells, owner.commits);
    }
    NodeBuilder builder = new NodeBuilder(spec.byName(), spec.types(),
        new TopLevelStreams(owner), owner.commits, new Functions());
    return builder.build(spec.streams().get(stream).equation().expr(),
        NodeBuilder.Locals.NONE);
  }

  /**
   * Stream {@code stream}'s node tree as {@code NodeBuilder} builds it from the syntax, without
   * the program's recipe (for the test that the two build the same tree).
   */
  Node buildWithoutRecipe(int stream, List<Committable> commits) {
    StreamCell owner = cells[stream];
    NodeBuilder builder = new NodeBuilder(spec.byName(), spec.types(),
        new TopLevelStreams(owner), commits, new Functions());
    return builder.build(spec.streams().get(stream).equation().expr(),
        NodeBuilder.Locals.NONE);
  }

  /** The recipe of stream {@code stream}'s tree, or null (for tests). */
  NodeRecipe recipe(int stream) {
    return recipes[stream];
  }

  /** Top-level references: stream cells and shared rings. */
  private final class TopLevelStreams implements NodeBuilder.Streams {
    private final StreamCell owner;

    TopLevelStreams(StreamCell owner) {
      this.owner = owner;
    }

    @Override
    public Node current(int stream, io.dataflow.monitor.lang.Ast.Var at) {
      return cells[stream];
    }

    @Override
    public Node history(int stream, int offset) {
      return new TemporalNodes.HistoryRead(cells[stream].ring, offset);
    }

    @Override
    public Node dynamic(io.dataflow.monitor.lang.Ast.Dynamic d, Node source) {
      DynamicNode node = new DynamicNode(d, source, owner);
      owner.commits.add(node);
      return node;
    }
  }

  /**
   * The computed streams a dynamic body may evaluate ahead of the static order: those in some
   * property's scope, and what they read in the same tick (the repair is transitive). Only
   * these need to track, per tick, whether they were evaluated; no body can reach the others,
   * so they run once each in the static order. With lambdas every computed stream: a
   * {@code dynamic} inside a lambda is built at the call site's first call, and a closure
   * (reached through history, say) reads streams outside the body's scope.
   */
  private boolean[] computeRepairable() {
    boolean[] repairable = new boolean[cells.length];
    if (spec.hasLambda()) {
      for (StreamCell c : cells) {
        repairable[c.index] = c.root != null;
      }
      return repairable;
    }
    java.util.ArrayDeque<StreamCell> todo = new java.util.ArrayDeque<>();
    for (StreamCell owner : cells) {
      for (Committable k : owner.commits) {
        if (k instanceof DynamicNode d) {
          for (StreamCell c : cells) {
            if (c.root != null && !repairable[c.index] && d.inScope(c.name)) {
              repairable[c.index] = true;
              todo.add(c);
            }
          }
        }
      }
    }
    while (!todo.isEmpty()) {
      for (StreamCell d : todo.poll().sameTick) {
        if (d.root != null && !repairable[d.index]) {
          repairable[d.index] = true;
          todo.add(d);
        }
      }
    }
    return repairable;
  }

  // ---- what the monitor and the code generator read ----

  /** The specification this evaluator was built for. */
  public CheckedSpec spec() {
    return spec;
  }

  /** One cell per stream, in declaration order. */
  public StreamCell[] cells() {
    return cells;
  }

  /** The computed streams in evaluation order. */
  public StreamCell[] order() {
    return order;
  }

  /** The input streams in slot order. */
  public StreamCell[] inputCells() {
    return inputCells;
  }

  /** The output streams in slot order. */
  public StreamCell[] outputCells() {
    return outputCells;
  }

  /**
   * Per input slot, the value staged for the next {@link #interpretStaged step} (the typed
   * input handles write it; the step takes it, see {@link StreamCell#take}).
   */
  public Slot[] staged() {
    Slot[] s = staged;
    if (s == null) {
      s = new Slot[inputCells.length];
      for (int i = 0; i < s.length; i++) {
        s[i] = new Slot();
      }
      staged = s;
    }
    return s;
  }

  /** Per stream, its run-time type check, or null when it needs none. */
  public TypeCheck.Compiled[] checkedTypes() {
    return checkedTypes;
  }

  /** Per stream, whether it has a run-time type check. */
  public boolean[] checkedStreams() {
    return checkedStreams;
  }

  /** The streams with a history ring. */
  public StreamCell[] ringCells() {
    return ringCells;
  }

  /** The streams with operator state to commit after each tick. */
  public StreamCell[] committing() {
    return committing;
  }

  /**
   * Per stream, whether a dynamic body may evaluate it ahead of the static order (so each tick
   * tracks whether it was evaluated); null when the program has no dynamic property.
   */
  public boolean[] repairable() {
    return repairable;
  }

  /** Outputs whose value may be a function (untyped ones); generated code checks them. */
  public StreamCell[] untypedOutputs() {
    return untypedOutputs;
  }

  // ---- the tick ----

  /** The tick being evaluated (or the next one between ticks). */
  public long tick() {
    return tick;
  }

  /** Counts one tick evaluated (by whichever path evaluated it). */
  public void advance() {
    tick++;
  }

  /**
   * Keyed monitors: continues at another tick count, that of the key whose state was just
   * loaded into this evaluator ({@link KeyedLayout}); between ticks only.
   */
  public void continueAt(long nextTick) {
    tick = nextTick;
  }

  /** Counts {@code ticks} ticks evaluated (by a batch loop). */
  public void advance(long ticks) {
    tick += ticks;
  }

  /** The interpreter's tick from an input row into an output row. */
  public void interpretRow(Row input, Row output) {
    readInputs(input);
    evaluateStreams();
    for (int j = 0; j < outputCells.length; j++) {
      outputCells[j].copyTo(output, j);
    }
  }

  /** The interpreter's tick from the {@link #staged() staged} values. */
  public void interpretStaged() {
    Slot[] s = staged();
    for (int i = 0; i < inputCells.length; i++) {
      inputCells[i].take(s[i]); // checked when staged: nothing to check here
    }
    evaluateStreams();
  }

  /** The interpreter's tick after the inputs are in their cells: streams, checks, commit. */
  private void evaluateStreams() {
    if (!hasDynamic) {
      for (StreamCell c : order) {
        current = c.index;
        Node root = c.root;
        root.eval();
        c.set(root);
        if (checkedTypes[c.index] != null) {
          checkType(c);
        }
      }
    } else {
      for (StreamCell c : order) {
        ensureEvaluated(c);
      }
    }
    checkOutputs();
    current = -1;
    commit();
  }

  private void readInputs(Row input) {
    for (int i = 0; i < inputCells.length; i++) {
      StreamCell c = inputCells[i];
      c.overwriting(input.kind(i));
      c.setFromRow(input, i);
      TypeCheck.Compiled t = checkedTypes[c.index];
      if (c.tag == Kind.FUNCTION || (t != null && !t.matches(c))) {
        current = c.index;
        if (c.tag == Kind.FUNCTION) {
          throw new EvalError("an input cannot carry a function");
        }
        checkType(c);
      }
    }
  }

  private void commit() {
    for (StreamCell c : ringCells) {
      c.ring.push(c);
    }
    for (StreamCell c : committing) {
      List<Committable> list = c.commits;
      for (int j = 0, n = list.size(); j < n; j++) {
        list.get(j).commit();
      }
    }
  }

  // ---- failures ----

  /**
   * What a tick threw, as the {@link MonitorException} that names the tick and the failing
   * stream. An {@link Error} that is not the specification's fault (OutOfMemoryError and
   * friends) is rethrown instead.
   */
  public MonitorException failure(Throwable e) {
    if (e instanceof EvalError ev) {
      return error(ev.stream() != null ? cellNamed(ev.stream()) : cellAt(current),
          ev.getMessage());
    }
    if (e instanceof MonitorException m) {
      return m;
    }
    if (e instanceof RuntimeException || e instanceof StackOverflowError) {
      MonitorException m = error(cellAt(current), "internal error: " + e);
      m.initCause(e);
      return m;
    }
    if (e instanceof Error err) {
      current = -1; // not poisoned: the next tick must not name this one's stream
      throw err;
    }
    throw new IllegalStateException(e);
  }

  /**
   * The failure of a restored poisoned monitor: the same tick, stream and reason, with the
   * stream's location in this program (null when it has no such stream).
   */
  public MonitorException failure(long failedTick, String stream, String reason) {
    StreamCell at = stream == null ? null : cellNamed(stream);
    return at == null ? new MonitorException(failedTick, stream, reason)
        : new MonitorException(failedTick, stream, reason, spec.location(at.index));
  }

  private MonitorException error(StreamCell at, String reason) {
    if (at == null) {
      return new MonitorException(tick, null, reason);
    }
    return new MonitorException(tick, at.name, reason, spec.location(at.index));
  }

  private StreamCell cellAt(int index) {
    return index < 0 ? null : cells[index];
  }

  /**
   * The batch tick at which generated batch code failed, or -1; reading it resets it (the
   * monitor reads it once, when the batch threw).
   */
  public int takeBatchFailure() {
    int at = batchFailedAt;
    batchFailedAt = -1;
    return at;
  }

  // ---- called by generated code (and by the interpreter) ----

  /** Generated code: records the stream whose evaluation failed, then rethrows. */
  public void failedIn(StreamCell c) {
    current = c.index;
  }

  /** Generated batch code: the stream and the batch's tick whose evaluation failed. */
  public void failedInBatch(StreamCell c, int at) {
    current = c.index;
    batchFailedAt = at;
  }

  /** Checks a stream's value against its declared type (also called by generated code). */
  public void checkType(StreamCell c) {
    TypeCheck.Compiled t = checkedTypes[c.index];
    if (!t.matches(c)) {
      String what = spec.isInput(c.index) ? "input '" + c.name + "'" : "stream '" + c.name + "'";
      throw new EvalError(what + " is declared " + t + " but got a value of type "
          + TypeCheck.describe(c));
    }
  }

  /** Generated code: reads one input into its cell and checks it ({@code t} may be null). */
  public void readInput(StreamCell c, Row input, int slot, TypeCheck.Compiled t) {
    c.overwriting(input.kind(slot));
    c.setFromRow(input, slot);
    if (c.tag == Kind.FUNCTION || (t != null && !t.matches(c))) {
      current = c.index;
      if (c.tag == Kind.FUNCTION) {
        throw new EvalError("an input cannot carry a function");
      }
      checkType(c);
    }
  }

  /** Checks that no output holds a function value (also called by generated code). */
  public void checkOutputs() {
    for (StreamCell c : untypedOutputs) {
      if (c.tag == Kind.FUNCTION) {
        current = c.index;
        throw new EvalError("an output cannot carry a function");
      }
    }
  }

  /**
   * Evaluates a computed stream now unless it already was this tick (dynamic bodies, and the
   * generated code of their reads).
   */
  public void ensureEvaluated(StreamCell c) {
    if (c.root == null || !enter(c)) {
      return;
    }
    int outer = current;
    try {
      for (StreamCell d : c.sameTick) {
        ensureEvaluated(d); // what c reads this tick comes first (order repair, cycles)
      }
      current = c.index;
      Node root = c.root;
      root.eval();
      c.overwriting(root.tag);
      c.set(root);
      if (checkedTypes[c.index] != null) {
        checkType(c);
      }
    } catch (EvalError e) {
      // An if may swallow this error (unselected branch); a later error must then name the
      // stream really being evaluated, so 'current' goes back and the error names its own.
      // Any other failure ends the tick and leaves 'current' naming the failing stream.
      current = outer;
      abandon(c);
      throw e.raisedIn(c.name);
    } catch (RuntimeException | Error e) {
      abandon(c);
      throw e;
    }
    leave(c);
    current = outer;
  }

  /**
   * Starts evaluating a computed stream this tick (interpreter and generated code alike): false
   * when it already was, a dynamic cycle error when it is in progress.
   */
  public boolean enter(StreamCell c) {
    if (c.evaluatedAt == tick) {
      return false;
    }
    if (c.inProgress) {
      throw new EvalError(cycleMessage(c));
    }
    c.inProgress = true;
    if (evaluating[depth] != c) {
      evaluating[depth] = c; // the same stream at the same depth every tick: skip the GC barrier
    }
    depth++;
    return true;
  }

  /** Ends a stream's evaluation this tick (interpreter and generated code alike). */
  public void leave(StreamCell c) {
    c.inProgress = false;
    depth--;
    c.evaluatedAt = tick;
  }

  private void abandon(StreamCell c) {
    c.inProgress = false;
    depth--;
  }

  private String cycleMessage(StreamCell c) {
    List<String> path = new ArrayList<>();
    boolean on = false;
    for (int i = 0; i < depth; i++) {
      StreamCell v = evaluating[i];
      if (v == c) {
        on = true;
      }
      if (on) {
        path.add(v.name);
      }
    }
    path.add(c.name);
    return "dynamic same-tick dependency cycle: " + String.join(" -> ", path);
  }

  /** A dynamic property installed a new body (the monitor's revision counts them). */
  void bodyInstalled() {
    bodyInstalled.run();
  }
}
