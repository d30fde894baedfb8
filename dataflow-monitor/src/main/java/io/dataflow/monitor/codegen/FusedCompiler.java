package io.dataflow.monitor.codegen;

import io.dataflow.monitor.eval.BodyCompiler;
import io.dataflow.monitor.eval.Committable;
import io.dataflow.monitor.eval.CompiledBody;
import io.dataflow.monitor.eval.DynamicBodies;
import io.dataflow.monitor.eval.DynamicNode;
import io.dataflow.monitor.eval.Evaluator;
import io.dataflow.monitor.eval.HistoryRing;
import io.dataflow.monitor.eval.Node;
import io.dataflow.monitor.eval.Nodes;
import io.dataflow.monitor.eval.Ops;
import io.dataflow.monitor.eval.Slot;
import io.dataflow.monitor.eval.StreamCell;
import io.dataflow.monitor.eval.TemporalNodes;
import io.dataflow.monitor.eval.TypeCheck;
import io.dataflow.monitor.eval.TypedNodes;
import io.dataflow.monitor.lang.Ast;
import io.dataflow.monitor.lang.Type;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Generates, per monitor, a class that runs one tick as straight-line code: read each input
 * into its cell; for each stream, the {@code compute()} of every node in post-order on
 * constant receivers, then the copy into the stream's cell and its type check; commit the
 * history rings and operator state; write each output.
 *
 * <h2>Implementation note</h2>
 * The node objects keep all state and all semantics; the generated code only replaces the
 * walk. Nodes and cells become {@code static final} fields of a hidden class (initialized from
 * its class data), so the JIT sees constant receivers of exact types: no virtual dispatch, no
 * pointer chasing through the tree. Opaque nodes ({@code if}, functions) are called as a unit
 * through their {@code eval()}. A failure is attributed to its stream by an exception handler
 * per stream, which costs nothing when nothing fails. One method per stream keeps every method
 * small enough for the JIT; a program too large for one class falls back to the interpreter,
 * which {@link GenerationRefused} says (nothing else is caught: a generator bug propagates).
 *
 * <p>The hidden classes are defined with this class's lookup, so they live in this package:
 * what they name in {@code io.dataflow.monitor.eval} (the node and cell classes, the fields
 * and methods they use inline, the {@link Evaluator}'s callbacks) is public. The internal names
 * in the bytecode are taken from the class literals, so they follow the classes.
 */
public final class FusedCompiler {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(
      FusedCompiler.class);
  /** Whether a dynamic body's refusal was logged at WARN already (see compileBody). */
  private static final java.util.concurrent.atomic.AtomicBoolean BODY_REFUSAL_LOGGED =
      new java.util.concurrent.atomic.AtomicBoolean();
  private static final int MAX_CONSTANTS = 20_000;
  private static final String EVALUATOR = internal(Evaluator.class);
  private static final String CELL = internal(StreamCell.class);
  private static final String SLOT = internal(Slot.class);
  private static final String NODE = internal(Node.class);
  private static final String TYPED = internal(TypedNodes.TypedBinary.class);
  private static final String DELAY_READ = internal(TemporalNodes.DelayRead.class);
  private static final String DEFAULT = internal(TemporalNodes.Default.class);
  private static final String RING = internal(HistoryRing.class);
  private static final String CHECK = internal(TypeCheck.Compiled.class);
  private static final String OPS = internal(Ops.class);
  private static final String COLUMNS = "io/dataflow/core/TickColumns";
  /** The descriptor of {@code batch} and {@code dense}: (in, out, from, to) to the tick reached. */
  private static final String BATCH = "(L" + COLUMNS + ";L" + COLUMNS + ";II)I";
  /** The names of the generated classes: in this package, as hidden classes must be. */
  private static final String GENERATED = internal(FusedStreams.class) + "$Generated";
  private static final String GENERATED_BODY = internal(FusedStreams.class) + "$GeneratedBody";

  /** Dynamic bodies get their code here (see {@link Evaluator.BodySettings}). */
  public static final BodyCompiler BODIES = new BodyCompiler() {
    @Override
    public CompiledBody compile(Node root) {
      return compileBody(root);
    }

    @Override
    public void inBackground(Runnable task) {
      FusedCompiler.inBackground(task);
    }
  };

  private FusedCompiler() {}

  /** One daemon thread generates code for every monitor of the JVM, off their owner threads. */
  private static final java.util.concurrent.ExecutorService BACKGROUND =
      java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "dataflow-fusion");
        t.setDaemon(true);
        t.setPriority(Thread.MIN_PRIORITY);
        return t;
      });

  /**
   * Runs a code generation on the background thread. What the task throws is a bug: it is
   * logged here, where it would otherwise vanish with the pool's thread. (A monitor's own
   * generation hands its failures to the owner thread instead: see DataflowMonitor.)
   */
  public static void inBackground(Runnable task) {
    BACKGROUND.execute(() -> {
      try {
        task.run();
      } catch (RuntimeException | Error e) {
        LOG.error("code generation failed on the background thread", e);
      }
    });
  }

  /**
   * The fused evaluator of {@code evaluator}'s streams in their order.
   *
   * @throws GenerationRefused when the program is too large for a generated class or the JVM
   *     refuses the class (the interpreter then runs it); any other exception is a bug
   */
  public static FusedStreams compile(Evaluator evaluator) throws GenerationRefused {
    StreamCell[] order = evaluator.order();
    boolean[] checked = evaluator.checkedStreams();
    StreamCell[] inputs = evaluator.inputCells();
    TypeCheck.Compiled[] inputChecks = evaluator.checkedTypes();
    Slot[] staged = evaluator.staged();
    StreamCell[] ringCells = evaluator.ringCells();
    StreamCell[] committing = evaluator.committing();
    Tick tick = new Tick(order, checked, inputs, inputChecks, staged,
        evaluator.outputCells(), ringCells, committing,
        evaluator.untypedOutputs().length > 0, evaluator.repairable());
    StreamCell[] outputs = tick.outputs();
    List<Object> constants = new ArrayList<>();
    Map<Object, Integer> index = new IdentityHashMap<>();
    constant(evaluator, constants, index);
    for (StreamCell c : inputs) {
      constant(c, constants, index);
      if (inputChecks[c.index] != null) {
        constant(inputChecks[c.index], constants, index);
      }
    }
    for (Slot s : staged) {
      constant(s, constants, index);
    }
    for (StreamCell c : outputs) {
      constant(c, constants, index);
    }
    for (StreamCell c : ringCells) {
      constant(c, constants, index);
      constant(c.ring, constants, index);
    }
    for (StreamCell c : committing) {
      constant(c, constants, index);
      if (commitsDirectly(c)) {
        for (Committable k : c.commits) {
          constant(k, constants, index);
        }
      }
    }
    List<List<Node>> schedules = new ArrayList<>();
    for (StreamCell c : order) {
      List<Node> schedule = new ArrayList<>();
      postOrder(c.root, schedule);
      schedules.add(schedule);
      constant(c, constants, index);
      if (checked[c.index]) {
        constant(inputChecks[c.index], constants, index); // the stream's check, run inline
      }
      constant(c.root, constants, index);
      for (Node n : schedule) {
        constant(n, constants, index);
        for (Node input : n.inputs()) {
          constant(input, constants, index); // leaves are read directly by inline code
        }
        if (n instanceof TemporalNodes.HistoryRead h && h.ring != null) {
          constant(h.ring, constants, index); // read inline too
        }
      }
    }
    requireFewConstants(constants);
    return define(FusedStreams.class, constants,
        () -> generate(tick, schedules, constants, index));
  }

  /**
   * Straight-line code for one subtree (a dynamic property's body): computes its nodes and
   * leaves the value in the root node's slot. Null when generation refuses the body
   * ({@link GenerationRefused}: the interpreter keeps running it); a bug propagates.
   */
  static CompiledBody compileBody(Node root) {
    List<Object> constants = new ArrayList<>();
    Map<Object, Integer> index = new IdentityHashMap<>();
    List<Node> schedule = new ArrayList<>();
    postOrder(root, schedule);
    constant(root, constants, index);
    for (Node n : schedule) {
      constant(n, constants, index);
      for (Node input : n.inputs()) {
        constant(input, constants, index);
      }
      if (n instanceof TemporalNodes.HistoryRead h && h.ring != null) {
        constant(h.ring, constants, index);
      }
      if (n instanceof DynamicBodies.OuterRead r) {
        constant(r.cell, constants, index); // read inline
      }
    }
    try {
      requireFewConstants(constants);
      return define(CompiledBody.class, constants, () -> bodyClass(root, schedule, constants,
          index));
    } catch (GenerationRefused e) {
      // A body has no program name to report; the interpreter keeps running it. Said once at
      // WARN (a JVM that refuses one body's class likely refuses others), then at DEBUG.
      if (BODY_REFUSAL_LOGGED.compareAndSet(false, true)) {
        LOG.warn("a dynamic property's body runs interpreted: {}", e.reason());
      } else {
        LOG.debug("a dynamic property's body runs interpreted: {}", e.reason());
      }
      return null;
    }
  }

  /** The class file of a body's generated class (see {@link #compileBody}). */
  private static byte[] bodyClass(Node root, List<Node> schedule, List<Object> constants,
      Map<Object, Integer> index) {
    String name = GENERATED_BODY;
    ClassFile cf = new ClassFile(name, "java/lang/Object", internal(CompiledBody.class));
    for (int i = 0; i < constants.size(); i++) {
      cf.field(ClassFile.ACC_STATIC | ClassFile.ACC_FINAL, fieldName(i),
          descriptor(constants.get(i)));
    }
    cf.method(ClassFile.ACC_STATIC, "<clinit>", "()V", staticInit(cf, name, constants));
    cf.method(ClassFile.ACC_PUBLIC, "<init>", "()V", constructor(cf));
    Emitter e = new Emitter(cf, name, constants, index);
    for (Node n : schedule) {
      e.node(n);
    }
    e.materialize(e.val(root));
    e.code.op(ClassFile.Code.RETURN);
    e.code.maxStack = 6;
    e.code.maxLocals = e.nextLocal;
    cf.method(ClassFile.ACC_PUBLIC, "run", "()V", e.code);
    return cf.toBytes();
  }

  /** Refuses a program whose constants would not fit one class (fields, constant pool). */
  private static void requireFewConstants(List<Object> constants) throws GenerationRefused {
    if (constants.size() > MAX_CONSTANTS) {
      throw new GenerationRefused("the program needs " + constants.size()
          + " constants, a generated class holds at most " + MAX_CONSTANTS, null);
    }
  }

  /**
   * Writes a class with {@code writer}, defines it as a hidden class whose class data is
   * {@code constants}, and returns its instance.
   *
   * <h2>Implementation note</h2>
   * Only what generation can legitimately hit becomes a {@link GenerationRefused}: code too
   * large for the class-file format, and the JVM's refusal of the class (VerifyError,
   * ClassFormatError, other linkage errors while it is defined and linked). Anything else, and
   * an {@link ExceptionInInitializerError} (the generated {@code <clinit>} only copies the
   * class data: failing there is the generator's bug), propagates: caught broadly, a
   * regression of the generator would only show as a slowdown.
   */
  private static <T> T define(Class<T> type, List<Object> constants,
      java.util.function.Supplier<byte[]> writer) throws GenerationRefused {
    Class<?> defined;
    try {
      byte[] bytes = writer.get();
      defined = MethodHandles.lookup().defineHiddenClassWithClassData(bytes,
          constants.toArray(), true).lookupClass();
    } catch (ClassFile.TooLarge e) {
      throw new GenerationRefused(e.getMessage(), e);
    } catch (ExceptionInInitializerError e) {
      throw e;
    } catch (LinkageError e) {
      // VerifyError and ClassFormatError (UnsupportedClassVersionError) are LinkageErrors.
      throw new GenerationRefused("the JVM refused the generated class: " + e, e);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("this class's lookup may not define hidden classes", e);
    }
    try {
      // Reflection rather than a method handle: invoke() would spin an adapter per class.
      return type.cast(defined.getDeclaredConstructor().newInstance());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("the generated class has no usable constructor", e);
    }
  }

  private static ClassFile.Code constructor(ClassFile cf) {
    ClassFile.Code init = new ClassFile.Code();
    init.op(ClassFile.Code.ALOAD_0);
    init.op(ClassFile.Code.INVOKESPECIAL, cf.methodRef("java/lang/Object", "<init>", "()V"));
    init.op(ClassFile.Code.RETURN);
    init.maxStack = 1;
    init.maxLocals = 1;
    return init;
  }

  private static void constant(Object o, List<Object> constants, Map<Object, Integer> index) {
    if (!index.containsKey(o)) {
      index.put(o, constants.size());
      constants.add(o);
    }
  }

  /** The nodes to compute before {@code n}'s stream has its value, children first. */
  private static void postOrder(Node n, List<Node> out) {
    if (n.isLeaf()) {
      return;
    }
    for (Node input : n.inputs()) {
      postOrder(input, out);
    }
    out.add(n);
  }

  private static String fieldName(int i) {
    return "k" + i;
  }

  private static String descriptor(Object o) {
    return "L" + o.getClass().getName().replace('.', '/') + ";";
  }

  private static String internalName(Object o) {
    return internal(o.getClass());
  }

  /** The internal (bytecode) name of a class: {@code io/dataflow/monitor/eval/Slot}. */
  private static String internal(Class<?> c) {
    return c.getName().replace('.', '/');
  }

  /** What one tick does besides the streams: inputs, checks, commit, outputs. */
  private record Tick(StreamCell[] order, boolean[] checked, StreamCell[] inputs,
      TypeCheck.Compiled[] inputChecks, Slot[] staged, StreamCell[] outputs,
      StreamCell[] ringCells, StreamCell[] committing, boolean checkOutputs,
      boolean[] repairable) {
    /** Whether the program has dynamic properties ({@code repairable} is then not null). */
    boolean dynamic() {
      return repairable != null;
    }
  }

  private static byte[] generate(Tick tick, List<List<Node>> schedules,
      List<Object> constants, Map<Object, Integer> index) {
    StreamCell[] order = tick.order();
    String name = GENERATED;
    ClassFile cf = new ClassFile(name, "java/lang/Object", internal(FusedStreams.class));
    for (int i = 0; i < constants.size(); i++) {
      cf.field(ClassFile.ACC_STATIC | ClassFile.ACC_FINAL, fieldName(i),
          descriptor(constants.get(i)));
    }
    cf.method(ClassFile.ACC_STATIC, "<clinit>", "()V", staticInit(cf, name, constants));
    cf.method(ClassFile.ACC_PUBLIC, "<init>", "()V", constructor(cf));
    ClassFile.Code run = new ClassFile.Code();
    Object monitor = constants.get(0);
    String row = "Lio/dataflow/core/Row;";
    for (int i = 0; i < tick.inputs().length; i++) {
      StreamCell c = tick.inputs()[i];
      getConstant(run, cf, name, monitor, constants, index);
      getConstant(run, cf, name, c, constants, index);
      run.op(ClassFile.Code.ALOAD_1);
      run.intConstant(cf, i);
      TypeCheck.Compiled check = tick.inputChecks()[c.index];
      if (check == null) {
        run.op(ClassFile.Code.ACONST_NULL);
      } else {
        getConstant(run, cf, name, check, constants, index);
      }
      run.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(EVALUATOR, "readInput", "(L" + CELL
          + ";" + row + "IL" + CHECK + ";)V"));
    }
    for (int s = 0; s < order.length; s++) {
      cf.method(ClassFile.ACC_STATIC, "s" + s, "()V",
          stream(cf, name, order[s], schedules.get(s),
              tick.checked()[order[s].index] ? tick.inputChecks()[order[s].index] : null,
              tick.dynamic(), tick.dynamic() && tick.repairable()[order[s].index], constants,
              index));
    }
    streamsAndCommit(run, cf, name, tick, constants, index);
    for (int j = 0; j < tick.outputs().length; j++) {
      getConstant(run, cf, name, tick.outputs()[j], constants, index);
      run.op(ClassFile.Code.ALOAD_2);
      run.intConstant(cf, j);
      run.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(CELL, "copyTo", "(" + row + "I)V"));
    }
    run.op(ClassFile.Code.RETURN);
    run.maxStack = 5;
    run.maxLocals = 3;
    cf.method(ClassFile.ACC_PUBLIC, "run", "(" + row + row + ")V", run);
    // step(): the staged values of the typed input handles instead of a row, no output row.
    ClassFile.Code step = new ClassFile.Code();
    for (int i = 0; i < tick.inputs().length; i++) {
      getConstant(step, cf, name, tick.inputs()[i], constants, index);
      getConstant(step, cf, name, tick.staged()[i], constants, index);
      step.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(CELL, "take", "(L" + SLOT + ";)V"));
    }
    streamsAndCommit(step, cf, name, tick, constants, index);
    step.op(ClassFile.Code.RETURN);
    step.maxStack = 2;
    step.maxLocals = 1;
    cf.method(ClassFile.ACC_PUBLIC, "step", "()V", step);
    ClassFile.Code batch = null;
    if (BatchEmitter.batchable(tick, (Evaluator) monitor)) {
      ClassFile.Code dense = new BatchEmitter(cf, name, tick, (Evaluator) monitor,
          schedules, constants, index).emitDense();
      if (dense != null) {
        cf.method(ClassFile.ACC_PUBLIC, "dense", BATCH, dense);
      }
      batch = new BatchEmitter(cf, name, tick, (Evaluator) monitor, schedules, constants,
          index).emit(dense != null);
      if (batch == null && dense != null) {
        // The general loop is too large for the JIT, the dense one is not (it is several times
        // smaller): dense batches still run as one loop, the others tick by tick.
        batch = new BatchEmitter(cf, name, tick, (Evaluator) monitor, schedules,
            constants, index).emitDispatchOnly();
      }
    }
    if (batch == null) {
      batch = new ClassFile.Code(); // the per-tick path does every tick
      batch.op(ClassFile.Code.ILOAD_3);
      batch.op(ClassFile.Code.IRETURN);
      batch.maxStack = 1;
      batch.maxLocals = 5;
    }
    cf.method(ClassFile.ACC_PUBLIC, "batch", BATCH, batch);
    return cf.toBytes();
  }

  /**
   * Generated batch code: the index after the last of {@code kinds[from, to)} that is not
   * {@code kind}, or {@code from} when they all are. Backwards, eight kinds per load: a quarter
   * of a dense batch's time went to this scan one byte at a time. (Package-private: the
   * generated classes live in this package.)
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
      MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

  /**
   * The loop over a batch of ticks in columns ({@link FusedStreams#batch}) for the programs it
   * covers: typed scalar inputs, and computed streams made only of typed scalar operators
   * ({@link TypedNodes}) whose operands have the operator's own static kind, history reads of
   * scalar streams and {@code default}; no dynamic property, no operator state to commit. Every
   * value of a tick then is NoVal, Deferred or of its static kind, so the language's semantics
   * fit in locals: each stream's value, each operator's two lifting memories, each history
   * read's last result, each ring's samples (a shift register) and each input's run-long last
   * present value live in locals for the whole batch and go back into their objects when the
   * loop ends (or leaves a tick to the per-tick path). Only the output columns are written per
   * tick. A dense batch (every input present with its declared kind, every ring full of
   * present samples) runs a second loop that keeps payloads only.
   */
  private static final class BatchEmitter {
    /** Beyond this many bytes the JIT would not compile the method: the per-tick path runs. */
    private static final int MAX_CODE = 7000;
    private final ClassFile cf;
    private final String name;
    private final Tick tick;
    private final Evaluator monitor;
    private final List<List<Node>> schedules;
    private final List<Object> constants;
    private final Map<Object, Integer> index;
    private final ClassFile.Code code = new ClassFile.Code();
    /** The locals of each value: cells and typed nodes, {tag, bits}. */
    private final Map<Node, int[]> locals = new IdentityHashMap<>();
    /** The lifting memories of each typed node: {leftTag, leftBits, rightTag, rightBits}. */
    private final Map<Node, int[]> held = new IdentityHashMap<>();
    /** The memory of each history read (its last result) and default: {tag, bits}. */
    private final Map<Node, int[]> memory = new IdentityHashMap<>();
    /** Each ring's samples: {size, tag1, bits1, tag2, bits2, ...}, newest first. */
    private final Map<HistoryRing, int[]> history = new IdentityHashMap<>();
    private int next = 6; // this, in, out, from, to, i

    BatchEmitter(ClassFile cf, String name, Tick tick, Evaluator monitor,
        List<List<Node>> schedules, List<Object> constants, Map<Object, Integer> index) {
      this.cf = cf;
      this.name = name;
      this.tick = tick;
      this.monitor = monitor;
      this.schedules = schedules;
      this.constants = constants;
      this.index = index;
    }

    static boolean batchable(Tick tick, Evaluator monitor) {
      if (tick.dynamic() || tick.committing().length > 0 || tick.checkOutputs()) {
        return false;
      }
      for (StreamCell c : tick.ringCells()) {
        if (kindOf(c, monitor) < 0) {
          return false; // history of references does not fit in locals
        }
      }
      for (StreamCell c : tick.inputs()) {
        if (kindOf(c, monitor) < 0 || tick.inputChecks()[c.index] == null) {
          return false;
        }
      }
      for (StreamCell c : tick.order()) {
        if (tick.checked()[c.index] || kindOf(c, monitor) < 0 || !covered(c.root, monitor)) {
          return false;
        }
      }
      return true;
    }

    /** The static scalar kind of a value (Bool, Int, Float), or -1. */
    private static int kindOf(Node n, Evaluator monitor) {
      if (n instanceof StreamCell c) {
        Type t = monitor.spec().streamType(c.index);
        return t.equals(Type.INT) ? io.dataflow.core.Kind.INT
            : t.equals(Type.FLOAT) ? io.dataflow.core.Kind.FLOAT
            : t.equals(Type.BOOL) ? io.dataflow.core.Kind.BOOL : -1;
      }
      if (n instanceof Nodes.Const k) {
        return k.tag == io.dataflow.core.Kind.INT || k.tag == io.dataflow.core.Kind.FLOAT
            || k.tag == io.dataflow.core.Kind.BOOL ? k.tag : -1;
      }
      if (n instanceof TypedNodes.IntArith) {
        return io.dataflow.core.Kind.INT;
      }
      if (n instanceof TemporalNodes.HistoryRead h) {
        StreamCell c = ringOwner(h, monitor);
        return c == null ? -1 : kindOf(c, monitor);
      }
      if (n instanceof TemporalNodes.Default d) {
        int k = kindOf(d.value, monitor);
        return k == kindOf(d.fallback, monitor) ? k : -1;
      }
      return n instanceof TypedNodes.NumCompare || n instanceof TypedNodes.BoolLogic
          ? io.dataflow.core.Kind.BOOL : -1;
    }

    /** The stream whose shared ring a history read reads, or null. */
    private static StreamCell ringOwner(TemporalNodes.HistoryRead h, Evaluator monitor) {
      for (StreamCell c : monitor.cells()) {
        if (c.ring != null && c.ring == h.ring) {
          return c;
        }
      }
      return null;
    }

    private static boolean covered(Node n, Evaluator monitor) {
      if (n instanceof StreamCell || n instanceof Nodes.Const
          || n instanceof TemporalNodes.HistoryRead) {
        return kindOf(n, monitor) >= 0;
      }
      if (n instanceof TemporalNodes.Default d) {
        return kindOf(d, monitor) >= 0 && covered(d.value, monitor)
            && covered(d.fallback, monitor);
      }
      if (!(n instanceof TypedNodes.TypedBinary t)) {
        return false;
      }
      int l = kindOf(t.left, monitor);
      if (l < 0 || l != kindOf(t.right, monitor)) {
        return false;
      }
      boolean kinds = t instanceof TypedNodes.IntArith ? l == io.dataflow.core.Kind.INT
          : t instanceof TypedNodes.BoolLogic ? l == io.dataflow.core.Kind.BOOL
          : l == io.dataflow.core.Kind.INT || l == io.dataflow.core.Kind.FLOAT;
      return kinds && covered(t.left, monitor) && covered(t.right, monitor);
    }

    private int local(int size) {
      int at = next;
      next += size;
      return at;
    }

    private void get(Object o) {
      getConstant(code, cf, name, o, constants, index);
    }

    /**
     * The method's code, or null when it would be too large for the JIT. With {@code dense},
     * a batch whose every input is of its declared kind on every tick, with every ring full of
     * samples of its kind, goes to the {@link #emitDense dense} loop instead.
     */
    ClassFile.Code emit(boolean dense) {
      StreamCell[] inputs = tick.inputs();
      StreamCell[] outputs = tick.outputs();
      if (dense) {
        denseDispatch();
      }
      int[][] inArrays = new int[inputs.length][];
      int[] inKind = new int[inputs.length];
      int[][] lastPresent = new int[inputs.length][];
      for (int j = 0; j < inputs.length; j++) {
        inArrays[j] = new int[] {local(1), local(1)};
        inKind[j] = local(1);
        lastPresent[j] = new int[] {local(1), local(2)};
        columns(1, j, inArrays[j]);
      }
      int[][] outArrays = new int[outputs.length][];
      for (int j = 0; j < outputs.length; j++) {
        outArrays[j] = new int[] {local(1), local(1)};
        columns(2, j, outArrays[j]);
      }
      // Prologue: the state into locals.
      List<StreamCell> cells = new ArrayList<>(List.of(inputs));
      cells.addAll(List.of(tick.order()));
      for (StreamCell c : cells) {
        int[] v = {local(1), local(2)};
        locals.put(c, v);
        get(c);
        code.op(ClassFile.Code.GETFIELD, cf.fieldRef(SLOT, "tag", "B"));
        code.local(ClassFile.Code.ISTORE, v[0]);
        get(c);
        code.op(ClassFile.Code.GETFIELD, cf.fieldRef(SLOT, "bits", "J"));
        code.local(ClassFile.Code.LSTORE, v[1]);
      }
      for (int j = 0; j < inputs.length; j++) {
        get(inputs[j]);
        code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(CELL, "lastPresent",
            "()L" + SLOT + ";"));
        code.op(ClassFile.Code.DUP);
        code.op(ClassFile.Code.GETFIELD, cf.fieldRef(SLOT, "tag", "B"));
        code.local(ClassFile.Code.ISTORE, lastPresent[j][0]);
        code.op(ClassFile.Code.GETFIELD, cf.fieldRef(SLOT, "bits", "J"));
        code.local(ClassFile.Code.LSTORE, lastPresent[j][1]);
      }
      for (List<Node> schedule : schedules) {
        for (Node n : schedule) {
          if (n instanceof TypedNodes.TypedBinary t) {
            int[] h = {local(1), local(2), local(1), local(2)};
            held.put(t, h);
            for (int side = 0; side < 2; side++) {
              String suffix = side == 0 ? "Left" : "Right";
              get(t);
              code.op(ClassFile.Code.GETFIELD, cf.fieldRef(TYPED, "held" + suffix + "Tag",
                  "B"));
              code.local(ClassFile.Code.ISTORE, h[2 * side]);
              get(t);
              code.op(ClassFile.Code.GETFIELD, cf.fieldRef(TYPED, "held" + suffix, "J"));
              code.local(ClassFile.Code.LSTORE, h[2 * side + 1]);
            }
          } else {
            // A history read's last result, a default's lifting memory: one slot each.
            int[] m = {local(1), local(2)};
            memory.put(n, m);
            memorySlot(n);
            code.op(ClassFile.Code.DUP);
            code.op(ClassFile.Code.GETFIELD, cf.fieldRef(SLOT, "tag", "B"));
            code.local(ClassFile.Code.ISTORE, m[0]);
            code.op(ClassFile.Code.GETFIELD, cf.fieldRef(SLOT, "bits", "J"));
            code.local(ClassFile.Code.LSTORE, m[1]);
          }
          locals.put(n, new int[] {local(1), local(2)});
        }
      }
      loadRings(true);
      ClassFile.Code.Label end = new ClassFile.Code.Label();
      ClassFile.Code.Label bail = new ClassFile.Code.Label();
      ClassFile.Code.Label loop = loopHead(end);
      // Each input's kind must be NoVal, Deferred or the declared one; anything else (a type
      // error among them) is left to the per-tick path, before this tick changed anything.
      for (int j = 0; j < inputs.length; j++) {
        ClassFile.Code.Label ok = new ClassFile.Code.Label();
        code.local(ClassFile.Code.ALOAD, inArrays[j][0]);
        code.local(ClassFile.Code.ILOAD, 5);
        code.op(ClassFile.Code.BALOAD);
        code.local(ClassFile.Code.ISTORE, inKind[j]);
        code.local(ClassFile.Code.ILOAD, inKind[j]);
        code.smallInt(kindOf(inputs[j], monitor));
        code.jump(ClassFile.Code.IF_ICMPEQ, ok);
        code.local(ClassFile.Code.ILOAD, inKind[j]);
        code.smallInt(io.dataflow.core.Kind.DEFERRED);
        code.jump(ClassFile.Code.IF_ICMPGT, bail);
        code.place(ok);
      }
      for (int j = 0; j < inputs.length; j++) {
        int[] v = locals.get(inputs[j]);
        code.local(ClassFile.Code.ILOAD, inKind[j]);
        code.local(ClassFile.Code.ISTORE, v[0]);
        code.local(ClassFile.Code.ALOAD, inArrays[j][1]);
        code.local(ClassFile.Code.ILOAD, 5);
        code.op(ClassFile.Code.LALOAD);
        code.local(ClassFile.Code.LSTORE, v[1]);
      }
      List<int[]> ranges = streams(true);
      for (int j = 0; j < outputs.length; j++) {
        int[] v = locals.get(outputs[j]);
        code.local(ClassFile.Code.ALOAD, outArrays[j][0]);
        code.local(ClassFile.Code.ILOAD, 5);
        code.local(ClassFile.Code.ILOAD, v[0]);
        code.op(ClassFile.Code.BASTORE);
        code.local(ClassFile.Code.ALOAD, outArrays[j][1]);
        code.local(ClassFile.Code.ILOAD, 5);
        code.local(ClassFile.Code.LLOAD, v[1]);
        code.op(ClassFile.Code.LASTORE);
      }
      shiftRings(true);
      loopTail(loop, end);
      writeBack(cells, lastPresent, inArrays);
      code.local(ClassFile.Code.ILOAD, 4);
      code.op(ClassFile.Code.IRETURN);
      code.place(bail);
      writeBack(cells, lastPresent, inArrays);
      code.local(ClassFile.Code.ILOAD, 5);
      code.op(ClassFile.Code.IRETURN);
      failures(ranges);
      code.maxStack = 8;
      code.maxLocals = next;
      if (code.pc() > MAX_CODE) {
        if (Boolean.getBoolean("dataflow.monitor.fused.debug")) {
          System.err.println("batch loop of " + code.pc() + " bytes: left to the per-tick path");
        }
        return null;
      }
      return code;
    }

    /**
     * One tick's streams in order, each stream's nodes then its value into the stream's locals;
     * with {@code tags} the general loop's semantics (tags, lifting, memories), else the dense
     * loop's (payloads only). Returns each stream's code range {start, end, stream} for
     * {@link #failures}.
     */
    private List<int[]> streams(boolean tags) {
      StreamCell[] order = tick.order();
      List<int[]> ranges = new ArrayList<>();
      for (int s = 0; s < order.length; s++) {
        int start = code.pc();
        for (Node n : schedules.get(s)) {
          if (tags) {
            if (n instanceof TypedNodes.TypedBinary t) {
              typed(t);
            } else if (n instanceof TemporalNodes.HistoryRead h) {
              historyRead(h);
            } else {
              defaultOf((TemporalNodes.Default) n);
            }
            continue;
          }
          if (n instanceof TypedNodes.TypedBinary t) {
            compute(t, bitsOf(t.left), bitsOf(t.right));
          } else if (n instanceof TemporalNodes.HistoryRead r) {
            code.local(ClassFile.Code.LLOAD, history.get(r.ring)[3 * r.offset - 1]);
          } else {
            loadBits(((TemporalNodes.Default) n).value);
          }
          code.local(ClassFile.Code.LSTORE, locals.get(n)[1]);
        }
        int[] v = locals.get(order[s]);
        if (tags) {
          load(order[s].root);
          code.local(ClassFile.Code.LSTORE, v[1]);
          code.local(ClassFile.Code.ISTORE, v[0]);
        } else {
          loadBits(order[s].root);
          code.local(ClassFile.Code.LSTORE, v[1]);
        }
        ranges.add(new int[] {start, code.pc(), s});
      }
      return ranges;
    }

    /** A failing operator (overflow, division by zero) names its stream and tick. */
    private void failures(List<int[]> ranges) {
      StreamCell[] order = tick.order();
      for (int[] r : ranges) {
        int handler = code.pc();
        get(constants.get(0));
        get(order[r[2]]);
        code.local(ClassFile.Code.ILOAD, 5);
        code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(EVALUATOR, "failedInBatch",
            "(L" + CELL + ";I)V"));
        code.op(ClassFile.Code.ATHROW);
        if (r[1] > r[0]) {
          code.catchAll(r[0], r[1], handler);
        }
      }
    }

    /**
     * {@code batch} without a general loop: a dense batch, or {@code ~to} with {@code to} where
     * the dense loop could take over (see {@link FusedStreams#batch}).
     */
    ClassFile.Code emitDispatchOnly() {
      denseDispatch();
      code.local(ClassFile.Code.ILOAD, 4);
      code.smallInt(-1);
      code.op(ClassFile.Code.IXOR);
      code.op(ClassFile.Code.IRETURN);
      code.maxStack = 8;
      code.maxLocals = next;
      return code;
    }

    /**
     * When the batch is dense: {@code return dense(in, out, from, to)}. Otherwise {@code to}
     * moves back to where the dense loop could take over (the deepest ring's depth after the
     * last tick with an input of another kind), so that the rest of the batch is offered to it
     * again; what follows runs the rest of the batch as before.
     */
    private void denseDispatch() {
      ClassFile.Code.Label general = new ClassFile.Code.Label();
      ClassFile.Code.Label limit = new ClassFile.Code.Label();
      code.op(ClassFile.Code.ILOAD_3);
      code.local(ClassFile.Code.ILOAD, 4);
      code.jump(ClassFile.Code.IF_ICMPGE, general);
      int last = local(1); // the index after the last tick with an input of another kind
      code.op(ClassFile.Code.ILOAD_3);
      code.local(ClassFile.Code.ISTORE, last);
      StreamCell[] inputs = tick.inputs();
      for (int j = 0; j < inputs.length; j++) {
        pushColumn(1, j, true);
        code.op(ClassFile.Code.ILOAD_3);
        code.local(ClassFile.Code.ILOAD, 4);
        code.smallInt(kindOf(inputs[j], monitor));
        code.op(ClassFile.Code.INVOKESTATIC, cf.methodRef(internal(FusedCompiler.class),
            "afterLastOther", "([BIII)I"));
        code.local(ClassFile.Code.ILOAD, last);
        code.op(ClassFile.Code.INVOKESTATIC, cf.methodRef("java/lang/Math", "max", "(II)I"));
        code.local(ClassFile.Code.ISTORE, last);
      }
      code.local(ClassFile.Code.ILOAD, last);
      code.op(ClassFile.Code.ILOAD_3);
      code.jump(ClassFile.Code.IF_ICMPNE, limit);
      int depth = 0;
      for (StreamCell c : tick.ringCells()) {
        depth = Math.max(depth, c.ring.depth());
        get(c.ring);
        code.smallInt(kindOf(c, monitor));
        code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(RING, "fullOf", "(I)Z"));
        code.jump(ClassFile.Code.IFEQ, limit);
      }
      code.op(ClassFile.Code.ALOAD_0);
      code.op(ClassFile.Code.ALOAD_1);
      code.op(ClassFile.Code.ALOAD_2);
      code.op(ClassFile.Code.ILOAD_3);
      code.local(ClassFile.Code.ILOAD, 4);
      code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(name, "dense", BATCH));
      code.op(ClassFile.Code.IRETURN);
      code.place(limit);
      // Rings need 'depth' ticks of present samples after the last absence to be full again;
      // at least 8 ticks each time, so that rings slow to fill cost few checks.
      code.local(ClassFile.Code.ILOAD, last);
      code.intConstant(cf, depth);
      code.op(ClassFile.Code.IADD);
      code.op(ClassFile.Code.ILOAD_3);
      code.smallInt(8);
      code.op(ClassFile.Code.IADD);
      code.op(ClassFile.Code.INVOKESTATIC, cf.methodRef("java/lang/Math", "max", "(II)I"));
      code.local(ClassFile.Code.ISTORE, last);
      code.local(ClassFile.Code.ILOAD, last);
      code.local(ClassFile.Code.ILOAD, 4);
      code.jump(ClassFile.Code.IF_ICMPGE, general);
      code.local(ClassFile.Code.ILOAD, last);
      code.local(ClassFile.Code.ISTORE, 4);
      code.place(general);
    }

    /**
     * The loop for a dense batch (see {@link #emit}; the caller checked it), or null when it
     * would be too large. Every value of every tick is then present and of its static kind (an
     * input by the check; a typed operator of present operands; a history read of a full ring
     * of present samples, which stays so; a default of a present value), so the loop keeps only
     * payloads: no tags, no lifting, no memories. After the loop, each memory is what the
     * general loop would have left: its operand's value on the last tick.
     */
    ClassFile.Code emitDense() {
      StreamCell[] inputs = tick.inputs();
      StreamCell[] outputs = tick.outputs();
      for (StreamCell c : tick.order()) {
        if (kindOf(c.root, monitor) != kindOf(c, monitor)) {
          return null; // the tags written back are the declared kinds: they must be the values'
        }
      }
      get(constants.get(0));
      code.op(ClassFile.Code.DUP);
      code.op(ClassFile.Code.GETFIELD, cf.fieldRef(EVALUATOR, "denseBatches", "J"));
      code.op(ClassFile.Code.LCONST_1);
      code.op(ClassFile.Code.LADD);
      code.op(ClassFile.Code.PUTFIELD, cf.fieldRef(EVALUATOR, "denseBatches", "J"));
      int[] inPayloads = new int[inputs.length];
      for (int j = 0; j < inputs.length; j++) {
        inPayloads[j] = local(1);
        pushColumn(1, j, false);
        code.local(ClassFile.Code.ASTORE, inPayloads[j]);
      }
      int[] outPayloads = new int[outputs.length];
      for (int j = 0; j < outputs.length; j++) {
        // Every output is present with its static kind: its kinds in one fill, first, so the
        // ticks before a failing one have theirs.
        pushColumn(2, j, true);
        code.op(ClassFile.Code.ILOAD_3);
        code.local(ClassFile.Code.ILOAD, 4);
        code.smallInt(kindOf(outputs[j], monitor));
        code.op(ClassFile.Code.INVOKESTATIC, cf.methodRef("java/util/Arrays", "fill",
            "([BIIB)V"));
        outPayloads[j] = local(1);
        pushColumn(2, j, false);
        code.local(ClassFile.Code.ASTORE, outPayloads[j]);
      }
      List<StreamCell> cells = new ArrayList<>(List.of(inputs));
      cells.addAll(List.of(tick.order()));
      for (StreamCell c : cells) {
        locals.put(c, new int[] {-1, local(2)});
      }
      for (List<Node> schedule : schedules) {
        for (Node n : schedule) {
          locals.put(n, new int[] {-1, local(2)});
        }
      }
      for (int[] v : locals.values()) {
        // Set on every tick before it is read; the verifier does not know there is a tick.
        code.op(ClassFile.Code.LCONST_0);
        code.local(ClassFile.Code.LSTORE, v[1]);
      }
      loadRings(false);
      ClassFile.Code.Label end = new ClassFile.Code.Label();
      ClassFile.Code.Label loop = loopHead(end);
      for (int j = 0; j < inputs.length; j++) {
        code.local(ClassFile.Code.ALOAD, inPayloads[j]);
        code.local(ClassFile.Code.ILOAD, 5);
        code.op(ClassFile.Code.LALOAD);
        code.local(ClassFile.Code.LSTORE, locals.get(inputs[j])[1]);
      }
      List<int[]> ranges = streams(false);
      for (int j = 0; j < outputs.length; j++) {
        code.local(ClassFile.Code.ALOAD, outPayloads[j]);
        code.local(ClassFile.Code.ILOAD, 5);
        code.local(ClassFile.Code.LLOAD, locals.get(outputs[j])[1]);
        code.op(ClassFile.Code.LASTORE);
      }
      shiftRings(false);
      loopTail(loop, end);
      denseWriteBack(cells);
      code.local(ClassFile.Code.ILOAD, 4);
      code.op(ClassFile.Code.IRETURN);
      failures(ranges);
      code.maxStack = 8;
      code.maxLocals = next;
      return code.pc() > MAX_CODE ? null : code;
    }

    /**
     * Each ring's samples into locals, newest first: {size, tag1, bits1, tag2, bits2, ...}.
     * Without {@code tags} (the dense loop: every sample is of the ring's kind) the bits only.
     */
    private void loadRings(boolean tags) {
      for (StreamCell c : tick.ringCells()) {
        int depth = c.ring.depth();
        int[] h = new int[1 + 3 * depth];
        if (tags) {
          h[0] = local(1);
          get(c.ring);
          code.op(ClassFile.Code.GETFIELD, cf.fieldRef(RING, "size", "I"));
          code.local(ClassFile.Code.ISTORE, h[0]);
        }
        for (int k = 1; k <= depth; k++) {
          if (tags) {
            h[3 * k - 2] = local(1);
            get(c.ring);
            code.intConstant(cf, k);
            code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(RING, "tagAgo", "(I)B"));
            code.local(ClassFile.Code.ISTORE, h[3 * k - 2]);
          }
          h[3 * k - 1] = local(2);
          get(c.ring);
          code.intConstant(cf, k);
          code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(RING, "bitsAgo", "(I)J"));
          code.local(ClassFile.Code.LSTORE, h[3 * k - 1]);
        }
        history.put(c.ring, h);
      }
    }

    /**
     * The commit of a tick: each ring's shift register takes its stream's value of this tick
     * (with {@code tags}: its tag too, and the count of real samples grows up to the depth).
     */
    private void shiftRings(boolean tags) {
      for (StreamCell c : tick.ringCells()) {
        int[] h = history.get(c.ring);
        int depth = c.ring.depth();
        int[] v = locals.get(c);
        for (int k = depth; k >= 1; k--) {
          if (tags) {
            code.local(ClassFile.Code.ILOAD, k == 1 ? v[0] : h[3 * (k - 1) - 2]);
            code.local(ClassFile.Code.ISTORE, h[3 * k - 2]);
          }
          code.local(ClassFile.Code.LLOAD, k == 1 ? v[1] : h[3 * (k - 1) - 1]);
          code.local(ClassFile.Code.LSTORE, h[3 * k - 1]);
        }
        if (tags) {
          ClassFile.Code.Label full = new ClassFile.Code.Label();
          code.local(ClassFile.Code.ILOAD, h[0]);
          code.intConstant(cf, depth);
          code.jump(ClassFile.Code.IF_ICMPGE, full);
          code.local(ClassFile.Code.ILOAD, h[0]); // not iinc: the index may need 'wide'
          code.smallInt(1);
          code.op(ClassFile.Code.IADD);
          code.local(ClassFile.Code.ISTORE, h[0]);
          code.place(full);
        }
      }
    }

    /** {@code i = from}, then the loop's head: on to {@code end} once {@code i == to}. */
    private ClassFile.Code.Label loopHead(ClassFile.Code.Label end) {
      code.op(ClassFile.Code.ILOAD_3);
      code.local(ClassFile.Code.ISTORE, 5);
      ClassFile.Code.Label loop = new ClassFile.Code.Label();
      code.place(loop);
      code.local(ClassFile.Code.ILOAD, 5);
      code.local(ClassFile.Code.ILOAD, 4);
      code.jump(ClassFile.Code.IF_ICMPGE, end);
      return loop;
    }

    /** {@code i++}, back to the head; {@code end} placed after the loop. */
    private void loopTail(ClassFile.Code.Label loop, ClassFile.Code.Label end) {
      code.op(ClassFile.Code.IINC, (5 << 8) | 1);
      code.jump(ClassFile.Code.GOTO, loop);
      code.place(end);
    }

    /** The local holding a value's bits, or -1 for a constant (see {@link #loadLifted}). */
    private int bitsOf(Node n) {
      return n instanceof Nodes.Const ? -1 : locals.get(n)[1];
    }

    /** Pushes a value's bits: its local, or a constant's own. */
    private void loadBits(Node n) {
      loadLifted(n, bitsOf(n));
    }

    /**
     * After a dense batch (at least one tick): every cell, memory and ring as the general loop
     * leaves them, all values being present with their static kinds. An input present on the
     * last tick is its own run-long last present value: nothing to hold.
     */
    private void denseWriteBack(List<StreamCell> cells) {
      for (StreamCell c : cells) {
        get(c);
        code.smallInt(kindOf(c, monitor));
        code.op(ClassFile.Code.PUTFIELD, cf.fieldRef(SLOT, "tag", "B"));
        get(c);
        code.local(ClassFile.Code.LLOAD, locals.get(c)[1]);
        code.op(ClassFile.Code.PUTFIELD, cf.fieldRef(SLOT, "bits", "J"));
        get(c);
        code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(SLOT, "clearRef", "()V"));
      }
      for (List<Node> schedule : schedules) {
        for (Node n : schedule) {
          if (n instanceof TypedNodes.TypedBinary t) {
            Node[] operands = {t.left, t.right};
            for (int side = 0; side < 2; side++) {
              if (operands[side] instanceof Nodes.Const) {
                continue; // never held
              }
              String suffix = side == 0 ? "Left" : "Right";
              get(t);
              code.smallInt(kindOf(operands[side], monitor));
              code.op(ClassFile.Code.PUTFIELD, cf.fieldRef(TYPED, "held" + suffix + "Tag",
                  "B"));
              get(t);
              code.local(ClassFile.Code.LLOAD, locals.get(operands[side])[1]);
              code.op(ClassFile.Code.PUTFIELD, cf.fieldRef(TYPED, "held" + suffix, "J"));
            }
          } else {
            // A history read's last result is its sample; a default's memory its value.
            Node held = n instanceof TemporalNodes.Default d ? d.value : n;
            memorySlot(n);
            code.smallInt(kindOf(held, monitor));
            loadBits(held);
            code.op(ClassFile.Code.ACONST_NULL);
            code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(SLOT, "setRaw",
                "(BJLjava/lang/Object;)V"));
          }
        }
      }
      for (StreamCell c : tick.ringCells()) {
        int[] h = history.get(c.ring);
        for (int ago = c.ring.depth(); ago >= 1; ago--) {
          get(c.ring);
          code.smallInt(kindOf(c, monitor));
          code.local(ClassFile.Code.LLOAD, h[3 * ago - 1]);
          code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(RING, "pushScalar", "(BJ)V"));
        }
      }
    }

    /** Pushes the kinds (or else the payloads) array of a column of the columns in a local. */
    private void pushColumn(int columnsLocal, int slot, boolean kinds) {
      code.local(ClassFile.Code.ALOAD, columnsLocal);
      code.intConstant(cf, slot);
      code.op(ClassFile.Code.INVOKEVIRTUAL, kinds
          ? cf.methodRef(COLUMNS, "kinds", "(I)[B") : cf.methodRef(COLUMNS, "payloads", "(I)[J"));
    }

    private void columns(int columnsLocal, int slot, int[] into) {
      pushColumn(columnsLocal, slot, true);
      code.local(ClassFile.Code.ASTORE, into[0]);
      pushColumn(columnsLocal, slot, false);
      code.local(ClassFile.Code.ASTORE, into[1]);
    }

    /** Pushes the slot object that keeps a history read's or a default's memory. */
    private void memorySlot(Node n) {
      get(n);
      if (n instanceof TemporalNodes.HistoryRead) {
        code.op(ClassFile.Code.GETFIELD, cf.fieldRef(DELAY_READ,
            "last", "L" + SLOT + ";"));
      } else {
        code.op(ClassFile.Code.GETFIELD, cf.fieldRef(DEFAULT,
            "held", "L" + SLOT + ";"));
      }
    }

    /**
     * {@code name[n]}, as {@code DelayRead.readFrom}: Deferred (also as the last result) until
     * the ring holds {@code n} samples, else the sample, where a NoVal sample repeats the last
     * result.
     */
    private void historyRead(TemporalNodes.HistoryRead r) {
      int[] h = history.get(r.ring);
      int[] m = memory.get(r);
      int[] result = locals.get(r);
      ClassFile.Code.Label held = new ClassFile.Code.Label();
      ClassFile.Code.Label absent = new ClassFile.Code.Label();
      ClassFile.Code.Label done = new ClassFile.Code.Label();
      code.local(ClassFile.Code.ILOAD, h[0]);
      code.intConstant(cf, r.offset);
      code.jump(ClassFile.Code.IF_ICMPGE, held);
      code.smallInt(io.dataflow.core.Kind.DEFERRED);
      code.local(ClassFile.Code.ISTORE, m[0]);
      code.op(ClassFile.Code.LCONST_0);
      code.local(ClassFile.Code.LSTORE, m[1]);
      code.jump(ClassFile.Code.GOTO, absent);
      code.place(held);
      code.local(ClassFile.Code.ILOAD, h[3 * r.offset - 2]);
      code.jump(ClassFile.Code.IFEQ, absent); // a NoVal sample: the last result again
      code.local(ClassFile.Code.ILOAD, h[3 * r.offset - 2]);
      code.local(ClassFile.Code.ISTORE, m[0]);
      code.local(ClassFile.Code.LLOAD, h[3 * r.offset - 1]);
      code.local(ClassFile.Code.LSTORE, m[1]);
      code.place(absent);
      code.local(ClassFile.Code.ILOAD, m[0]);
      code.local(ClassFile.Code.ISTORE, result[0]);
      code.local(ClassFile.Code.LLOAD, m[1]);
      code.local(ClassFile.Code.LSTORE, result[1]);
      code.place(done);
    }

    /** {@code default(e, d)}: {@code e} lifted; {@code d} (raw) when that is Deferred. */
    private void defaultOf(TemporalNodes.Default d) {
      int[] m = memory.get(d);
      int[] result = locals.get(d);
      ClassFile.Code.Label absent = new ClassFile.Code.Label();
      ClassFile.Code.Label lifted = new ClassFile.Code.Label();
      ClassFile.Code.Label done = new ClassFile.Code.Label();
      if (d.value instanceof Nodes.Const) {
        load(d.value); // never NoVal: the memory is never read
        code.local(ClassFile.Code.LSTORE, m[1]);
        code.local(ClassFile.Code.ISTORE, m[0]);
      } else {
        int[] v = locals.get(d.value);
        code.local(ClassFile.Code.ILOAD, v[0]);
        code.jump(ClassFile.Code.IFEQ, absent);
        code.local(ClassFile.Code.ILOAD, v[0]);
        code.local(ClassFile.Code.ISTORE, m[0]);
        code.local(ClassFile.Code.LLOAD, v[1]);
        code.local(ClassFile.Code.LSTORE, m[1]);
        code.place(absent);
      }
      code.local(ClassFile.Code.ILOAD, m[0]);
      code.smallInt(io.dataflow.core.Kind.DEFERRED);
      code.jump(ClassFile.Code.IF_ICMPNE, lifted);
      load(d.fallback);
      code.local(ClassFile.Code.LSTORE, result[1]);
      code.local(ClassFile.Code.ISTORE, result[0]);
      code.jump(ClassFile.Code.GOTO, done);
      code.place(lifted);
      code.local(ClassFile.Code.ILOAD, m[0]);
      code.local(ClassFile.Code.ISTORE, result[0]);
      code.local(ClassFile.Code.LLOAD, m[1]);
      code.local(ClassFile.Code.LSTORE, result[1]);
      code.place(done);
    }

    /** Pushes a value's tag (int) and bits (long): a local pair, or a constant's slot. */
    private void load(Node n) {
      int[] v = locals.get(n);
      if (v != null) {
        code.local(ClassFile.Code.ILOAD, v[0]);
        code.local(ClassFile.Code.LLOAD, v[1]);
      } else {
        get(n);
        code.op(ClassFile.Code.GETFIELD, cf.fieldRef(SLOT, "tag", "B"));
        get(n);
        code.op(ClassFile.Code.GETFIELD, cf.fieldRef(SLOT, "bits", "J"));
      }
    }

    /**
     * One operator, as {@code TypedBinary.lift()} and the operator's {@code compute()} on
     * values of the static kind: sample-and-hold on each operand, the operation when both are
     * of the kind, else NoVal before Deferred.
     */
    private void typed(TypedNodes.TypedBinary t) {
      int[] h = held.get(t);
      Node[] operands = {t.left, t.right};
      // Sample-and-hold: a present operand becomes the memory, so after this step the memory
      // is the lifted operand either way (a constant is its own lifted value).
      for (int side = 0; side < 2; side++) {
        if (operands[side] instanceof Nodes.Const) {
          continue;
        }
        int[] v = locals.get(operands[side]);
        ClassFile.Code.Label absent = new ClassFile.Code.Label();
        code.local(ClassFile.Code.ILOAD, v[0]);
        code.jump(ClassFile.Code.IFEQ, absent);
        code.local(ClassFile.Code.ILOAD, v[0]);
        code.local(ClassFile.Code.ISTORE, h[2 * side]);
        code.local(ClassFile.Code.LLOAD, v[1]);
        code.local(ClassFile.Code.LSTORE, h[2 * side + 1]);
        code.place(absent);
      }
      int[] result = locals.get(t);
      int kind = kindOf(t.left, monitor);
      ClassFile.Code.Label notBoth = new ClassFile.Code.Label();
      ClassFile.Code.Label noVal = new ClassFile.Code.Label();
      ClassFile.Code.Label done = new ClassFile.Code.Label();
      for (int side = 0; side < 2; side++) {
        if (!(operands[side] instanceof Nodes.Const)) { // a constant has the static kind
          code.local(ClassFile.Code.ILOAD, h[2 * side]);
          code.smallInt(kind);
          code.jump(ClassFile.Code.IF_ICMPNE, notBoth);
        }
      }
      compute(t, h[1], h[3]);
      code.local(ClassFile.Code.LSTORE, result[1]);
      code.smallInt(t instanceof TypedNodes.IntArith ? io.dataflow.core.Kind.INT
          : io.dataflow.core.Kind.BOOL);
      code.local(ClassFile.Code.ISTORE, result[0]);
      code.jump(ClassFile.Code.GOTO, done);
      code.place(notBoth);
      // NoVal before Deferred (only a memory can be either: a constant never is).
      code.op(ClassFile.Code.LCONST_0);
      code.local(ClassFile.Code.LSTORE, result[1]);
      for (int side = 0; side < 2; side++) {
        if (!(operands[side] instanceof Nodes.Const)) {
          code.local(ClassFile.Code.ILOAD, h[2 * side]);
          code.jump(ClassFile.Code.IFEQ, noVal);
        }
      }
      code.smallInt(io.dataflow.core.Kind.DEFERRED);
      code.local(ClassFile.Code.ISTORE, result[0]);
      code.jump(ClassFile.Code.GOTO, done);
      code.place(noVal);
      code.smallInt(io.dataflow.core.Kind.NOVAL);
      code.local(ClassFile.Code.ISTORE, result[0]);
      code.place(done);
    }

    /**
     * Pushes the bits of {@code t} on present operands of its static kind, whose bits are in
     * the locals {@code leftBits} and {@code rightBits} (a constant operand's are its own).
     */
    private void compute(TypedNodes.TypedBinary t, int leftBits, int rightBits) {
      if (t instanceof TypedNodes.NumCompare) {
        loadLifted(t.left, leftBits);
        if (kindOf(t.left, monitor) == io.dataflow.core.Kind.FLOAT) {
          bitsToDouble(code, cf);
          loadLifted(t.right, rightBits);
          bitsToDouble(code, cf);
          compareDoubles(code, t.op);
        } else {
          loadLifted(t.right, rightBits);
          code.op(ClassFile.Code.LCMP);
        }
        compareToBits(code, t.op);
      } else {
        loadLifted(t.left, leftBits);
        negateIfImplies(code, t);
        loadLifted(t.right, rightBits);
        operate(code, cf, t);
      }
    }

    /** Pushes a lifted operand's bits: its memory, or a constant's own bits. */
    private void loadLifted(Node operand, int heldBits) {
      if (operand instanceof Nodes.Const) {
        get(operand);
        code.op(ClassFile.Code.GETFIELD, cf.fieldRef(SLOT, "bits", "J"));
      } else {
        code.local(ClassFile.Code.LLOAD, heldBits);
      }
    }

    /** The locals back into the cells, the inputs' last present values and the memories. */
    private void writeBack(List<StreamCell> cells, int[][] lastPresent, int[][] inArrays) {
      for (StreamCell c : cells) {
        int[] v = locals.get(c);
        get(c);
        code.local(ClassFile.Code.ILOAD, v[0]);
        code.op(ClassFile.Code.PUTFIELD, cf.fieldRef(SLOT, "tag", "B"));
        get(c);
        code.local(ClassFile.Code.LLOAD, v[1]);
        code.op(ClassFile.Code.PUTFIELD, cf.fieldRef(SLOT, "bits", "J"));
        get(c);
        code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(SLOT, "clearRef", "()V"));
      }
      StreamCell[] inputs = tick.inputs();
      int k = local(1);
      for (int j = 0; j < inputs.length; j++) {
        ClassFile.Code.Label present = new ClassFile.Code.Label();
        code.local(ClassFile.Code.ILOAD, locals.get(inputs[j])[0]);
        code.jump(ClassFile.Code.IFNE, present);
        // Absent on the last tick: its run-long last present value is the batch's last one
        // (found backwards from the tick before i), else the one from before the batch.
        ClassFile.Code.Label scan = new ClassFile.Code.Label();
        ClassFile.Code.Label found = new ClassFile.Code.Label();
        ClassFile.Code.Label none = new ClassFile.Code.Label();
        code.local(ClassFile.Code.ILOAD, 5);
        code.local(ClassFile.Code.ISTORE, k);
        code.place(scan);
        code.local(ClassFile.Code.ILOAD, k);
        code.op(ClassFile.Code.ILOAD_3);
        code.jump(ClassFile.Code.IF_ICMPLE, none);
        code.local(ClassFile.Code.ILOAD, k);
        code.smallInt(1);
        code.op(ClassFile.Code.ISUB);
        code.local(ClassFile.Code.ISTORE, k);
        code.local(ClassFile.Code.ALOAD, inArrays[j][0]);
        code.local(ClassFile.Code.ILOAD, k);
        code.op(ClassFile.Code.BALOAD);
        code.jump(ClassFile.Code.IFNE, found);
        code.jump(ClassFile.Code.GOTO, scan);
        code.place(found);
        code.local(ClassFile.Code.ALOAD, inArrays[j][0]);
        code.local(ClassFile.Code.ILOAD, k);
        code.op(ClassFile.Code.BALOAD);
        code.local(ClassFile.Code.ISTORE, lastPresent[j][0]);
        code.local(ClassFile.Code.ALOAD, inArrays[j][1]);
        code.local(ClassFile.Code.ILOAD, k);
        code.op(ClassFile.Code.LALOAD);
        code.local(ClassFile.Code.LSTORE, lastPresent[j][1]);
        code.place(none);
        get(inputs[j]);
        code.local(ClassFile.Code.ILOAD, lastPresent[j][0]);
        code.local(ClassFile.Code.LLOAD, lastPresent[j][1]);
        code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(CELL, "holdPresent", "(BJ)V"));
        code.place(present);
      }
      for (Map.Entry<Node, int[]> e : memory.entrySet()) {
        int[] m = e.getValue();
        memorySlot(e.getKey());
        code.local(ClassFile.Code.ILOAD, m[0]);
        code.local(ClassFile.Code.LLOAD, m[1]);
        code.op(ClassFile.Code.ACONST_NULL);
        code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(SLOT, "setRaw",
            "(BJLjava/lang/Object;)V"));
      }
      for (Map.Entry<HistoryRing, int[]> e : history.entrySet()) {
        int[] h = e.getValue();
        for (int ago = e.getKey().depth(); ago >= 1; ago--) {
          get(e.getKey());
          code.local(ClassFile.Code.ILOAD, h[3 * ago - 2]);
          code.local(ClassFile.Code.LLOAD, h[3 * ago - 1]);
          code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(RING, "pushScalar", "(BJ)V"));
        }
        get(e.getKey());
        code.local(ClassFile.Code.ILOAD, h[0]);
        code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(RING, "keepNewest", "(I)V"));
      }
      for (Map.Entry<Node, int[]> e : held.entrySet()) {
        int[] h = e.getValue();
        for (int side = 0; side < 2; side++) {
          String suffix = side == 0 ? "Left" : "Right";
          get(e.getKey());
          code.local(ClassFile.Code.ILOAD, h[2 * side]);
          code.op(ClassFile.Code.PUTFIELD, cf.fieldRef(TYPED, "held" + suffix + "Tag", "B"));
          get(e.getKey());
          code.local(ClassFile.Code.LLOAD, h[2 * side + 1]);
          code.op(ClassFile.Code.PUTFIELD, cf.fieldRef(TYPED, "held" + suffix, "J"));
        }
      }
    }
  }

  /** The tick once the inputs are in their cells: the streams, the checks, the commit. */
  private static void streamsAndCommit(ClassFile.Code run, ClassFile cf, String name, Tick tick,
      List<Object> constants, Map<Object, Integer> index) {
    Object monitor = constants.get(0);
    for (int s = 0; s < tick.order().length; s++) {
      run.op(ClassFile.Code.INVOKESTATIC, cf.methodRef(name, "s" + s, "()V"));
    }
    if (tick.checkOutputs()) {
      getConstant(run, cf, name, monitor, constants, index);
      run.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(EVALUATOR, "checkOutputs", "()V"));
    }
    for (StreamCell c : tick.ringCells()) {
      getConstant(run, cf, name, c.ring, constants, index);
      getConstant(run, cf, name, c, constants, index);
      run.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(RING, "push",
          "(L" + SLOT + ";)V"));
    }
    for (StreamCell c : tick.committing()) {
      if (commitsDirectly(c)) {
        // Direct calls on constant receivers of exact classes: no list walk, no dispatch.
        for (Committable k : c.commits) {
          getConstant(run, cf, name, k, constants, index);
          run.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(internalName(k), "commit",
              "()V"));
        }
      } else {
        getConstant(run, cf, name, c, constants, index);
        run.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(CELL, "commitAll", "()V"));
      }
    }
  }

  /**
   * Whether a stream's commits can be called one by one from generated code: its list is fixed
   * (no lambda call site adds to it later) and holds only classes the generated code may name.
   */
  private static boolean commitsDirectly(StreamCell c) {
    if (c.commitsGrow) {
      return false;
    }
    for (Committable k : c.commits) {
      if (!(k instanceof DynamicNode || k instanceof TemporalNodes.Delay)) {
        return false;
      }
    }
    return true;
  }

  /** Loads the class data array into the static final fields. */
  private static ClassFile.Code staticInit(ClassFile cf, String name, List<Object> constants) {
    ClassFile.Code c = new ClassFile.Code();
    c.op(ClassFile.Code.INVOKESTATIC, cf.methodRef("java/lang/invoke/MethodHandles", "lookup",
        "()Ljava/lang/invoke/MethodHandles$Lookup;"));
    c.op(ClassFile.Code.LDC_W, cf.string("_"));
    c.op(ClassFile.Code.LDC_W, cf.classRef("[Ljava/lang/Object;"));
    c.op(ClassFile.Code.INVOKESTATIC, cf.methodRef("java/lang/invoke/MethodHandles",
        "classData", "(Ljava/lang/invoke/MethodHandles$Lookup;Ljava/lang/String;"
            + "Ljava/lang/Class;)Ljava/lang/Object;"));
    c.op(ClassFile.Code.CHECKCAST, cf.classRef("[Ljava/lang/Object;"));
    c.op(ClassFile.Code.ASTORE_0);
    for (int i = 0; i < constants.size(); i++) {
      c.op(ClassFile.Code.ALOAD_0);
      c.intConstant(cf, i);
      c.op(ClassFile.Code.AALOAD);
      c.op(ClassFile.Code.CHECKCAST, cf.classRef(internalName(constants.get(i))));
      c.op(ClassFile.Code.PUTSTATIC, cf.fieldRef(name, fieldName(i),
          descriptor(constants.get(i))));
    }
    c.op(ClassFile.Code.RETURN);
    c.maxStack = 3;
    c.maxLocals = 1;
    return c;
  }

  /** One stream: compute its nodes, store the root into the cell, check, attribute failures. */
  private static ClassFile.Code stream(ClassFile cf, String name, StreamCell cell,
      List<Node> schedule, TypeCheck.Compiled check, boolean dynamic, boolean repairable,
      List<Object> constants, Map<Object, Integer> index) {
    Emitter e = new Emitter(cf, name, constants, index);
    ClassFile.Code c = e.code;
    ClassFile.Code.Label skip = new ClassFile.Code.Label();
    int start = c.pc();
    if (repairable) {
      // A dynamic body may have evaluated this stream already this tick (order repair).
      getConstant(c, cf, name, constants.get(0), constants, index);
      getConstant(c, cf, name, cell, constants, index);
      c.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(EVALUATOR, "enter", "(L" + CELL + ";)Z"));
      c.jump(ClassFile.Code.IFEQ, skip);
    }
    for (Node n : schedule) {
      e.node(n);
    }
    Val root = e.val(cell.root);
    if (dynamic) {
      // Bodies read the run's last present value of this stream (StreamCell.overwriting).
      getConstant(c, cf, name, cell, constants, index);
      e.loadTag(root);
      c.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(CELL, "overwriting", "(B)V"));
    }
    if (root instanceof Local l) {
      // The root's value goes straight into the cell (nothing reads the root node's slot).
      getConstant(c, cf, name, cell, constants, index);
      c.local(ClassFile.Code.ILOAD, l.tag);
      c.op(ClassFile.Code.PUTFIELD, cf.fieldRef(SLOT, "tag", "B"));
      getConstant(c, cf, name, cell, constants, index);
      c.local(ClassFile.Code.LLOAD, l.bits);
      c.op(ClassFile.Code.PUTFIELD, cf.fieldRef(SLOT, "bits", "J"));
      getConstant(c, cf, name, cell, constants, index);
      c.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(SLOT, "clearRef", "()V"));
    } else {
      getConstant(c, cf, name, cell, constants, index);
      getConstant(c, cf, name, cell.root, constants, index);
      c.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(CELL, "set",
          "(L" + SLOT + ";)V"));
    }
    if (check != null) {
      // The tag comparison inline; the monitor builds the error when it fails.
      ClassFile.Code.Label ok = new ClassFile.Code.Label();
      getConstant(c, cf, name, check, constants, index);
      getConstant(c, cf, name, cell, constants, index);
      c.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(CHECK,
          "matches", "(L" + SLOT + ";)Z"));
      c.jump(ClassFile.Code.IFNE, ok);
      getConstant(c, cf, name, constants.get(0), constants, index);
      getConstant(c, cf, name, cell, constants, index);
      c.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(EVALUATOR, "checkType",
          "(L" + CELL + ";)V"));
      c.place(ok);
    }
    if (repairable) {
      getConstant(c, cf, name, constants.get(0), constants, index);
      getConstant(c, cf, name, cell, constants, index);
      c.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(EVALUATOR, "leave", "(L" + CELL + ";)V"));
    }
    int end = c.pc();
    c.place(skip);
    c.op(ClassFile.Code.RETURN);
    int handler = c.pc();
    c.op(ClassFile.Code.ASTORE_0);
    getConstant(c, cf, name, constants.get(0), constants, index);
    getConstant(c, cf, name, cell, constants, index);
    c.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(EVALUATOR, "failedIn", "(L" + CELL + ";)V"));
    c.op(ClassFile.Code.ALOAD_0);
    c.op(ClassFile.Code.ATHROW);
    c.catchAll(start, end, handler);
    c.maxStack = 6;
    c.maxLocals = e.nextLocal;
    return c;
  }


  /** Where a node's value of this tick is: in its own slot, or in two locals. */
  private sealed interface Val permits Field, Local {}

  /** The value is in the object's slot (a cell, a constant, a node that computed itself). */
  private record Field(Object slot) implements Val {}

  /** The value is in locals (a typed node computed inline); its slot is stale until stored. */
  private record Local(Node node, int tag, int bits) implements Val {}

  /**
   * Emits one stream's nodes. Typed scalar operators ({@link TypedNodes}) run inline on their
   * fast path (both operands present and of their static type): operands are read from slots
   * or locals, the lifting memories are written, the result stays in locals. Anything else (and
   * the slow path: absence, errors) calls the node's own {@code compute()}, after storing the
   * local values of its operands into their slots.
   */
  private static final class Emitter {
    final ClassFile cf;
    final String name;
    final List<Object> constants;
    final Map<Object, Integer> index;
    final ClassFile.Code code = new ClassFile.Code();
    final Map<Node, Val> vals = new IdentityHashMap<>();
    int nextLocal = 1; // local 0 holds a caught exception

    Emitter(ClassFile cf, String name, List<Object> constants, Map<Object, Integer> index) {
      this.cf = cf;
      this.name = name;
      this.constants = constants;
      this.index = index;
    }

    Val val(Node n) {
      Val v = vals.get(n);
      return v != null ? v : new Field(n);
    }

    void get(Object o) {
      getConstant(code, cf, name, o, constants, index);
    }

    void loadTag(Val v) {
      if (v instanceof Local l) {
        code.local(ClassFile.Code.ILOAD, l.tag());
      } else {
        get(((Field) v).slot());
        code.op(ClassFile.Code.GETFIELD, cf.fieldRef(SLOT, "tag", "B"));
      }
    }

    void loadBits(Val v) {
      if (v instanceof Local l) {
        code.local(ClassFile.Code.LLOAD, l.bits());
      } else {
        get(((Field) v).slot());
        code.op(ClassFile.Code.GETFIELD, cf.fieldRef(SLOT, "bits", "J"));
      }
    }

    /** Stores a local value into its node's slot, for code that reads slots. */
    void materialize(Val v) {
      if (v instanceof Local l) {
        get(l.node());
        code.local(ClassFile.Code.ILOAD, l.tag());
        code.op(ClassFile.Code.PUTFIELD, cf.fieldRef(SLOT, "tag", "B"));
        get(l.node());
        code.local(ClassFile.Code.LLOAD, l.bits());
        code.op(ClassFile.Code.PUTFIELD, cf.fieldRef(SLOT, "bits", "J"));
      }
    }

    void node(Node n) {
      if (n instanceof TypedNodes.TypedBinary t && fastPathKind(t) >= 0) {
        typed(t);
        return;
      }
      // Only a statically scalar value may live in locals (a local pair has no reference).
      if (n.scalar && n instanceof TemporalNodes.HistoryRead h && h.ring != null) {
        historyRead(h);
        return;
      }
      if (n.scalar && n instanceof TemporalNodes.Default d) {
        defaultOf(d);
        return;
      }
      if (n.scalar && n instanceof DynamicBodies.OuterRead r) {
        outerRead(r);
        return;
      }
      for (Node input : n.inputs()) {
        materialize(val(input));
      }
      get(n);
      code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(internalName(n), "compute", "()V"));
    }

    /** The operand kind of a typed node's fast path, or -1 for none. */
    static int fastPathKind(TypedNodes.TypedBinary t) {
      if (t instanceof TypedNodes.IntArith) {
        return io.dataflow.core.Kind.INT;
      }
      if (t instanceof TypedNodes.BoolLogic) {
        return io.dataflow.core.Kind.BOOL;
      }
      return t instanceof TypedNodes.NumCompare ? io.dataflow.core.Kind.FLOAT : -1;
    }

    private void typed(TypedNodes.TypedBinary t) {
      Val l = val(t.left);
      Val r = val(t.right);
      int tagLocal = nextLocal++;
      int bitsLocal = nextLocal;
      nextLocal += 2;
      ClassFile.Code.Label slow = new ClassFile.Code.Label();
      ClassFile.Code.Label done = new ClassFile.Code.Label();
      int kind = fastPathKind(t);
      if (t instanceof TypedNodes.NumCompare) {
        // Both Int or both Float (the common cases); anything else takes the slow path.
        ClassFile.Code.Label ints = new ClassFile.Code.Label();
        requireTag(l, io.dataflow.core.Kind.INT, ints);
        requireTag(r, io.dataflow.core.Kind.INT, slow);
        holdBoth(t, l, r, io.dataflow.core.Kind.INT);
        loadBits(l);
        loadBits(r);
        code.op(ClassFile.Code.LCMP);
        compareResult(t.op, tagLocal, bitsLocal, done);
        code.place(ints);
        requireTag(l, io.dataflow.core.Kind.FLOAT, slow);
        requireTag(r, io.dataflow.core.Kind.FLOAT, slow);
        holdBoth(t, l, r, io.dataflow.core.Kind.FLOAT);
        loadDouble(l);
        loadDouble(r);
        compareDoubles(code, t.op);
        compareResult(t.op, tagLocal, bitsLocal, done);
      } else {
        requireTag(l, kind, slow);
        requireTag(r, kind, slow);
        holdBoth(t, l, r, kind);
        loadBits(l);
        negateIfImplies(code, t);
        loadBits(r);
        operate(code, cf, t);
        code.local(ClassFile.Code.LSTORE, bitsLocal);
        code.smallInt(t instanceof TypedNodes.IntArith ? io.dataflow.core.Kind.INT
            : io.dataflow.core.Kind.BOOL);
        code.local(ClassFile.Code.ISTORE, tagLocal);
        code.jump(ClassFile.Code.GOTO, done);
      }
      code.place(slow);
      materialize(l);
      materialize(r);
      get(t);
      code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(internalName(t), "compute", "()V"));
      get(t);
      code.op(ClassFile.Code.GETFIELD, cf.fieldRef(SLOT, "tag", "B"));
      code.local(ClassFile.Code.ISTORE, tagLocal);
      get(t);
      code.op(ClassFile.Code.GETFIELD, cf.fieldRef(SLOT, "bits", "J"));
      code.local(ClassFile.Code.LSTORE, bitsLocal);
      code.place(done);
      vals.put(t, new Local(t, tagLocal, bitsLocal));
    }

    /** Jumps to {@code otherwise} unless the tag in {@code local} is a present scalar. */
    private void requireScalar(int local, ClassFile.Code.Label otherwise) {
      code.local(ClassFile.Code.ILOAD, local);
      code.smallInt(io.dataflow.core.Kind.BOOL);
      code.jump(ClassFile.Code.IF_ICMPLT, otherwise);
      code.local(ClassFile.Code.ILOAD, local);
      code.smallInt(io.dataflow.core.Kind.FLOAT);
      code.jump(ClassFile.Code.IF_ICMPGT, otherwise);
    }

    /** The slow path of any node: its own compute(), then its slot into locals. */
    private void computeInto(Node n, int tagLocal, int bitsLocal) {
      for (Node input : n.inputs()) {
        materialize(val(input));
      }
      get(n);
      code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(internalName(n), "compute", "()V"));
      get(n);
      code.op(ClassFile.Code.GETFIELD, cf.fieldRef(SLOT, "tag", "B"));
      code.local(ClassFile.Code.ISTORE, tagLocal);
      get(n);
      code.op(ClassFile.Code.GETFIELD, cf.fieldRef(SLOT, "bits", "J"));
      code.local(ClassFile.Code.LSTORE, bitsLocal);
    }

    /** Stores locals into a slot object that must not hold a reference (a scalar). */
    private void storeScalar(Runnable slot, int tagLocal, int bitsLocal) {
      slot.run();
      code.local(ClassFile.Code.ILOAD, tagLocal);
      code.op(ClassFile.Code.PUTFIELD, cf.fieldRef(SLOT, "tag", "B"));
      slot.run();
      code.local(ClassFile.Code.LLOAD, bitsLocal);
      code.op(ClassFile.Code.PUTFIELD, cf.fieldRef(SLOT, "bits", "J"));
      slot.run();
      code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(SLOT, "clearRef", "()V"));
    }

    /**
     * {@code name[n]}, fast path: the ring holds {@code n} samples and the one read is a present
     * scalar. It becomes the delay's last result; anything else computes.
     */
    private void historyRead(TemporalNodes.HistoryRead h) {
      HistoryRing ring = h.ring; // registered as a constant when the schedule was collected
      String ringClass = RING;
      int tagLocal = nextLocal++;
      int bitsLocal = nextLocal;
      nextLocal += 2;
      int at = nextLocal++;
      ClassFile.Code.Label slow = new ClassFile.Code.Label();
      ClassFile.Code.Label inRange = new ClassFile.Code.Label();
      ClassFile.Code.Label done = new ClassFile.Code.Label();
      get(ring);
      code.op(ClassFile.Code.GETFIELD, cf.fieldRef(ringClass, "size", "I"));
      code.intConstant(cf, h.offset);
      code.jump(ClassFile.Code.IF_ICMPLT, slow);
      get(ring);
      code.op(ClassFile.Code.GETFIELD, cf.fieldRef(ringClass, "head", "I"));
      code.intConstant(cf, h.offset - 1);
      code.op(ClassFile.Code.ISUB);
      code.local(ClassFile.Code.ISTORE, at);
      code.local(ClassFile.Code.ILOAD, at);
      code.jump(ClassFile.Code.IFGE, inRange);
      code.local(ClassFile.Code.ILOAD, at);
      get(ring);
      code.op(ClassFile.Code.GETFIELD, cf.fieldRef(ringClass, "tags", "[B"));
      code.op(ClassFile.Code.ARRAYLENGTH);
      code.op(ClassFile.Code.IADD);
      code.local(ClassFile.Code.ISTORE, at);
      code.place(inRange);
      get(ring);
      code.op(ClassFile.Code.GETFIELD, cf.fieldRef(ringClass, "tags", "[B"));
      code.local(ClassFile.Code.ILOAD, at);
      code.op(ClassFile.Code.BALOAD);
      code.local(ClassFile.Code.ISTORE, tagLocal);
      requireScalar(tagLocal, slow);
      get(ring);
      code.op(ClassFile.Code.GETFIELD, cf.fieldRef(ringClass, "bits", "[J"));
      code.local(ClassFile.Code.ILOAD, at);
      code.op(ClassFile.Code.LALOAD);
      code.local(ClassFile.Code.LSTORE, bitsLocal);
      storeScalar(() -> {
        get(h);
        code.op(ClassFile.Code.GETFIELD, cf.fieldRef(DELAY_READ,
            "last", "L" + SLOT + ";"));
      }, tagLocal, bitsLocal);
      code.jump(ClassFile.Code.GOTO, done);
      code.place(slow);
      computeInto(h, tagLocal, bitsLocal);
      code.place(done);
      vals.put(h, new Local(h, tagLocal, bitsLocal));
    }

    /**
     * A body's read of an outer stream (run-long sample-and-hold), into locals: evaluate the
     * stream first if it is computed (order repair), then its last present value. The same as
     * {@code OuterRead.eval()} without storing the value in the node's slot.
     */
    private void outerRead(DynamicBodies.OuterRead r) {
      int tagLocal = nextLocal++;
      int bitsLocal = nextLocal;
      nextLocal += 2;
      ClassFile.Code.Label ready = new ClassFile.Code.Label();
      get(r.cell);
      code.op(ClassFile.Code.GETFIELD, cf.fieldRef(CELL, "root", "L" + NODE + ";"));
      code.jump(ClassFile.Code.IFNULL, ready);
      get(r.cell);
      code.op(ClassFile.Code.GETFIELD, cf.fieldRef(CELL, "owner", "L" + EVALUATOR + ";"));
      get(r.cell);
      code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(EVALUATOR, "ensureEvaluated",
          "(L" + CELL + ";)V"));
      code.place(ready);
      get(r.cell);
      code.op(ClassFile.Code.INVOKEVIRTUAL, cf.methodRef(CELL, "lastPresent",
          "()L" + SLOT + ";"));
      code.op(ClassFile.Code.DUP);
      code.op(ClassFile.Code.GETFIELD, cf.fieldRef(SLOT, "tag", "B"));
      code.local(ClassFile.Code.ISTORE, tagLocal);
      code.op(ClassFile.Code.GETFIELD, cf.fieldRef(SLOT, "bits", "J"));
      code.local(ClassFile.Code.LSTORE, bitsLocal);
      vals.put(r, new Local(r, tagLocal, bitsLocal));
    }

    /**
     * {@code default(e, d)}, fast path: the value is a present scalar, so it is the result and
     * its lifting memory; anything else (absent, Deferred: the fallback) computes.
     */
    private void defaultOf(TemporalNodes.Default d) {
      Val v = val(d.value);
      int tagLocal = nextLocal++;
      int bitsLocal = nextLocal;
      nextLocal += 2;
      ClassFile.Code.Label slow = new ClassFile.Code.Label();
      ClassFile.Code.Label done = new ClassFile.Code.Label();
      loadTag(v);
      code.local(ClassFile.Code.ISTORE, tagLocal);
      requireScalar(tagLocal, slow);
      loadBits(v);
      code.local(ClassFile.Code.LSTORE, bitsLocal);
      storeScalar(() -> {
        get(d);
        code.op(ClassFile.Code.GETFIELD, cf.fieldRef(DEFAULT,
            "held", "L" + SLOT + ";"));
      }, tagLocal, bitsLocal);
      code.jump(ClassFile.Code.GOTO, done);
      code.place(slow);
      computeInto(d, tagLocal, bitsLocal);
      code.place(done);
      vals.put(d, new Local(d, tagLocal, bitsLocal));
    }

    /** Jumps to {@code otherwise} unless the value's tag is {@code kind}. */
    private void requireTag(Val v, int kind, ClassFile.Code.Label otherwise) {
      loadTag(v);
      code.smallInt(kind);
      code.jump(ClassFile.Code.IF_ICMPNE, otherwise);
    }

    /**
     * Both operands are present: remember them as the lifting memories. A tag is stored only
     * when it changes and a constant operand's memory never (it is read only when the operand
     * is NoVal, which a constant never is): stores dominate a scalar tick.
     */
    private void holdBoth(TypedNodes.TypedBinary t, Val l, Val r, int kind) {
      hold(t, t.left, l, kind, "heldLeftTag", "heldLeft");
      hold(t, t.right, r, kind, "heldRightTag", "heldRight");
    }

    private void hold(TypedNodes.TypedBinary t, Node operand, Val v, int kind, String tagField,
        String bitsField) {
      if (operand instanceof Nodes.Const) {
        return;
      }
      ClassFile.Code.Label same = new ClassFile.Code.Label();
      get(t);
      code.op(ClassFile.Code.GETFIELD, cf.fieldRef(TYPED, tagField, "B"));
      code.smallInt(kind);
      code.jump(ClassFile.Code.IF_ICMPEQ, same);
      get(t);
      code.smallInt(kind);
      code.op(ClassFile.Code.PUTFIELD, cf.fieldRef(TYPED, tagField, "B"));
      code.place(same);
      get(t);
      loadBits(v);
      code.op(ClassFile.Code.PUTFIELD, cf.fieldRef(TYPED, bitsField, "J"));
    }

    private void loadDouble(Val v) {
      loadBits(v);
      bitsToDouble(code, cf);
    }

    /** With a comparison result (-1, 0, 1) on the stack: a Bool into the locals. */
    private void compareResult(Ast.BinOp op, int tagLocal, int bitsLocal,
        ClassFile.Code.Label done) {
      compareToBits(code, op);
      code.local(ClassFile.Code.LSTORE, bitsLocal);
      code.smallInt(io.dataflow.core.Kind.BOOL);
      code.local(ClassFile.Code.ISTORE, tagLocal);
      code.jump(ClassFile.Code.GOTO, done);
    }
  }

  /** With a comparison result (-1, 0, 1) on the stack: the comparison's Bool as 0L or 1L. */
  private static void compareToBits(ClassFile.Code code, Ast.BinOp op) {
    int whenTrue = switch (op) {
      case LT -> ClassFile.Code.IFLT;
      case LE -> ClassFile.Code.IFLE;
      case GT -> ClassFile.Code.IFGT;
      default -> ClassFile.Code.IFGE;
    };
    ClassFile.Code.Label yes = new ClassFile.Code.Label();
    ClassFile.Code.Label stored = new ClassFile.Code.Label();
    code.jump(whenTrue, yes);
    code.op(ClassFile.Code.LCONST_0);
    code.jump(ClassFile.Code.GOTO, stored);
    code.place(yes);
    code.op(ClassFile.Code.LCONST_1);
    code.place(stored);
  }

  /** With two doubles on the stack: their comparison (-1, 0, 1); NaN compares false. */
  private static void compareDoubles(ClassFile.Code code, Ast.BinOp op) {
    // dcmpg for < and <= (NaN gives 1), dcmpl for > and >= (NaN gives -1)
    code.op(op == Ast.BinOp.LT || op == Ast.BinOp.LE ? ClassFile.Code.DCMPG
        : ClassFile.Code.DCMPL);
  }

  /** A long on the stack as the double whose raw bits it is. */
  private static void bitsToDouble(ClassFile.Code code, ClassFile cf) {
    code.op(ClassFile.Code.INVOKESTATIC, cf.methodRef("java/lang/Double", "longBitsToDouble",
        "(J)D"));
  }

  /** After the left operand's bits are pushed: {@code =>} negates it ({@code !a || b}). */
  private static void negateIfImplies(ClassFile.Code code, TypedNodes.TypedBinary t) {
    if (t.op == Ast.BinOp.IMPLIES) {
      code.op(ClassFile.Code.LCONST_1); // !a on 0/1 bits
      code.op(ClassFile.Code.LXOR);
    }
  }

  /**
   * With both operands' bits on the stack: the operation of an {@code IntArith} (checked, may
   * throw) or a {@code BoolLogic} on present values of its kind; leaves the result's bits.
   */
  private static void operate(ClassFile.Code code, ClassFile cf, TypedNodes.TypedBinary t) {
    if (t instanceof TypedNodes.IntArith) {
      String op = switch (t.op) {
        case ADD -> "addInt";
        case SUB -> "subInt";
        case MUL -> "mulInt";
        case DIV -> "div";
        default -> "mod";
      };
      code.op(ClassFile.Code.INVOKESTATIC, cf.methodRef(OPS, op, "(JJ)J"));
    } else if (t.op == Ast.BinOp.AND) {
      code.op(ClassFile.Code.LAND);
    } else { // OR, and IMPLIES as !a || b
      code.op(ClassFile.Code.LOR);
    }
  }

  private static void getConstant(ClassFile.Code c, ClassFile cf, String name, Object o,
      List<Object> constants, Map<Object, Integer> index) {
    int i = index.get(o);
    c.op(ClassFile.Code.GETSTATIC, cf.constantField(i, () -> cf.fieldRef(name, fieldName(i),
        descriptor(o))));
  }

}
