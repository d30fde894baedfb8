package io.dataflow.monitor;

import io.dataflow.core.Kind;
import io.dataflow.core.spi.RevisionedMonitor;
import io.dataflow.core.MonitorException;
import io.dataflow.core.MonitorRevision;
import io.dataflow.core.Row;
import io.dataflow.core.TickColumns;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The stateful evaluator of a {@link DataflowProgram}: each {@link #evaluate(Row, Row)} is one
 * logical tick (docs/language.md#first-spec; failures: docs/language.md#runtime-errors).
 *
 * <p>A tick reads one value per input (NoVal when not supplied), evaluates every computed
 * stream once in dependency order, commits history once the whole row succeeded, and writes
 * one value per output. Scalars stay in primitive slots, so a tick of a scalar specification
 * allocates nothing. A runtime error poisons the monitor: the failing row is neither committed
 * nor emitted, and every later call throws the same {@link MonitorException}.
 *
 * <h2>Implementation note</h2>
 * Every stream has a {@link Nodes.Cell} holding its current value; every computed stream has
 * a root {@link Node} built from its equation. References read cells, {@code name[n]} reads
 * the stream's {@link HistoryRing}. Dynamic properties may read computed streams that the
 * static order evaluates later: those are evaluated on demand ({@link #ensureEvaluated}),
 * which both repairs the order for the tick and detects dynamic cycles. A stream evaluated on
 * demand first evaluates its own static same-tick inputs the same way, so the repair is
 * transitive and a cycle closed through a static reference is seen.
 *
 * <p>Thread-safety: owner thread only.
 */
public final class DataflowMonitor implements RevisionedMonitor {
  /**
   * Monitor options.
   *
   * @param dynamicCacheSize how many compiled dynamic-property bodies are cached by text
   * @param firstTick the number of the first tick (a replacement monitor continues the count)
   * @param fusion when the monitor switches from interpreting its nodes to straight-line code
   *     generated for them ({@link Fusion}); the system property
   *     {@code dataflow.monitor.fused} ({@code false}, {@code eager}) changes the default
   */
  public record Options(int dynamicCacheSize, long firstTick, Fusion fusion) {
    /** The defaults: a cache of 256 bodies, ticks from 0, fusion in the background. */
    public static final Options DEFAULT = new Options(256, 0, Fusion.fromProperty(
        System.getProperty("dataflow.monitor.fused")));

    /** Validates the options. */
    public Options {
      if (dynamicCacheSize < 1) {
        throw new IllegalArgumentException("dynamicCacheSize must be at least 1: "
            + dynamicCacheSize);
      }
      if (firstTick < 0) {
        throw new IllegalArgumentException("firstTick must not be negative: " + firstTick);
      }
      Objects.requireNonNull(fusion, "fusion");
    }

    /** These options with another first tick. */
    public Options withFirstTick(long tick) {
      return new Options(dynamicCacheSize, tick, fusion);
    }

    /** These options with another fusion mode. */
    public Options withFusion(Fusion value) {
      return new Options(dynamicCacheSize, firstTick, value);
    }

    /** These options with generated code from the start ({@code true}) or never. */
    public Options withFused(boolean value) {
      return withFusion(value ? Fusion.EAGER : Fusion.OFF);
    }
  }

  /**
   * When a monitor gets straight-line code generated for its nodes. The nodes keep all state
   * and semantics either way, so the switch is invisible except in speed.
   */
  public enum Fusion {
    /** Always interpret (for debugging; the reference the generated code is tested against). */
    OFF,
    /** Generate the code when the monitor is created (costs milliseconds for big programs). */
    EAGER,
    /**
     * Interpret first; after {@link #BACKGROUND_AFTER_TICKS} ticks, generate the code on a
     * background thread and switch to it at a tick boundary (the default: creating a monitor
     * and a reconfiguration stay fast; long runs get the fast path).
     */
    BACKGROUND;

    /** The ticks a monitor runs interpreted before its code is generated in the background. */
    public static final int BACKGROUND_AFTER_TICKS = 1024;

    static Fusion fromProperty(String value) {
      if ("false".equals(value) || "off".equals(value)) {
        return OFF;
      }
      return "eager".equals(value) || "true".equals(value) ? EAGER : BACKGROUND;
    }
  }

  final DataflowProgram program;
  /** One cell per stream, in declaration order. */
  final StreamCell[] cells;
  final DynamicBodies bodies;
  private final StreamCell[] order;
  private final StreamCell[] inputCells;
  private final StreamCell[] outputCells;
  /** The typed handles of the inputs and outputs, in slot order (see {@link #step()}). */
  private final MonitorInput[] inputHandles;
  private final MonitorOutput[] outputHandles;
  private final StreamCell[] untypedOutputs;
  private final StreamCell[] ringCells;
  private final StreamCell[] committing;
  private final TypeCheck.Compiled[] checkedTypes;
  private final boolean hasDynamic;
  /** The streams a dynamic body can evaluate out of order (see repairable()), or null. */
  private final boolean[] repairable;
  /** The tick path: generated code, or {@link Interpreted} until it exists (owner thread). */
  private FusedStreams fused;
  /** Generated on a background thread, installed by the owner at a tick boundary. */
  private volatile FusedStreams pendingFused;
  private final Fusion fusion;
  private final long firstTick;
  private boolean fusionRequested;
  private final boolean[] checkedStreams;

  // On-demand evaluation for dynamic bodies (owner thread only).
  /** The streams being evaluated, innermost last (a dynamic body can nest them). */
  private final StreamCell[] evaluating;
  private int depth;

  private long tick;
  /** The index of the stream being evaluated, or -1 (a primitive: no GC barrier per store). */
  private int current = -1;
  private MonitorException failure;
  /** The batch tick at which generated batch code failed, or -1 (see failedInBatch). */
  private int batchFailedAt = -1;
  /** Ticks evaluated by generated batch loops so far (for tests and diagnostics). */
  long loopTicks;
  /** Batches evaluated by the dense variant of the loop (for tests and diagnostics). */
  long denseBatches;
  /** Rows for the ticks of a batch that take the per-tick path (created on first use). */
  private Row batchIn;
  private Row batchOut;
  private MonitorRevision revision = MonitorRevision.INITIAL;
  private boolean retired;

  private DataflowMonitor(DataflowProgram program, Options options) {
    this(program, options, null, null, null);
  }

  /**
   * Builds a monitor; with a donor, takes over the donor's stream cells by name (history
   * resized or cleared as {@code mapping} says) and the root nodes of exactly matching streams.
   */
  private DataflowMonitor(DataflowProgram program, Options options, DataflowMonitor donor,
      TransferMapping mapping, List<List<String>> report) {
    this.program = program;
    int n = program.streams().size();
    this.tick = options.firstTick();
    this.firstTick = options.firstTick();
    this.cells = new StreamCell[n];
    this.evaluating = new StreamCell[n];
    this.checkedTypes = new TypeCheck.Compiled[n];
    this.hasDynamic = program.hasDynamic;
    boolean[] keepState = new boolean[n];
    for (int i = 0; i < n; i++) {
      String name = program.streams().get(i).name();
      int depth = program.checked.historyDepth()[i];
      StreamCell old = donor == null ? null : donor.cellNamed(name);
      if (old == null) {
        cells[i] = new StreamCell(name, i, this);
        cells[i].ring = depth > 0 ? new HistoryRing(depth) : null;
      } else {
        TransferMapping.StreamTransfer t = mapping.streams().get(i);
        cells[i] = adopt(old, i, depth, t, report);
        keepState[i] = t.keepState();
      }
      boolean typedInput = program.streams().get(i).role() == DataflowProgram.Role.INPUT
          && !program.streamTypes[i].isAny();
      if (typedInput || program.needsCheck[i]) {
        checkedTypes[i] = new TypeCheck.Compiled(program.streamTypes[i]);
      }
    }
    this.bodies = hasDynamic ? new DynamicBodies(this, options.dynamicCacheSize()) : null;
    this.order = new StreamCell[program.evaluationOrder().size()];
    int k = 0;
    for (int i : program.checked.order()) {
      if (program.checked.streams().get(i).equation() != null) {
        order[k++] = cells[i];
      }
    }
    if (hasDynamic) {
      // A body may evaluate a stream ahead of the static order; that stream's own same-tick
      // inputs must then be evaluated first (the repair is transitive), whichever program
      // built its nodes.
      for (StreamCell c : cells) {
        java.util.BitSet deps = program.checked.sameTickDeps().get(c.index);
        StreamCell[] before = new StreamCell[deps.cardinality()];
        int j = 0;
        for (int d = deps.nextSetBit(0); d >= 0; d = deps.nextSetBit(d + 1)) {
          before[j++] = cells[d];
        }
        c.sameTick = before;
      }
    } else {
      for (StreamCell c : cells) {
        c.sameTick = StreamCell.NONE;
      }
    }
    this.inputCells = pick(program.inputIndex);
    this.outputCells = pick(program.outputIndex);
    this.inputHandles = new MonitorInput[inputCells.length];
    for (int i = 0; i < inputCells.length; i++) {
      inputHandles[i] = new MonitorInput(this, inputCells[i].name,
          checkedTypes[inputCells[i].index]);
    }
    this.outputHandles = new MonitorOutput[outputCells.length];
    for (int i = 0; i < outputCells.length; i++) {
      outputHandles[i] = new MonitorOutput(this, outputCells[i]);
    }
    // Only an output of unknown static type in a program with lambdas can hold a function.
    this.untypedOutputs = !program.hasLambda ? new StreamCell[0]
        : java.util.Arrays.stream(outputCells)
            .filter(c -> program.streamTypes[c.index].isAny()).toArray(StreamCell[]::new);
    if (donor != null && donor.bodies != null) {
      donor.bodies.monitor = this; // kept bodies now read this monitor's cells
    }
    for (StreamCell c : order) {
      if (keepState[c.index] && c.root != null) {
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
      if (report != null) {
        report.get(1).add(c.name);
      }
    }
    for (StreamCell c : inputCells) {
      c.root = null;
      c.commits.clear();
    }
    this.ringCells = java.util.Arrays.stream(cells).filter(c -> c.ring != null)
        .toArray(StreamCell[]::new);
    // Lambda call sites register their instances' state lazily, so they commit too.
    for (StreamCell c : cells) {
      c.commitsGrow = c.root != null && Compiler.containsCallSite(
          program.checked.streams().get(c.index).equation().expr());
    }
    this.committing = java.util.Arrays.stream(cells)
        .filter(c -> !c.commits.isEmpty() || c.commitsGrow)
        .toArray(StreamCell[]::new);
    boolean[] checked = new boolean[n];
    for (int i = 0; i < n; i++) {
      checked[i] = checkedTypes[i] != null;
    }
    this.checkedStreams = checked;
    // Here, on the owner thread, once every root (and so every dynamic node) is built.
    this.repairable = hasDynamic ? repairable() : null;
    this.fusion = options.fusion();
    FusedStreams generated = fusion == Fusion.EAGER ? generate() : null;
    this.fused = generated != null ? generated : new Interpreted();
    this.fusionRequested = fusion != Fusion.BACKGROUND;
  }

  /** Takes over a donor's cell: the nodes that read it keep working. */
  private StreamCell adopt(StreamCell old, int index, int depth,
      TransferMapping.StreamTransfer t, List<List<String>> report) {
    old.owner = this;
    old.index = index;
    old.evaluatedAt = -1;
    old.inProgress = false;
    if (!t.keepHistory() && old.ring != null) {
      old.ring.clear();
    }
    if (depth == 0) {
      old.ring = null;
    } else if (old.ring == null) {
      old.ring = new HistoryRing(depth);
    } else {
      old.ring.resize(depth);
      if (report != null && old.ring.size() > 0) {
        report.get(2).add(old.name);
      }
    }
    boolean input = program.streams().get(index).role() == DataflowProgram.Role.INPUT;
    if (!(t.keepHistory() && (input || t.keepState()))) {
      // Run-long memories move for inputs and exact matches only. The cell's value of the last
      // tick goes too: it is the run's last present value while nothing replaced it.
      old.forgetPresent();
    }
    if (!t.keepState()) {
      old.root = null;
    }
    return old;
  }

  private StreamCell cellNamed(String name) {
    Integer i = program.checked.byName().get(name);
    return i == null ? null : cells[i];
  }

  private StreamCell[] pick(int[] indices) {
    StreamCell[] out = new StreamCell[indices.length];
    for (int i = 0; i < indices.length; i++) {
      out[i] = cells[indices[i]];
    }
    return out;
  }

  /** Creates a monitor for a program with default options. */
  public static DataflowMonitor create(DataflowProgram program) {
    return create(program, Options.DEFAULT);
  }

  /** Creates a monitor for a program. */
  public static DataflowMonitor create(DataflowProgram program, Options options) {
    return new DataflowMonitor(Objects.requireNonNull(program, "program"),
        Objects.requireNonNull(options, "options"));
  }

  /**
   * Replaces {@code donor} by a monitor for {@code target} that keeps the donor's state as
   * {@code mapping} says ({@code Transfer}, docs/reconfiguration.md#state-transfer): histories move
   * by name and declared type, resized to the new depth; exactly matching streams keep their
   * operator state. The tick count continues. The donor is retired: it may not be used again.
   *
   * @throws IllegalStateException when the donor failed or was already retired
   */
  public static Transition transfer(DataflowMonitor donor, DataflowProgram target,
      TransferMapping mapping, Options options) {
    donor.requireHealthy();
    List<List<String>> report = List.of(new ArrayList<>(), new ArrayList<>(),
        new ArrayList<>());
    DataflowMonitor next = new DataflowMonitor(target, options.withFirstTick(donor.tick), donor,
        mapping, report);
    next.revision = donor.revision.nextRoot();
    donor.retired = true;
    return new Transition(next, new ContextTransferReport(report.get(0), report.get(1),
        report.get(2)));
  }

  /**
   * Replaces {@code donor} by a fresh monitor for {@code target} ({@code InstallCold}): no
   * state moves; the tick count and the revision continue.
   */
  public static Transition coldStart(DataflowMonitor donor, DataflowProgram target,
      Options options) {
    DataflowMonitor next = new DataflowMonitor(target, options.withFirstTick(donor.tick));
    next.revision = donor.revision.nextRoot();
    donor.retired = true;
    List<String> computed = new ArrayList<>();
    for (DataflowProgram.StreamDefinition s : target.streams()) {
      if (s.role() != DataflowProgram.Role.INPUT) {
        computed.add(s.name());
      }
    }
    return new Transition(next, new ContextTransferReport(List.of(), computed, List.of()));
  }

  /**
   * Keeps this monitor for a program with the same definition key ({@code RetainExact}):
   * nothing is rebuilt and all state stays; the root revision advances. When the new program
   * declares its streams in another order, the state moves wholesale to a monitor that follows
   * the new order (outputs print in the latest declaration order).
   */
  public static Transition retainExact(DataflowMonitor active, DataflowProgram target,
      Options options) {
    active.requireHealthy();
    if (!active.program.definitionKey().equals(target.definitionKey())) {
      throw new IllegalArgumentException("RetainExact needs the same definition key");
    }
    List<String> order = target.streams().stream()
        .map(DataflowProgram.StreamDefinition::name).toList();
    List<String> current = active.program.streams().stream()
        .map(DataflowProgram.StreamDefinition::name).toList();
    if (order.equals(current)) {
      active.revision = active.revision.nextRoot();
      return new Transition(active, ContextTransferReport.retainedAll(active.program));
    }
    Transition t = transfer(active, target, TransferMapping.plan(active.program, target), options);
    return new Transition(t.monitor(), ContextTransferReport.retainedAll(target));
  }

  /**
   * The result of a reconfiguration of the monitor.
   *
   * @param monitor the monitor to use from now on
   * @param report what moved
   */
  public record Transition(DataflowMonitor monitor, ContextTransferReport report) {}

  private void requireHealthy() {
    if (retired) {
      throw new IllegalStateException("this monitor was replaced and may not be used");
    }
    if (failure != null) {
      throw new IllegalStateException("a failed monitor has no state to transfer: "
          + failure.getMessage());
    }
  }

  Node buildRoot(int stream) {
    StreamCell owner = cells[stream];
    NodeBuilder builder = new NodeBuilder(program.checked.byName(), program.types,
        new TopLevelStreams(owner), owner.commits, new Functions());
    return builder.build(program.checked.streams().get(stream).equation().expr(),
        NodeBuilder.Locals.NONE);
  }

  /** Top-level references: stream cells and shared rings. */
  private final class TopLevelStreams implements NodeBuilder.Streams {
    private final StreamCell owner;

    TopLevelStreams(StreamCell owner) {
      this.owner = owner;
    }

    @Override
    public Node current(int stream, Ast.Var at) {
      return cells[stream];
    }

    @Override
    public Node history(int stream, int offset) {
      return new TemporalNodes.HistoryRead(cells[stream].ring, offset);
    }

    @Override
    public Node dynamic(Ast.Dynamic d, Node source) {
      DynamicNode node = new DynamicNode(d, source, owner);
      owner.commits.add(node);
      return node;
    }
  }

  /** The program this monitor evaluates. */
  public DataflowProgram program() {
    return program;
  }

  @Override
  public RowLayout inputs() {
    return program.inputs();
  }

  @Override
  public RowLayout outputs() {
    return program.outputs();
  }

  @Override
  public long nextTick() {
    return tick;
  }

  @Override
  public MonitorException failure() {
    return failure;
  }

  /** The revision: root requests accepted and dynamic bodies installed so far. */
  @Override
  public MonitorRevision revision() {
    return revision;
  }

  void bodyInstalled() {
    revision = new MonitorRevision(revision.root(), revision.properties() + 1);
  }

  @Override
  public void evaluate(Row input, Row output) {
    // The fast path is kept small so the JIT can inline the whole tick into the caller.
    if (failure == null && !retired && input.width() == inputCells.length
        && output.width() == outputCells.length) {
      try {
        fused.run(input, output);
      } catch (Throwable e) {
        throw failed(e);
      }
      tick++; // 'current' is -1 after every tick that succeeded: no store
      return;
    }
    refuseTick();
    // A row of the wrong width is the caller's mistake, not a runtime error of the spec: it
    // must neither poison the monitor nor fail after the tick was committed (output rows are
    // written last).
    requireWidth(input, inputCells.length, "input");
    requireWidth(output, outputCells.length, "output");
  }

  /**
   * Evaluates the ticks of a batch in columns, in order: the same ticks as
   * {@code input.size()} calls of {@link #evaluate(Row, Row)}, one per tick of the batch, with
   * tick {@code t}'s outputs in {@code output} at {@code t}. For specifications of typed scalar
   * inputs, typed scalar operators, history reads of scalar streams and {@code default},
   * generated code evaluates the batch as one loop with the streams' state in registers (see
   * docs/performance.md), fastest when every input of the batch is present; every other
   * specification, and any tick the loop does not cover, goes through the per-tick path.
   *
   * <p>When tick {@code t} fails, the ticks before it were evaluated and their outputs written,
   * {@code output.size()} is {@code t}, and the monitor is failed as with {@code evaluate}.
   *
   * @throws MonitorException when a tick fails
   * @throws IllegalArgumentException when a width does not match the program, or the output
   *     columns cannot hold the batch (the monitor stays as it was)
   * @throws IllegalStateException when the monitor was replaced by a reconfiguration
   */
  public void evaluate(TickColumns input, TickColumns output) {
    refuseTickIfUnhealthy();
    if (input.width() != inputCells.length || output.width() != outputCells.length) {
      throw new IllegalArgumentException("columns of widths " + input.width() + " and "
          + output.width() + " for a program with " + inputCells.length + " inputs and "
          + outputCells.length + " outputs");
    }
    int n = input.size();
    if (output.capacity() < n) {
      throw new IllegalArgumentException("output columns hold " + output.capacity()
          + " ticks, the batch has " + n);
    }
    for (int j = 0; j < outputCells.length; j++) {
      output.clearReferences(j, 0, n); // the loop writes kinds and payloads only
    }
    int done = 0;
    try {
      while (done < n) {
        int from = done;
        int reached = fused.batch(input, output, from, n);
        int until = from + 1; // when the loop did nothing: the ticks to evaluate one by one
        if (reached < 0) {
          until = Math.min(n, ~reached);
          reached = from;
        }
        tick += reached - done;
        loopTicks += reached - done;
        done = reached;
        // Else the loop stopped early for the dense loop: it is offered the rest.
        while (reached == from && done < until) {
          if (batchIn == null) {
            batchIn = new Row(inputCells.length);
            batchOut = new Row(outputCells.length);
          }
          input.copyTo(done, batchIn);
          fused.run(batchIn, batchOut);
          output.copyFrom(batchOut, done);
          tick++;
          done++;
        }
      }
    } catch (Throwable e) {
      if (batchFailedAt >= 0) {
        tick += batchFailedAt - done;
        loopTicks += batchFailedAt - done;
        done = batchFailedAt;
        batchFailedAt = -1;
      }
      output.setSize(done);
      throw failed(e);
    }
    output.setSize(n);
  }

  /** Throws why this monitor may not evaluate a tick, if it may not. */
  private void refuseTickIfUnhealthy() {
    if (failure != null || retired) {
      refuseTick();
    }
  }

  /**
   * Evaluates one tick from the values staged in the {@link #input(String) input handles}
   * (an input not set since the previous step is NoVal) and leaves the outputs in the
   * {@link #output(String) output handles}. The same tick as {@link #evaluate(Row, Row)} with a
   * row holding the staged values, without the rows: the typed fast path for callers that know
   * their inputs. The staged values are taken even when the tick fails.
   *
   * @throws MonitorException when the tick fails (the monitor is then failed, as with
   *     {@code evaluate})
   * @throws IllegalStateException when the monitor was replaced by a reconfiguration
   */
  public void step() {
    if (failure == null && !retired) {
      try {
        fused.step();
      } catch (Throwable e) {
        throw failed(e);
      }
      tick++;
      return;
    }
    refuseTick();
  }

  /** Throws why this monitor may not evaluate a tick (failed, or replaced). */
  private void refuseTick() {
    if (failure != null) {
      throw failure;
    }
    if (retired) {
      throw new IllegalStateException("this monitor was replaced and may not be used");
    }
  }

  private FusedStreams generate() {
    return FusedCompiler.compile(this, order, checkedStreams, inputCells, checkedTypes,
        inputHandles, outputCells, ringCells, committing, repairable);
  }

  /**
   * The computed streams a dynamic body may evaluate ahead of the static order: those in some
   * property's scope, and what they read in the same tick (the repair is transitive). Only
   * these need to track, per tick, whether they were evaluated; no body can reach the others,
   * so they run once each in the static order. With lambdas every computed stream: a
   * {@code dynamic} inside a lambda is built at the call site's first call, and a closure
   * (reached through history, say) reads streams outside the body's scope.
   */
  private boolean[] repairable() {
    boolean[] repairable = new boolean[cells.length];
    if (program.hasLambda) {
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

  /**
   * The tick path until generated code replaces it (for good with {@link Fusion#OFF}, or when
   * the JVM refuses the generated class): the interpreter behind the same {@link FusedStreams}
   * call as the generated code.
   *
   * <h2>Implementation note</h2>
   * Two things keep the JIT from compiling {@code evaluate} and {@code step} into methods too
   * big to be inlined into the caller. One call site for both stages: a separate interpreter
   * branch, taken during warm-up only, would make the generated code's call look cold. And the
   * interpreter is reached through method handles held in non-final static fields, which the
   * JIT cannot see through: inlined, the interpreter (hot while the code was being generated)
   * would make {@code evaluate}'s compiled code big.
   */
  private final class Interpreted implements FusedStreams {
    @Override
    public void run(Row input, Row output) {
      FusedStreams generated = takeGenerated();
      if (generated != null) {
        generated.run(input, output);
        return;
      }
      try {
        interpretRow.invokeExact(DataflowMonitor.this, input, output);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public int batch(TickColumns in, TickColumns out, int from, int to) {
      FusedStreams generated = takeGenerated();
      return generated != null ? generated.batch(in, out, from, to) : from;
    }

    @Override
    public void step() {
      FusedStreams generated = takeGenerated();
      if (generated != null) {
        generated.step();
        return;
      }
      try {
        interpretStaged.invokeExact(DataflowMonitor.this);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable e) {
        throw new IllegalStateException(e);
      }
    }
  }

  // Not final: see Interpreted. Set once, by the static initializer.
  private static java.lang.invoke.MethodHandle interpretRow;
  private static java.lang.invoke.MethodHandle interpretStaged;

  static {
    try {
      java.lang.invoke.MethodHandles.Lookup lookup = java.lang.invoke.MethodHandles.lookup();
      interpretRow = lookup.findVirtual(DataflowMonitor.class, "interpretRow",
          java.lang.invoke.MethodType.methodType(void.class, Row.class, Row.class));
      interpretStaged = lookup.findVirtual(DataflowMonitor.class, "interpretStaged",
          java.lang.invoke.MethodType.methodType(void.class));
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The interpreter's tick from an input row into an output row. */
  private void interpretRow(Row input, Row output) {
    readInputs(input);
    evaluateStreams();
    for (int j = 0; j < outputCells.length; j++) {
      outputCells[j].copyTo(output, j);
    }
    maybeRequestFusion();
  }

  /** The interpreter's tick from the staged values of the input handles. */
  private void interpretStaged() {
    for (int i = 0; i < inputCells.length; i++) {
      inputHandles[i].moveInto(inputCells[i]); // checked when set: nothing to check here
    }
    evaluateStreams();
    maybeRequestFusion();
  }

  /**
   * Installs the code generated in the background, if it is ready, and returns it. The switch
   * happens at a tick's start, on the owner thread.
   */
  private FusedStreams takeGenerated() {
    FusedStreams pending = pendingFused;
    if (pending != null) {
      fused = pending;
      pendingFused = null;
    }
    return pending;
  }

  /** Background fusion: asks for the code once the monitor proved long-lived. */
  private void maybeRequestFusion() {
    // Counted before this tick's increment: the ticks evaluated so far.
    if (!fusionRequested && tick + 1 - firstTick >= Fusion.BACKGROUND_AFTER_TICKS) {
      fusionRequested = true;
      FusedCompiler.inBackground(() -> pendingFused = generate());
    }
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

  /**
   * The handle of input {@code name}, to set its value for the next {@link #step()}. Each call
   * returns the same handle.
   *
   * @throws IllegalArgumentException when the program has no input of that name
   */
  public MonitorInput input(String name) {
    int slot = program.inputs().slotOf(name);
    if (slot < 0) {
      throw new IllegalArgumentException("'" + name + "' is not an input of " + program.name()
          + "; its inputs are " + program.inputs().names());
    }
    return inputHandles[slot];
  }

  /**
   * The handle of output {@code name}, to read its value after a tick. Each call returns the
   * same handle.
   *
   * @throws IllegalArgumentException when the program has no output of that name
   */
  public MonitorOutput output(String name) {
    int slot = program.outputs().slotOf(name);
    if (slot < 0) {
      throw new IllegalArgumentException("'" + name + "' is not an output of "
          + program.name() + "; its outputs are " + program.outputs().names());
    }
    return outputHandles[slot];
  }

  /** Turns what a tick threw into the monitor's failure (poisoning it) and returns it. */
  private RuntimeException failed(Throwable e) {
    if (e instanceof EvalError ev) {
      return poison(error(ev.stream() != null ? cellNamed(ev.stream()) : cellAt(current),
          ev.getMessage()));
    }
    if (e instanceof MonitorException m) {
      return poison(m);
    }
    if (e instanceof RuntimeException || e instanceof StackOverflowError) {
      MonitorException m = error(cellAt(current), "internal error: " + e);
      m.initCause(e);
      return poison(m);
    }
    if (e instanceof Error err) {
      current = -1; // not poisoned: the next tick must not name this one's stream
      throw err; // OutOfMemoryError and friends are not the specification's fault
    }
    throw new IllegalStateException(e);
  }

  /** Fused code: records the stream whose evaluation failed, then rethrows. */
  void failedIn(StreamCell c) {
    current = c.index;
  }

  /**
   * Generated batch code: the index after the last of {@code kinds[from, to)} that is not
   * {@code kind}, or {@code from} when they all are. Backwards, eight kinds per load: a quarter
   * of a dense batch's time went to this scan one byte at a time.
   */
  static int afterLastOther(byte[] kinds, int from, int to, int kind) {
    long eight = (kind & 0xffL) * 0x0101010101010101L;
    int i = to;
    for (; i - 8 >= from; i -= 8) {
      long odd = (long) EIGHT_KINDS.get(kinds, i - 8) ^ eight;
      if (odd != 0) { // little endian: the highest differing bit is in the last such kind
        return i - 8 + (63 - Long.numberOfLeadingZeros(odd)) / 8 + 1;
      }
    }
    for (; i > from; i--) {
      if (kinds[i - 1] != kind) {
        return i;
      }
    }
    return from;
  }

  private static final java.lang.invoke.VarHandle EIGHT_KINDS =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class,
          java.nio.ByteOrder.LITTLE_ENDIAN);

  /** Generated batch code: the stream and the batch's tick whose evaluation failed. */
  void failedInBatch(StreamCell c, int at) {
    current = c.index;
    batchFailedAt = at;
  }

  private StreamCell cellAt(int index) {
    return index < 0 ? null : cells[index];
  }

  /** Whether dynamic bodies that stay active get generated code. */
  boolean fusedBodies() {
    return fusion != Fusion.OFF;
  }

  /** Whether generated code is made on the caller's thread (eager) or in the background. */
  boolean fusesEagerly() {
    return fusion == Fusion.EAGER;
  }

  /** Whether a reconfiguration replaced this monitor (its handles then refuse to be read). */
  boolean isRetired() {
    return retired;
  }

  /** True when the streams run as generated code (for tests and diagnostics). */
  boolean isFused() {
    return !(fused instanceof Interpreted);
  }

  private MonitorException error(StreamCell at, String reason) {
    if (at == null) {
      return new MonitorException(tick, null, reason);
    }
    return new MonitorException(tick, at.name, reason,
        program.streams().get(at.index).location());
  }

  private MonitorException poison(MonitorException e) {
    failure = e;
    return e;
  }

  /**
   * Evaluates one tick from named inputs (an absent name is NoVal) and returns the present
   * outputs in declaration order. A convenience for tests and scripts; it boxes.
   *
   * @throws IllegalArgumentException when a name is not an input of the program
   */
  public Map<String, Value> evaluate(Map<String, Value> inputs) {
    Row in = program.inputs().newRow();
    for (Map.Entry<String, Value> e : inputs.entrySet()) {
      int slot = program.inputs().slotOf(e.getKey());
      if (slot < 0) {
        throw new IllegalArgumentException("'" + e.getKey() + "' is not an input of "
            + program.name());
      }
      in.set(slot, e.getValue());
    }
    Row out = program.outputs().newRow();
    evaluate(in, out);
    Map<String, Value> result = new LinkedHashMap<>();
    for (int i = 0; i < out.width(); i++) {
      if (out.kind(i) != Kind.NOVAL) {
        result.put(program.outputs().name(i), out.get(i));
      }
    }
    return result;
  }

  private static void requireWidth(Row row, int width, String what) {
    if (row.width() != width) {
      throw new IllegalArgumentException(what + " row has " + row.width() + " slots, the "
          + "program has " + width + " " + what + "s");
    }
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

  /** Checks a stream's value against its declared type (also called by fused code). */
  void checkType(StreamCell c) {
    TypeCheck.Compiled t = checkedTypes[c.index];
    if (!t.matches(c)) {
      String what = program.streams().get(c.index).role() == DataflowProgram.Role.INPUT
          ? "input '" + c.name + "'" : "stream '" + c.name + "'";
      throw new EvalError(what + " is declared " + t + " but got a value of type "
          + TypeCheck.describe(c));
    }
  }

  /** Fused code: reads one input into its cell and checks it ({@code t} may be null). */
  void readInput(StreamCell c, Row input, int slot, TypeCheck.Compiled t) {
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

  /** Outputs whose value may be a function (untyped ones); fused code checks them. */
  StreamCell[] untypedOutputs() {
    return untypedOutputs;
  }

  /** Checks that no output holds a function value (also called by fused code). */
  void checkOutputs() {
    for (StreamCell c : untypedOutputs) {
      if (c.tag == Kind.FUNCTION) {
        current = c.index;
        throw new EvalError("an output cannot carry a function");
      }
    }
  }

  /** The tick being evaluated (or the next one between ticks). */
  long tick() {
    return tick;
  }

  /** Evaluates a computed stream now unless it already was this tick (dynamic bodies). */
  void ensureEvaluated(StreamCell c) {
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
   * Starts evaluating a computed stream this tick (interpreter and fused code alike): false
   * when it already was, a dynamic cycle error when it is in progress.
   */
  boolean enter(StreamCell c) {
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

  /** Ends a stream's evaluation this tick. */
  void leave(StreamCell c) {
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

  @Override
  public String toString() {
    return "DataflowMonitor[" + program.name() + ", tick " + tick
        + (failure == null ? "" : ", failed: " + failure.getMessage()) + "]";
  }
}
