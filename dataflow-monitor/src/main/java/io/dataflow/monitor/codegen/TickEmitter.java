package io.dataflow.monitor.codegen;

import io.dataflow.core.Row;
import io.dataflow.core.TickColumns;
import io.dataflow.monitor.codegen.Members.MethodRef;
import io.dataflow.monitor.eval.Committable;
import io.dataflow.monitor.eval.DynamicNode;
import io.dataflow.monitor.eval.Node;
import io.dataflow.monitor.eval.StreamCell;
import io.dataflow.monitor.eval.TemporalNodes;
import io.dataflow.monitor.eval.TypeCheck;
import org.objectweb.asm.Label;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The per-tick methods of a monitor's generated class ({@link FusedStreams}): {@code run}
 * (rows) and {@code step} (the typed handles' staged values) read the inputs into their cells,
 * call one static method {@code s<i>} per stream in order, check the outputs, commit the rings
 * and operator state, and ({@code run}) write the output row. One method per stream keeps
 * every method small enough for the JIT, and carries the line of the stream's equation.
 */
final class TickEmitter implements Opcodes {
  /** The descriptor of {@code batch} and {@code dense}: (in, out, from, to) to the tick reached. */
  static final String BATCH = Type.getMethodDescriptor(Type.INT_TYPE,
      Type.getType(TickColumns.class), Type.getType(TickColumns.class), Type.INT_TYPE,
      Type.INT_TYPE);
  private static final String ROW = Type.getDescriptor(Row.class);

  private final ClassDefiner cls;
  private final Tick tick;

  TickEmitter(ClassDefiner cls, Tick tick) {
    this.cls = cls;
    this.tick = tick;
  }

  /** Every constant the per-tick methods name. */
  static void collect(Tick tick, Constants k) {
    k.add(tick.monitor());
    for (StreamCell c : tick.inputs()) {
      k.add(c);
      if (tick.inputChecks()[c.index] != null) {
        k.add(tick.inputChecks()[c.index]);
      }
    }
    for (Object s : tick.staged()) {
      k.add(s);
    }
    for (StreamCell c : tick.outputs()) {
      k.add(c);
    }
    for (StreamCell c : tick.ringCells()) {
      k.add(c);
      k.add(c.ring);
    }
    for (StreamCell c : tick.committing()) {
      k.add(c);
      if (commitsDirectly(c)) {
        for (Committable x : c.commits) {
          k.add(x);
        }
      }
    }
    for (int s = 0; s < tick.order().length; s++) {
      StreamCell c = tick.order()[s];
      k.add(c);
      if (tick.check(s) != null) {
        k.add(tick.check(s)); // the stream's check, run inline
      }
      k.add(c.root);
      collectNodes(tick.schedules().get(s), k);
    }
  }

  /** The nodes of a schedule, their operands (leaves are read inline) and rings read inline. */
  static void collectNodes(Iterable<Node> schedule, Constants k) {
    for (Node n : schedule) {
      k.add(n);
      for (Node input : n.inputs()) {
        k.add(input);
      }
      if (n instanceof TemporalNodes.HistoryRead h && h.ring != null) {
        k.add(h.ring);
      }
    }
  }

  /** Writes {@code run}, {@code step} and one method per stream. */
  void emit() {
    Code run = cls.method(ACC_PUBLIC, "run", "(" + ROW + ROW + ")V");
    for (int i = 0; i < tick.inputs().length; i++) {
      StreamCell c = tick.inputs()[i];
      run.get(tick.monitor());
      run.get(c);
      run.aload(1);
      run.intConstant(i);
      TypeCheck.Compiled check = tick.inputChecks()[c.index];
      if (check == null) {
        run.op(ACONST_NULL);
      } else {
        run.get(check);
      }
      run.invoke(Members.READ_INPUT);
    }
    streamsAndCommit(run);
    for (int j = 0; j < tick.outputs().length; j++) {
      run.get(tick.outputs()[j]);
      run.aload(2);
      run.intConstant(j);
      run.invoke(Members.CELL_COPY_TO);
    }
    run.op(RETURN);
    run.end();
    // step(): the staged values of the typed input handles instead of a row, no output row.
    Code step = cls.method(ACC_PUBLIC, "step", "()V");
    for (int i = 0; i < tick.inputs().length; i++) {
      step.get(tick.inputs()[i]);
      step.get(tick.staged()[i]);
      step.invoke(Members.CELL_TAKE);
    }
    streamsAndCommit(step);
    step.op(RETURN);
    step.end();
    for (int s = 0; s < tick.order().length; s++) {
      stream(s);
    }
  }

  /** {@code batch} for a program the loop does not cover: the per-tick path does every tick. */
  void emitNoBatch() {
    Code batch = cls.method(ACC_PUBLIC, "batch", BATCH);
    batch.iload(3);
    batch.op(IRETURN);
    batch.end();
  }

  /** The tick once the inputs are in their cells: the streams, the checks, the commit. */
  private void streamsAndCommit(Code run) {
    for (int s = 0; s < tick.order().length; s++) {
      run.mv.visitMethodInsn(INVOKESTATIC, cls.name, "s" + s, "()V", false);
    }
    if (tick.checkOutputs()) {
      run.get(tick.monitor());
      run.invoke(Members.CHECK_OUTPUTS);
    }
    for (StreamCell c : tick.ringCells()) {
      run.get(c.ring);
      run.get(c);
      run.invoke(Members.RING_PUSH);
    }
    for (StreamCell c : tick.committing()) {
      if (commitsDirectly(c)) {
        // Direct calls on constant receivers of exact classes: no list walk, no dispatch.
        for (Committable k : c.commits) {
          run.get(k);
          run.invoke(MethodRef.exact(k, "commit"));
        }
      } else {
        run.get(c);
        run.invoke(Members.CELL_COMMIT_ALL);
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

  /** One stream: compute its nodes, store the root into the cell, check, attribute failures. */
  private void stream(int s) {
    StreamCell cell = tick.order()[s];
    TypeCheck.Compiled check = tick.check(s);
    boolean repairable = tick.dynamic() && tick.repairable()[cell.index];
    Code c = cls.method(ACC_STATIC, "s" + s, "()V");
    StreamEmitter e = new StreamEmitter(c, 1); // local 0 holds a caught exception
    Label skip = new Label();
    Label start = new Label();
    Label end = new Label();
    Label handler = new Label();
    c.catchAll(start, end, handler);
    c.place(start);
    c.line(tick.line(s));
    if (repairable) {
      // A dynamic body may have evaluated this stream already this tick (order repair).
      c.get(tick.monitor());
      c.get(cell);
      c.invoke(Members.ENTER);
      c.jump(IFEQ, skip);
    }
    for (Node n : tick.schedules().get(s)) {
      e.node(n);
    }
    StreamEmitter.Val root = e.val(cell.root);
    if (tick.dynamic()) {
      // Bodies read the run's last present value of this stream (StreamCell.overwriting).
      c.get(cell);
      root.loadTag(c);
      c.invoke(Members.CELL_OVERWRITING);
    }
    if (root instanceof StreamEmitter.Local l) {
      // The root's value goes straight into the cell (nothing reads the root node's slot).
      c.get(cell);
      c.iload(l.tag());
      c.putField(Members.SLOT_TAG);
      c.get(cell);
      c.lload(l.bits());
      c.putField(Members.SLOT_BITS);
      c.get(cell);
      c.invoke(Members.SLOT_CLEAR_REF);
    } else {
      c.get(cell);
      c.get(cell.root);
      c.invoke(Members.CELL_SET);
    }
    if (check != null) {
      // The tag comparison inline; the monitor builds the error when it fails.
      Label ok = new Label();
      c.get(check);
      c.get(cell);
      c.invoke(Members.CHECK_MATCHES);
      c.jump(IFNE, ok);
      c.get(tick.monitor());
      c.get(cell);
      c.invoke(Members.CHECK_TYPE);
      c.place(ok);
    }
    if (repairable) {
      c.get(tick.monitor());
      c.get(cell);
      c.invoke(Members.LEAVE);
    }
    c.place(end);
    c.place(skip);
    c.op(RETURN);
    c.place(handler);
    c.astore(0);
    c.get(tick.monitor());
    c.get(cell);
    c.invoke(Members.FAILED_IN);
    c.aload(0);
    c.op(ATHROW);
    c.end();
  }
}
