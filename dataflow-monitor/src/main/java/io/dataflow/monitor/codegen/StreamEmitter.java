package io.dataflow.monitor.codegen;

import io.dataflow.monitor.codegen.Members.MethodRef;
import io.dataflow.monitor.eval.DynamicBodies;
import io.dataflow.monitor.eval.HistoryRing;
import io.dataflow.monitor.eval.Node;
import io.dataflow.monitor.eval.TemporalNodes;
import io.dataflow.monitor.eval.TypedNodes;
import java.util.IdentityHashMap;
import java.util.Map;
import org.objectweb.asm.Label;
import org.objectweb.asm.Opcodes;

/**
 * Emits the nodes of one stream (or of a dynamic body) for the per-tick path. Typed scalar
 * operators run inline on their fast path ({@link TypedOperatorCode#perTick}): operands are
 * read from slots or locals, the lifting memories are written, the result stays in locals.
 * Scalar history reads, defaults and a body's reads of outer streams have fast paths too.
 * Anything else (and every slow path: absence, errors) calls the node's own {@code compute()},
 * after storing the local values of its operands into their slots.
 *
 * <p>Thread-safety: not thread-safe; one per method being written.
 */
final class StreamEmitter implements Opcodes {
  /** Where a node's value of this tick is: in its own slot, or in two locals. */
  sealed interface Val extends TypedOperatorCode.Operand permits Field, Local {}

  /** The value is in the object's slot (a cell, a constant, a node that computed itself). */
  record Field(Object slot) implements Val {
    @Override
    public void loadTag(Code c) {
      c.get(slot);
      c.getField(Members.SLOT_TAG);
    }

    @Override
    public void loadBits(Code c) {
      c.get(slot);
      c.getField(Members.SLOT_BITS);
    }

    @Override
    public boolean constant() {
      return slot instanceof io.dataflow.monitor.eval.Nodes.Const;
    }
  }

  /** The value is in locals (a node computed inline); its slot is stale until stored. */
  record Local(Node node, int tag, int bits) implements Val {
    @Override
    public void loadTag(Code c) {
      c.iload(tag);
    }

    @Override
    public void loadBits(Code c) {
      c.lload(bits);
    }

    @Override
    public boolean constant() {
      return false;
    }
  }

  final Code code;
  private final Map<Node, Val> vals = new IdentityHashMap<>();
  private int nextLocal;

  /** Locals from {@code firstLocal} on are this emitter's. */
  StreamEmitter(Code code, int firstLocal) {
    this.code = code;
    this.nextLocal = firstLocal;
  }

  Val val(Node n) {
    Val v = vals.get(n);
    return v != null ? v : new Field(n);
  }

  /** Stores a local value into its node's slot, for code that reads slots. */
  void materialize(Val v) {
    if (v instanceof Local l) {
      code.get(l.node());
      code.iload(l.tag());
      code.putField(Members.SLOT_TAG);
      code.get(l.node());
      code.lload(l.bits());
      code.putField(Members.SLOT_BITS);
    }
  }

  void node(Node n) {
    if (n instanceof TypedNodes.TypedBinary t) {
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
    code.get(n);
    code.invoke(MethodRef.exact(n, "compute"));
  }

  /** Two locals for a value: its tag (int) then its bits (long). */
  private Local locals(Node n) {
    Local l = new Local(n, nextLocal, nextLocal + 1);
    nextLocal += 3;
    return l;
  }

  private void typed(TypedNodes.TypedBinary t) {
    Val l = val(t.left);
    Val r = val(t.right);
    Local result = locals(t);
    Label slow = new Label();
    Label done = new Label();
    TypedOperatorCode.perTick(code, t, l, r, result.tag(), result.bits(), slow, done);
    code.place(slow);
    computeInto(t, result);
    code.place(done);
    vals.put(t, result);
  }

  /** Jumps to {@code otherwise} unless the tag in {@code local} is a present scalar. */
  private void requireScalar(int local, Label otherwise) {
    code.iload(local);
    code.intConstant(io.dataflow.core.Kind.BOOL);
    code.jump(IF_ICMPLT, otherwise);
    code.iload(local);
    code.intConstant(io.dataflow.core.Kind.FLOAT);
    code.jump(IF_ICMPGT, otherwise);
  }

  /** The slow path of any node: its own compute(), then its slot into locals. */
  private void computeInto(Node n, Local into) {
    for (Node input : n.inputs()) {
      materialize(val(input));
    }
    code.get(n);
    code.invoke(MethodRef.exact(n, "compute"));
    code.get(n);
    code.getField(Members.SLOT_TAG);
    code.istore(into.tag());
    code.get(n);
    code.getField(Members.SLOT_BITS);
    code.lstore(into.bits());
  }

  /** Stores locals into a slot object that must not hold a reference (a scalar). */
  private void storeScalar(Runnable slot, Local v) {
    slot.run();
    code.iload(v.tag());
    code.putField(Members.SLOT_TAG);
    slot.run();
    code.lload(v.bits());
    code.putField(Members.SLOT_BITS);
    slot.run();
    code.invoke(Members.SLOT_CLEAR_REF);
  }

  /**
   * {@code name[n]}, fast path: the ring holds {@code n} samples and the one read is a present
   * scalar. It becomes the delay's last result; anything else computes.
   */
  private void historyRead(TemporalNodes.HistoryRead h) {
    HistoryRing ring = h.ring; // registered as a constant when the schedule was collected
    Local result = locals(h);
    int at = nextLocal++;
    Label slow = new Label();
    Label inRange = new Label();
    Label done = new Label();
    code.get(ring);
    code.getField(Members.RING_SIZE);
    code.intConstant(h.offset);
    code.jump(IF_ICMPLT, slow);
    code.get(ring);
    code.getField(Members.RING_HEAD);
    code.intConstant(h.offset - 1);
    code.op(ISUB);
    code.istore(at);
    code.iload(at);
    code.jump(IFGE, inRange);
    code.iload(at);
    code.get(ring);
    code.getField(Members.RING_TAGS);
    code.op(ARRAYLENGTH);
    code.op(IADD);
    code.istore(at);
    code.place(inRange);
    code.get(ring);
    code.getField(Members.RING_TAGS);
    code.iload(at);
    code.op(BALOAD);
    code.istore(result.tag());
    requireScalar(result.tag(), slow);
    code.get(ring);
    code.getField(Members.RING_BITS);
    code.iload(at);
    code.op(LALOAD);
    code.lstore(result.bits());
    storeScalar(() -> {
      code.get(h);
      code.getField(Members.DELAY_LAST);
    }, result);
    code.jump(GOTO, done);
    code.place(slow);
    computeInto(h, result);
    code.place(done);
    vals.put(h, result);
  }

  /**
   * A body's read of an outer stream (run-long sample-and-hold), into locals: evaluate the
   * stream first if it is computed (order repair), then its last present value. The same as
   * {@code OuterRead.eval()} without storing the value in the node's slot.
   */
  private void outerRead(DynamicBodies.OuterRead r) {
    Local result = locals(r);
    Label ready = new Label();
    code.get(r.cell);
    code.getField(Members.CELL_ROOT);
    code.jump(IFNULL, ready);
    code.get(r.cell);
    code.getField(Members.CELL_OWNER);
    code.get(r.cell);
    code.invoke(Members.ENSURE_EVALUATED);
    code.place(ready);
    code.get(r.cell);
    code.invoke(Members.CELL_LAST_PRESENT);
    code.op(DUP);
    code.getField(Members.SLOT_TAG);
    code.istore(result.tag());
    code.getField(Members.SLOT_BITS);
    code.lstore(result.bits());
    vals.put(r, result);
  }

  /**
   * {@code default(e, d)}, fast path: the value is a present scalar, so it is the result and
   * its lifting memory; anything else (absent, Deferred: the fallback) computes.
   */
  private void defaultOf(TemporalNodes.Default d) {
    Val v = val(d.value);
    Local result = locals(d);
    Label slow = new Label();
    Label done = new Label();
    v.loadTag(code);
    code.istore(result.tag());
    requireScalar(result.tag(), slow);
    v.loadBits(code);
    code.lstore(result.bits());
    storeScalar(() -> {
      code.get(d);
      code.getField(Members.DEFAULT_HELD);
    }, result);
    code.jump(GOTO, done);
    code.place(slow);
    computeInto(d, result);
    code.place(done);
    vals.put(d, result);
  }
}
