package io.dataflow.monitor.codegen;

import io.dataflow.core.Kind;
import io.dataflow.monitor.eval.HistoryRing;
import io.dataflow.monitor.eval.Node;
import io.dataflow.monitor.eval.Nodes;
import io.dataflow.monitor.eval.StreamCell;
import io.dataflow.monitor.eval.TemporalNodes;
import io.dataflow.monitor.eval.TypedNodes;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.Opcodes;

/**
 * The loop over a batch of ticks in columns ({@link FusedStreams#batch}) for the programs
 * {@link Coverage} says it covers. The language's semantics fit in locals there: each stream's
 * value, each operator's two lifting memories, each history read's last result, each ring's
 * samples (a shift register) and each input's run-long last present value live in locals for
 * the whole batch and go back into their objects when the loop ends (or leaves a tick to the
 * per-tick path). Only the output columns are written per tick. A dense batch (every input
 * present with its declared kind, every ring full of present samples) runs a second loop,
 * {@code dense}, that keeps payloads only.
 *
 * <p>Locals of both methods: {@code this, in, out, from, to, i}, then the emitter's.
 *
 * <p>Thread-safety: not thread-safe; one per method being written.
 */
final class BatchEmitter implements Opcodes {
  /** Beyond this many bytes the JIT would not compile the method: the per-tick path runs. */
  static final int MAX_CODE = 7000;
  private static final int IN = 1;
  private static final int OUT = 2;
  private static final int FROM = 3;
  private static final int TO = 4;
  private static final int I = 5;

  private final Code code;
  private final Tick tick;
  private final Coverage coverage;
  /** The locals of each value: cells and computed nodes, {tag, bits}. */
  private final Map<Node, int[]> locals = new IdentityHashMap<>();
  /** The lifting memories of each typed node: {leftTag, leftBits, rightTag, rightBits}. */
  private final Map<Node, int[]> held = new IdentityHashMap<>();
  /** The memory of each history read (its last result) and default: {tag, bits}. */
  private final Map<Node, int[]> memory = new IdentityHashMap<>();
  /** Each ring's samples: {size, tag1, bits1, tag2, bits2, ...}, newest first. */
  private final Map<HistoryRing, int[]> history = new IdentityHashMap<>();
  private int next = 6; // this, in, out, from, to, i

  private BatchEmitter(Code code, Tick tick, Coverage coverage) {
    this.code = code;
    this.tick = tick;
    this.coverage = coverage;
  }

  /**
   * Writes {@code batch} (and {@code dense} when it fits) into {@code cls}, or returns false
   * when neither loop fits and the caller writes a {@code batch} that leaves every tick to the
   * per-tick path. A general loop too large for the JIT leaves the ticks of batches that are
   * not dense to the per-tick path (the dense loop is several times smaller).
   */
  static boolean emit(ClassDefiner cls, Tick tick, Coverage coverage, Constants constants) {
    boolean dense = denseCovered(tick, coverage) && fits(constants,
        c -> new BatchEmitter(c, tick, coverage).dense());
    if (dense) {
      new BatchEmitter(cls.method(ACC_PUBLIC, "dense", TickEmitter.BATCH), tick, coverage)
          .dense();
    }
    if (fits(constants, c -> new BatchEmitter(c, tick, coverage).general(dense))) {
      new BatchEmitter(cls.method(ACC_PUBLIC, "batch", TickEmitter.BATCH), tick, coverage)
          .general(dense);
      return true;
    }
    if (dense) {
      new BatchEmitter(cls.method(ACC_PUBLIC, "batch", TickEmitter.BATCH), tick, coverage)
          .dispatchOnly();
      return true;
    }
    if (Boolean.getBoolean("dataflow.monitor.fused.debug")) {
      System.err.println("batch loop too large for the JIT: left to the per-tick path");
    }
    return false;
  }

  /** Whether a method's code fits {@link #MAX_CODE}: written once, for its size only. */
  private static boolean fits(Constants constants, Consumer<Code> method) {
    ClassWriter scratch = new ClassWriter(0);
    scratch.visit(V17, ACC_PUBLIC, "Scratch", null, "java/lang/Object", null);
    Code c = new Code(scratch.visitMethod(ACC_PUBLIC, "m", TickEmitter.BATCH, null, null),
        constants);
    method.accept(c);
    return c.size() <= MAX_CODE;
  }

  /** The dense loop writes back the declared kinds as tags: they must be the values'. */
  private static boolean denseCovered(Tick tick, Coverage coverage) {
    for (StreamCell c : tick.order()) {
      if (coverage.kindOf(c.root) != coverage.kindOf(c)) {
        return false;
      }
    }
    return true;
  }

  private int local(int size) {
    int at = next;
    next += size;
    return at;
  }

  private int kindOf(Node n) {
    return coverage.kindOf(n);
  }

  /**
   * The general loop. With {@code dense}, a batch whose every input is of its declared kind on
   * every tick, with every ring full of samples of its kind, goes to the {@link #dense} loop
   * instead.
   */
  private void general(boolean dense) {
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
      columns(IN, j, inArrays[j]);
    }
    int[][] outArrays = new int[outputs.length][];
    for (int j = 0; j < outputs.length; j++) {
      outArrays[j] = new int[] {local(1), local(1)};
      columns(OUT, j, outArrays[j]);
    }
    // Prologue: the state into locals.
    List<StreamCell> cells = cells();
    for (StreamCell c : cells) {
      int[] v = {local(1), local(2)};
      locals.put(c, v);
      code.get(c);
      code.getField(Members.SLOT_TAG);
      code.istore(v[0]);
      code.get(c);
      code.getField(Members.SLOT_BITS);
      code.lstore(v[1]);
    }
    for (int j = 0; j < inputs.length; j++) {
      code.get(inputs[j]);
      code.invoke(Members.CELL_LAST_PRESENT);
      code.op(DUP);
      code.getField(Members.SLOT_TAG);
      code.istore(lastPresent[j][0]);
      code.getField(Members.SLOT_BITS);
      code.lstore(lastPresent[j][1]);
    }
    for (List<Node> schedule : tick.schedules()) {
      for (Node n : schedule) {
        if (n instanceof TypedNodes.TypedBinary t) {
          int[] h = {local(1), local(2), local(1), local(2)};
          held.put(t, h);
          code.get(t);
          code.getField(Members.HELD_LEFT_TAG);
          code.istore(h[0]);
          code.get(t);
          code.getField(Members.HELD_LEFT);
          code.lstore(h[1]);
          code.get(t);
          code.getField(Members.HELD_RIGHT_TAG);
          code.istore(h[2]);
          code.get(t);
          code.getField(Members.HELD_RIGHT);
          code.lstore(h[3]);
        } else {
          // A history read's last result, a default's lifting memory: one slot each.
          int[] m = {local(1), local(2)};
          memory.put(n, m);
          memorySlot(n);
          code.op(DUP);
          code.getField(Members.SLOT_TAG);
          code.istore(m[0]);
          code.getField(Members.SLOT_BITS);
          code.lstore(m[1]);
        }
        locals.put(n, new int[] {local(1), local(2)});
      }
    }
    loadRings(true);
    Label end = new Label();
    Label bail = new Label();
    Label loop = loopHead(end);
    // Each input's kind must be NoVal, Deferred or the declared one; anything else (a type
    // error among them) is left to the per-tick path, before this tick changed anything.
    for (int j = 0; j < inputs.length; j++) {
      Label ok = new Label();
      code.aload(inArrays[j][0]);
      code.iload(I);
      code.op(BALOAD);
      code.istore(inKind[j]);
      code.iload(inKind[j]);
      code.intConstant(kindOf(inputs[j]));
      code.jump(IF_ICMPEQ, ok);
      code.iload(inKind[j]);
      code.intConstant(Kind.DEFERRED);
      code.jump(IF_ICMPGT, bail);
      code.place(ok);
    }
    for (int j = 0; j < inputs.length; j++) {
      int[] v = locals.get(inputs[j]);
      code.iload(inKind[j]);
      code.istore(v[0]);
      code.aload(inArrays[j][1]);
      code.iload(I);
      code.op(LALOAD);
      code.lstore(v[1]);
    }
    Label[][] ranges = tryRanges();
    streams(true, ranges);
    for (int j = 0; j < outputs.length; j++) {
      int[] v = locals.get(outputs[j]);
      code.aload(outArrays[j][0]);
      code.iload(I);
      code.iload(v[0]);
      code.op(BASTORE);
      code.aload(outArrays[j][1]);
      code.iload(I);
      code.lload(v[1]);
      code.op(LASTORE);
    }
    shiftRings(true);
    loopTail(loop, end);
    writeBack(cells, lastPresent, inArrays);
    code.iload(TO);
    code.op(IRETURN);
    code.place(bail);
    writeBack(cells, lastPresent, inArrays);
    code.iload(I);
    code.op(IRETURN);
    failures(ranges);
    code.end();
  }

  /** The inputs, then the computed streams in order. */
  private List<StreamCell> cells() {
    List<StreamCell> cells = new ArrayList<>(List.of(tick.inputs()));
    cells.addAll(List.of(tick.order()));
    return cells;
  }

  /** A value of the loop as an operand of {@link TypedOperatorCode}. */
  private TypedOperatorCode.Operand operand(Node n) {
    return new TypedOperatorCode.Operand() {
      @Override
      public void loadTag(Code c) {
        if (n instanceof Nodes.Const) {
          c.get(n);
          c.getField(Members.SLOT_TAG);
        } else {
          c.iload(locals.get(n)[0]);
        }
      }

      @Override
      public void loadBits(Code c) {
        if (n instanceof Nodes.Const) {
          c.get(n);
          c.getField(Members.SLOT_BITS);
        } else {
          c.lload(locals.get(n)[1]);
        }
      }

      @Override
      public boolean constant() {
        return n instanceof Nodes.Const;
      }
    };
  }

  /**
   * One tick's streams in order, each stream's nodes then its value into the stream's locals;
   * with {@code tags} the general loop's semantics (tags, lifting, memories), else the dense
   * loop's (payloads only). Each stream's code carries its equation's line and is the range
   * {@code ranges[s]} of its handler (see {@link #tryRanges}).
   */
  private void streams(boolean tags, Label[][] ranges) {
    StreamCell[] order = tick.order();
    for (int s = 0; s < order.length; s++) {
      code.place(ranges[s][0]);
      code.line(tick.line(s));
      for (Node n : tick.schedules().get(s)) {
        if (n instanceof TypedNodes.TypedBinary t) {
          int kind = kindOf(t.left);
          if (tags) {
            TypedOperatorCode.general(code, t, operand(t.left), operand(t.right), kind,
                held.get(t), locals.get(t));
            continue;
          }
          TypedOperatorCode.dense(code, t, operand(t.left), operand(t.right), kind);
        } else if (tags) {
          if (n instanceof TemporalNodes.HistoryRead h) {
            historyRead(h);
          } else {
            defaultOf((TemporalNodes.Default) n);
          }
          continue;
        } else if (n instanceof TemporalNodes.HistoryRead r) {
          code.lload(history.get(r.ring)[3 * r.offset - 1]);
        } else {
          loadBits(((TemporalNodes.Default) n).value);
        }
        code.lstore(locals.get(n)[1]);
      }
      int[] v = locals.get(order[s]);
      if (tags) {
        load(order[s].root);
        code.lstore(v[1]);
        code.istore(v[0]);
      } else {
        loadBits(order[s].root);
        code.lstore(v[1]);
      }
      code.place(ranges[s][1]); // never empty: the stream's value is stored
    }
  }

  /** Per stream, the code range {start, end, handler} whose failure {@link #failures} names. */
  private Label[][] tryRanges() {
    Label[][] ranges = new Label[tick.order().length][];
    for (int s = 0; s < ranges.length; s++) {
      ranges[s] = new Label[] {new Label(), new Label(), new Label()};
      code.catchAll(ranges[s][0], ranges[s][1], ranges[s][2]);
    }
    return ranges;
  }

  /** A failing operator (overflow, division by zero) names its stream and tick. */
  private void failures(Label[][] ranges) {
    StreamCell[] order = tick.order();
    for (int s = 0; s < ranges.length; s++) {
      code.place(ranges[s][2]);
      code.get(tick.monitor());
      code.get(order[s]);
      code.iload(I);
      code.invoke(Members.FAILED_IN_BATCH);
      code.op(ATHROW);
    }
  }

  /**
   * {@code batch} without a general loop: a dense batch, or {@code ~to} with {@code to} where
   * the dense loop could take over (see {@link FusedStreams#batch}).
   */
  private void dispatchOnly() {
    denseDispatch();
    code.iload(TO);
    code.intConstant(-1);
    code.op(IXOR);
    code.op(IRETURN);
    code.end();
  }

  /**
   * When the batch is dense: {@code return dense(in, out, from, to)}. Otherwise {@code to}
   * moves back to where the dense loop could take over (the deepest ring's depth after the
   * last tick with an input of another kind), so that the rest of the batch is offered to it
   * again; what follows runs the rest of the batch as before.
   */
  private void denseDispatch() {
    Label general = new Label();
    Label limit = new Label();
    code.iload(FROM);
    code.iload(TO);
    code.jump(IF_ICMPGE, general);
    int last = local(1); // the index after the last tick with an input of another kind
    code.iload(FROM);
    code.istore(last);
    StreamCell[] inputs = tick.inputs();
    for (int j = 0; j < inputs.length; j++) {
      pushColumn(IN, j, true);
      code.iload(FROM);
      code.iload(TO);
      code.intConstant(kindOf(inputs[j]));
      code.invoke(Members.AFTER_LAST_OTHER);
      code.iload(last);
      code.invoke(Members.MAX);
      code.istore(last);
    }
    code.iload(last);
    code.iload(FROM);
    code.jump(IF_ICMPNE, limit);
    int depth = 0;
    for (StreamCell c : tick.ringCells()) {
      depth = Math.max(depth, c.ring.depth());
      code.get(c.ring);
      code.intConstant(kindOf(c));
      code.invoke(Members.RING_FULL_OF);
      code.jump(IFEQ, limit);
    }
    code.aload(0);
    code.aload(IN);
    code.aload(OUT);
    code.iload(FROM);
    code.iload(TO);
    code.mv.visitMethodInsn(INVOKEVIRTUAL, code.owner(), "dense", TickEmitter.BATCH, false);
    code.op(IRETURN);
    code.place(limit);
    // Rings need 'depth' ticks of present samples after the last absence to be full again;
    // at least 8 ticks each time, so that rings slow to fill cost few checks.
    code.iload(last);
    code.intConstant(depth);
    code.op(IADD);
    code.iload(FROM);
    code.intConstant(8);
    code.op(IADD);
    code.invoke(Members.MAX);
    code.istore(last);
    code.iload(last);
    code.iload(TO);
    code.jump(IF_ICMPGE, general);
    code.iload(last);
    code.istore(TO);
    code.place(general);
  }

  /**
   * The loop for a dense batch (see {@link #general}; the caller checked it). Every value of
   * every tick is then present and of its static kind (an input by the check; a typed operator
   * of present operands; a history read of a full ring of present samples, which stays so; a
   * default of a present value), so the loop keeps only payloads: no tags, no lifting, no
   * memories. After the loop, each memory is what the general loop would have left: its
   * operand's value on the last tick.
   */
  private void dense() {
    StreamCell[] inputs = tick.inputs();
    StreamCell[] outputs = tick.outputs();
    code.get(tick.monitor());
    code.op(DUP);
    code.getField(Members.DENSE_BATCHES);
    code.op(LCONST_1);
    code.op(LADD);
    code.putField(Members.DENSE_BATCHES);
    int[] inPayloads = new int[inputs.length];
    for (int j = 0; j < inputs.length; j++) {
      inPayloads[j] = local(1);
      pushColumn(IN, j, false);
      code.astore(inPayloads[j]);
    }
    int[] outPayloads = new int[outputs.length];
    for (int j = 0; j < outputs.length; j++) {
      // Every output is present with its static kind: its kinds in one fill, first, so the
      // ticks before a failing one have theirs.
      pushColumn(OUT, j, true);
      code.iload(FROM);
      code.iload(TO);
      code.intConstant(kindOf(outputs[j]));
      code.invoke(Members.FILL);
      outPayloads[j] = local(1);
      pushColumn(OUT, j, false);
      code.astore(outPayloads[j]);
    }
    List<StreamCell> cells = cells();
    for (StreamCell c : cells) {
      locals.put(c, new int[] {-1, local(2)});
    }
    for (List<Node> schedule : tick.schedules()) {
      for (Node n : schedule) {
        locals.put(n, new int[] {-1, local(2)});
      }
    }
    for (int[] v : locals.values()) {
      // Set on every tick before it is read; the verifier does not know there is a tick.
      code.op(LCONST_0);
      code.lstore(v[1]);
    }
    loadRings(false);
    Label end = new Label();
    Label loop = loopHead(end);
    for (int j = 0; j < inputs.length; j++) {
      code.aload(inPayloads[j]);
      code.iload(I);
      code.op(LALOAD);
      code.lstore(locals.get(inputs[j])[1]);
    }
    Label[][] ranges = tryRanges();
    streams(false, ranges);
    for (int j = 0; j < outputs.length; j++) {
      code.aload(outPayloads[j]);
      code.iload(I);
      code.lload(locals.get(outputs[j])[1]);
      code.op(LASTORE);
    }
    shiftRings(false);
    loopTail(loop, end);
    denseWriteBack(cells);
    code.iload(TO);
    code.op(IRETURN);
    failures(ranges);
    code.end();
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
        code.get(c.ring);
        code.getField(Members.RING_SIZE);
        code.istore(h[0]);
      }
      for (int k = 1; k <= depth; k++) {
        if (tags) {
          h[3 * k - 2] = local(1);
          code.get(c.ring);
          code.intConstant(k);
          code.invoke(Members.RING_TAG_AGO);
          code.istore(h[3 * k - 2]);
        }
        h[3 * k - 1] = local(2);
        code.get(c.ring);
        code.intConstant(k);
        code.invoke(Members.RING_BITS_AGO);
        code.lstore(h[3 * k - 1]);
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
          code.iload(k == 1 ? v[0] : h[3 * (k - 1) - 2]);
          code.istore(h[3 * k - 2]);
        }
        code.lload(k == 1 ? v[1] : h[3 * (k - 1) - 1]);
        code.lstore(h[3 * k - 1]);
      }
      if (tags) {
        Label full = new Label();
        code.iload(h[0]);
        code.intConstant(depth);
        code.jump(IF_ICMPGE, full);
        code.iinc(h[0], 1);
        code.place(full);
      }
    }
  }

  /** {@code i = from}, then the loop's head: on to {@code end} once {@code i == to}. */
  private Label loopHead(Label end) {
    code.iload(FROM);
    code.istore(I);
    Label loop = code.here();
    code.iload(I);
    code.iload(TO);
    code.jump(IF_ICMPGE, end);
    return loop;
  }

  /** {@code i++}, back to the head; {@code end} placed after the loop. */
  private void loopTail(Label loop, Label end) {
    code.iinc(I, 1);
    code.jump(GOTO, loop);
    code.place(end);
  }

  /** Pushes a value's bits: its local, or a constant's own. */
  private void loadBits(Node n) {
    operand(n).loadBits(code);
  }

  /**
   * After a dense batch (at least one tick): every cell, memory and ring as the general loop
   * leaves them, all values being present with their static kinds. An input present on the
   * last tick is its own run-long last present value: nothing to hold.
   */
  private void denseWriteBack(List<StreamCell> cells) {
    for (StreamCell c : cells) {
      code.get(c);
      code.intConstant(kindOf(c));
      code.putField(Members.SLOT_TAG);
      code.get(c);
      code.lload(locals.get(c)[1]);
      code.putField(Members.SLOT_BITS);
      code.get(c);
      code.invoke(Members.SLOT_CLEAR_REF);
    }
    for (List<Node> schedule : tick.schedules()) {
      for (Node n : schedule) {
        if (n instanceof TypedNodes.TypedBinary t) {
          holdDense(t, t.left, Members.HELD_LEFT_TAG, Members.HELD_LEFT);
          holdDense(t, t.right, Members.HELD_RIGHT_TAG, Members.HELD_RIGHT);
        } else {
          // A history read's last result is its sample; a default's memory its value.
          Node last = n instanceof TemporalNodes.Default d ? d.value : n;
          memorySlot(n);
          code.intConstant(kindOf(last));
          loadBits(last);
          code.op(ACONST_NULL);
          code.invoke(Members.SLOT_SET_RAW);
        }
      }
    }
    for (StreamCell c : tick.ringCells()) {
      int[] h = history.get(c.ring);
      for (int ago = c.ring.depth(); ago >= 1; ago--) {
        code.get(c.ring);
        code.intConstant(kindOf(c));
        code.lload(h[3 * ago - 1]);
        code.invoke(Members.RING_PUSH_SCALAR);
      }
    }
  }

  /** A typed operator's memory after a dense batch: its operand of the last tick. */
  private void holdDense(TypedNodes.TypedBinary t, Node operand, Members.FieldRef tag,
      Members.FieldRef bits) {
    if (operand instanceof Nodes.Const) {
      return; // never held
    }
    code.get(t);
    code.intConstant(kindOf(operand));
    code.putField(tag);
    code.get(t);
    code.lload(locals.get(operand)[1]);
    code.putField(bits);
  }

  /** Pushes the kinds (or else the payloads) array of a column of the columns in a local. */
  private void pushColumn(int columnsLocal, int slot, boolean kinds) {
    code.aload(columnsLocal);
    code.intConstant(slot);
    code.invoke(kinds ? Members.COLUMN_KINDS : Members.COLUMN_PAYLOADS);
  }

  private void columns(int columnsLocal, int slot, int[] into) {
    pushColumn(columnsLocal, slot, true);
    code.astore(into[0]);
    pushColumn(columnsLocal, slot, false);
    code.astore(into[1]);
  }

  /** Pushes the slot object that keeps a history read's or a default's memory. */
  private void memorySlot(Node n) {
    code.get(n);
    code.getField(n instanceof TemporalNodes.HistoryRead ? Members.DELAY_LAST
        : Members.DEFAULT_HELD);
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
    Label held = new Label();
    Label absent = new Label();
    code.iload(h[0]);
    code.intConstant(r.offset);
    code.jump(IF_ICMPGE, held);
    code.intConstant(Kind.DEFERRED);
    code.istore(m[0]);
    code.op(LCONST_0);
    code.lstore(m[1]);
    code.jump(GOTO, absent);
    code.place(held);
    code.iload(h[3 * r.offset - 2]);
    code.jump(IFEQ, absent); // a NoVal sample: the last result again
    code.iload(h[3 * r.offset - 2]);
    code.istore(m[0]);
    code.lload(h[3 * r.offset - 1]);
    code.lstore(m[1]);
    code.place(absent);
    code.iload(m[0]);
    code.istore(result[0]);
    code.lload(m[1]);
    code.lstore(result[1]);
  }

  /** {@code default(e, d)}: {@code e} lifted; {@code d} (raw) when that is Deferred. */
  private void defaultOf(TemporalNodes.Default d) {
    int[] m = memory.get(d);
    int[] result = locals.get(d);
    Label absent = new Label();
    Label lifted = new Label();
    Label done = new Label();
    if (d.value instanceof Nodes.Const) {
      load(d.value); // never NoVal: the memory is never read
      code.lstore(m[1]);
      code.istore(m[0]);
    } else {
      int[] v = locals.get(d.value);
      code.iload(v[0]);
      code.jump(IFEQ, absent);
      code.iload(v[0]);
      code.istore(m[0]);
      code.lload(v[1]);
      code.lstore(m[1]);
      code.place(absent);
    }
    code.iload(m[0]);
    code.intConstant(Kind.DEFERRED);
    code.jump(IF_ICMPNE, lifted);
    load(d.fallback);
    code.lstore(result[1]);
    code.istore(result[0]);
    code.jump(GOTO, done);
    code.place(lifted);
    code.iload(m[0]);
    code.istore(result[0]);
    code.lload(m[1]);
    code.lstore(result[1]);
    code.place(done);
  }

  /** Pushes a value's tag (int) and bits (long): a local pair, or a constant's slot. */
  private void load(Node n) {
    TypedOperatorCode.Operand v = operand(n);
    v.loadTag(code);
    v.loadBits(code);
  }

  /** The locals back into the cells, the inputs' last present values and the memories. */
  private void writeBack(List<StreamCell> cells, int[][] lastPresent, int[][] inArrays) {
    for (StreamCell c : cells) {
      int[] v = locals.get(c);
      code.get(c);
      code.iload(v[0]);
      code.putField(Members.SLOT_TAG);
      code.get(c);
      code.lload(v[1]);
      code.putField(Members.SLOT_BITS);
      code.get(c);
      code.invoke(Members.SLOT_CLEAR_REF);
    }
    StreamCell[] inputs = tick.inputs();
    int k = local(1);
    for (int j = 0; j < inputs.length; j++) {
      Label present = new Label();
      code.iload(locals.get(inputs[j])[0]);
      code.jump(IFNE, present);
      // Absent on the last tick: its run-long last present value is the batch's last one
      // (found backwards from the tick before i), else the one from before the batch.
      Label scan = new Label();
      Label found = new Label();
      Label none = new Label();
      code.iload(I);
      code.istore(k);
      code.place(scan);
      code.iload(k);
      code.iload(FROM);
      code.jump(IF_ICMPLE, none);
      code.iinc(k, -1);
      code.aload(inArrays[j][0]);
      code.iload(k);
      code.op(BALOAD);
      code.jump(IFNE, found);
      code.jump(GOTO, scan);
      code.place(found);
      code.aload(inArrays[j][0]);
      code.iload(k);
      code.op(BALOAD);
      code.istore(lastPresent[j][0]);
      code.aload(inArrays[j][1]);
      code.iload(k);
      code.op(LALOAD);
      code.lstore(lastPresent[j][1]);
      code.place(none);
      code.get(inputs[j]);
      code.iload(lastPresent[j][0]);
      code.lload(lastPresent[j][1]);
      code.invoke(Members.CELL_HOLD_PRESENT);
      code.place(present);
    }
    for (Map.Entry<Node, int[]> e : memory.entrySet()) {
      int[] m = e.getValue();
      memorySlot(e.getKey());
      code.iload(m[0]);
      code.lload(m[1]);
      code.op(ACONST_NULL);
      code.invoke(Members.SLOT_SET_RAW);
    }
    for (Map.Entry<HistoryRing, int[]> e : history.entrySet()) {
      int[] h = e.getValue();
      for (int ago = e.getKey().depth(); ago >= 1; ago--) {
        code.get(e.getKey());
        code.iload(h[3 * ago - 2]);
        code.lload(h[3 * ago - 1]);
        code.invoke(Members.RING_PUSH_SCALAR);
      }
      code.get(e.getKey());
      code.iload(h[0]);
      code.invoke(Members.RING_KEEP_NEWEST);
    }
    for (Map.Entry<Node, int[]> e : held.entrySet()) {
      int[] h = e.getValue();
      code.get(e.getKey());
      code.iload(h[0]);
      code.putField(Members.HELD_LEFT_TAG);
      code.get(e.getKey());
      code.lload(h[1]);
      code.putField(Members.HELD_LEFT);
      code.get(e.getKey());
      code.iload(h[2]);
      code.putField(Members.HELD_RIGHT_TAG);
      code.get(e.getKey());
      code.lload(h[3]);
      code.putField(Members.HELD_RIGHT);
    }
  }
}
