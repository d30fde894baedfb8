package io.dataflow.monitor.codegen;

import io.dataflow.monitor.eval.BodyCompiler;
import io.dataflow.monitor.eval.CompiledBody;
import io.dataflow.monitor.eval.DynamicBodies;
import io.dataflow.monitor.eval.Evaluator;
import io.dataflow.monitor.eval.KeyedKernel;
import io.dataflow.monitor.eval.Node;
import io.dataflow.monitor.eval.StreamCell;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Opcodes;

/**
 * The code generator's entry point: generates, per monitor, a class that runs one tick as
 * straight-line code (and, for the programs {@link Coverage} admits, a batch in columns as one
 * loop), and per long-lived dynamic body a class that computes it.
 *
 * <h2>Implementation note</h2>
 * The node objects keep all state and all semantics; the generated code only replaces the
 * walk. Nodes and cells become {@code static final} fields of the generated class, so the JIT
 * sees constant receivers of exact types: no virtual dispatch, no pointer chasing through the
 * tree. Who does what:
 * <ul>
 *   <li>{@link Coverage}: which programs fuse into the batch loop, and the static kinds there;
 *   <li>{@link TickEmitter} and {@link StreamEmitter}: the per-tick methods ({@code run},
 *       {@code step}, one per stream);
 *   <li>{@link BatchEmitter}: the batch loops ({@code batch}, {@code dense});
 *   <li>{@link TypedOperatorCode}: a typed operator's code in all three forms, derived from
 *       what the operator says about itself ({@code TypedNodes});
 *   <li>{@link ClassDefiner}, {@link Code}, {@link Constants}, {@link Members}: writing the
 *       class with ASM, defining and loading it, dumping and checking it.
 * </ul>
 * A program too large for one class falls back to the interpreter, which
 * {@link GenerationRefused} says (nothing else is caught: a generator bug propagates).
 */
public final class FusedCompiler {
  // Looked up on use: a clean run never starts SLF4J (docs/decisions.md, loggers on use).
  private static org.slf4j.Logger log() {
    return org.slf4j.LoggerFactory.getLogger(FusedCompiler.class);
  }
  /** Whether a dynamic body's refusal was logged at WARN already (see compileBody). */
  private static final java.util.concurrent.atomic.AtomicBoolean BODY_REFUSAL_LOGGED =
      new java.util.concurrent.atomic.AtomicBoolean();

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
        log().error("code generation failed on the background thread", e);
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
    List<List<Node>> schedules = new ArrayList<>();
    for (StreamCell c : order) {
      schedules.add(schedule(c.root));
    }
    Tick tick = new Tick(evaluator, order, schedules, evaluator.checkedStreams(),
        evaluator.inputCells(), evaluator.checkedTypes(), evaluator.staged(),
        evaluator.outputCells(), evaluator.ringCells(), evaluator.committing(),
        evaluator.untypedOutputs().length > 0, evaluator.repairable());
    Constants constants = new Constants();
    TickEmitter.collect(tick, constants);
    constants.requireFew();
    ClassDefiner cls = new ClassDefiner("Tick", tick.source(), FusedStreams.class, constants);
    TickEmitter emitter = new TickEmitter(cls, tick);
    emitter.emit();
    Coverage coverage = new Coverage(evaluator);
    if (!coverage.batchable(tick) || !BatchEmitter.emit(cls, tick, coverage, constants)) {
      emitter.emitNoBatch();
    }
    return cls.define(FusedStreams.class);
  }

  /** Generated keyed kernels by {@link KeyedKernel#signature()} (LRU; classes hold no object). */
  private static final java.util.Map<String, KeyedKernel.Code> KERNELS =
      new java.util.LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<String, KeyedKernel.Code> e) {
          return size() > 256;
        }
      };

  /**
   * Generated code for a keyed kernel's steps ({@link KernelEmitter}); kernels of the same
   * steps (the keyed monitors of one program on several lanes) share one class, so the
   * drivers' call of it stays monomorphic.
   *
   * @throws GenerationRefused when the JVM refuses the class (the kernel then keeps
   *     interpreting its steps)
   */
  public static KeyedKernel.Code keyedKernel(KeyedKernel kernel) throws GenerationRefused {
    String key = kernel.signature();
    synchronized (KERNELS) {
      KeyedKernel.Code c = KERNELS.get(key);
      if (c != null) {
        return c;
      }
    }
    KeyedKernel.Code c = KernelEmitter.emit(kernel);
    synchronized (KERNELS) {
      KeyedKernel.Code first = KERNELS.putIfAbsent(key, c);
      return first != null ? first : c;
    }
  }

  /**
   * Straight-line code for one subtree (a dynamic property's body): computes its nodes and
   * leaves the value in the root node's slot. Null when generation refuses the body
   * ({@link GenerationRefused}: the interpreter keeps running it); a bug propagates.
   */
  static CompiledBody compileBody(Node root) {
    List<Node> schedule = schedule(root);
    Constants constants = new Constants();
    constants.add(root);
    TickEmitter.collectNodes(schedule, constants);
    for (Node n : schedule) {
      if (n instanceof DynamicBodies.OuterRead r) {
        constants.add(r.cell); // read inline
      }
    }
    try {
      constants.requireFew();
      ClassDefiner cls = new ClassDefiner("Body", "dynamic property body",
          CompiledBody.class, constants);
      Code run = cls.method(Opcodes.ACC_PUBLIC, "run", "()V");
      StreamEmitter e = new StreamEmitter(run, 1); // local 0 is this
      for (Node n : schedule) {
        e.node(n);
      }
      e.materialize(e.val(root));
      run.op(Opcodes.RETURN);
      run.end();
      return cls.define(CompiledBody.class);
    } catch (GenerationRefused e) {
      // A body has no program name to report; the interpreter keeps running it. Said once at
      // WARN (a JVM that refuses one body's class likely refuses others), then at DEBUG.
      if (BODY_REFUSAL_LOGGED.compareAndSet(false, true)) {
        log().warn("a dynamic property's body runs interpreted: {}", e.reason());
      } else {
        log().debug("a dynamic property's body runs interpreted: {}", e.reason());
      }
      return null;
    }
  }

  /** The nodes to compute before {@code root}'s value is there, children first. */
  private static List<Node> schedule(Node root) {
    List<Node> out = new ArrayList<>();
    postOrder(root, out);
    return out;
  }

  private static void postOrder(Node n, List<Node> out) {
    if (n.isLeaf()) {
      return;
    }
    for (Node input : n.inputs()) {
      postOrder(input, out);
    }
    out.add(n);
  }

  /**
   * Generated batch code: the index after the last of {@code kinds[from, to)} that is not
   * {@code kind}, or {@code from} when they all are. Backwards, eight kinds per load: a quarter
   * of a dense batch's time went to this scan one byte at a time. (Public: the generated
   * classes live in another package.)
   */
  public static int afterLastOther(byte[] kinds, int from, int to, int kind) {
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
}
