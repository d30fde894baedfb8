package io.dataflow.monitor.codegen;

import io.dataflow.core.Kind;
import io.dataflow.monitor.codegen.Members.FieldRef;
import io.dataflow.monitor.eval.TypedNodes;
import org.objectweb.asm.Label;
import org.objectweb.asm.Opcodes;

/**
 * The code of a typed scalar operator ({@link TypedNodes.TypedBinary}) in its three generated
 * forms, all derived from what the operator says once next to its semantics: the shared
 * lifting ({@code lift()}: a present operand becomes the memory, NoVal reads the memory) and
 * absence rule ({@code absent()}: NoVal before Deferred), its operand kinds, its result's kind
 * and its kernel per operand kind (a static method of {@code Ops} that its {@code compute()}
 * calls too). Nothing here knows what {@code +} or {@code <} do: a new operator or a changed
 * one needs no change here.
 *
 * <ul>
 *   <li>{@link #perTick}: the memories are the node's fields; the operands of this tick are
 *       checked against each operand kind, anything else takes the node's own
 *       {@code compute()} (the slow path, which the caller emits).
 *   <li>{@link #general}: the batch loop; the memories are locals, and the whole semantics is
 *       inline (operands have the static kind, or are NoVal or Deferred).
 *   <li>{@link #dense}: the dense batch loop; every operand is present with the static kind,
 *       so lifting is the identity: the kernel alone.
 * </ul>
 */
final class TypedOperatorCode implements Opcodes {
  private TypedOperatorCode() {}

  /** Where an emitting form has an operand's value of this tick. */
  interface Operand {
    /** Pushes the tag (an int). */
    void loadTag(Code c);

    /** Pushes the bits (a long). */
    void loadBits(Code c);

    /** A constant: present with its static kind on every tick, so never held. */
    boolean constant();
  }

  /** Whether {@code t} computes on operands of {@code kind} with a kernel. */
  static boolean computesOn(TypedNodes.TypedBinary t, int kind) {
    for (byte k : t.operandKinds()) {
      if (k == kind) {
        return true;
      }
    }
    return false;
  }

  /** With both operands pushed by {@code l} and {@code r}: the kernel's result bits. */
  private static void kernel(Code c, TypedNodes.TypedBinary t, int kind, Runnable l,
      Runnable r) {
    l.run();
    r.run();
    c.invoke(Members.kernel(t, (byte) kind));
  }

  /**
   * The per-tick fast paths: for each operand kind, when both operands are present with it,
   * hold them in the node's memories, compute, and leave the result in {@code tagLocal} and
   * {@code bitsLocal}, then go to {@code done}. Anything else jumps to {@code slow}.
   */
  static void perTick(Code c, TypedNodes.TypedBinary t, Operand l, Operand r, int tagLocal,
      int bitsLocal, Label slow, Label done) {
    byte[] kinds = t.operandKinds();
    for (int i = 0; i < kinds.length; i++) {
      int kind = kinds[i];
      Label other = i < kinds.length - 1 ? new Label() : slow;
      requireTag(c, l, kind, other);
      requireTag(c, r, kind, slow);
      hold(c, t, l, kind, Members.HELD_LEFT_TAG, Members.HELD_LEFT);
      hold(c, t, r, kind, Members.HELD_RIGHT_TAG, Members.HELD_RIGHT);
      kernel(c, t, kind, () -> l.loadBits(c), () -> r.loadBits(c));
      c.lstore(bitsLocal);
      c.intConstant(t.resultKind());
      c.istore(tagLocal);
      c.jump(GOTO, done);
      if (other != slow) {
        c.place(other);
      }
    }
  }

  private static void requireTag(Code c, Operand v, int kind, Label otherwise) {
    v.loadTag(c);
    c.intConstant(kind);
    c.jump(IF_ICMPNE, otherwise);
  }

  /**
   * A present operand becomes the memory. A tag is stored only when it changes and a constant
   * operand's memory never (it is read only when the operand is NoVal, which a constant never
   * is): stores dominate a scalar tick.
   */
  private static void hold(Code c, TypedNodes.TypedBinary t, Operand v, int kind,
      FieldRef tagField, FieldRef bitsField) {
    if (v.constant()) {
      return;
    }
    Label same = new Label();
    c.get(t);
    c.getField(tagField);
    c.intConstant(kind);
    c.jump(IF_ICMPEQ, same);
    c.get(t);
    c.intConstant(kind);
    c.putField(tagField);
    c.place(same);
    c.get(t);
    v.loadBits(c);
    c.putField(bitsField);
  }

  /**
   * The batch loop's form, on operands of static kind {@code kind} (or NoVal, Deferred):
   * sample-and-hold into the memories {@code held = {leftTag, leftBits, rightTag, rightBits}}
   * (locals), the kernel when both lifted operands have the kind, else NoVal before Deferred;
   * the result into the locals {@code result = {tag, bits}}.
   */
  static void general(Code c, TypedNodes.TypedBinary t, Operand l, Operand r, int kind,
      int[] held, int[] result) {
    Operand[] operands = {l, r};
    for (int side = 0; side < 2; side++) {
      if (operands[side].constant()) {
        continue; // a constant is its own lifted value
      }
      Label absent = new Label();
      operands[side].loadTag(c);
      c.jump(IFEQ, absent); // NoVal: the memory stays
      operands[side].loadTag(c);
      c.istore(held[2 * side]);
      operands[side].loadBits(c);
      c.lstore(held[2 * side + 1]);
      c.place(absent);
    }
    Label notBoth = new Label();
    Label noVal = new Label();
    Label done = new Label();
    for (int side = 0; side < 2; side++) {
      if (!operands[side].constant()) {
        c.iload(held[2 * side]);
        c.intConstant(kind);
        c.jump(IF_ICMPNE, notBoth);
      }
    }
    kernel(c, t, kind, () -> lifted(c, l, held[1]), () -> lifted(c, r, held[3]));
    c.lstore(result[1]);
    c.intConstant(t.resultKind());
    c.istore(result[0]);
    c.jump(GOTO, done);
    c.place(notBoth);
    // NoVal before Deferred (only a memory can be either: a constant never is).
    c.op(LCONST_0);
    c.lstore(result[1]);
    for (int side = 0; side < 2; side++) {
      if (!operands[side].constant()) {
        c.iload(held[2 * side]);
        c.jump(IFEQ, noVal);
      }
    }
    c.intConstant(Kind.DEFERRED);
    c.istore(result[0]);
    c.jump(GOTO, done);
    c.place(noVal);
    c.intConstant(Kind.NOVAL);
    c.istore(result[0]);
    c.place(done);
  }

  /** A lifted operand's bits: its memory, or a constant's own bits. */
  private static void lifted(Code c, Operand v, int heldBits) {
    if (v.constant()) {
      v.loadBits(c);
    } else {
      c.lload(heldBits);
    }
  }

  /**
   * The dense loop's form: both operands are present with static kind {@code kind}, so
   * lifting is the identity; pushes the result's bits.
   */
  static void dense(Code c, TypedNodes.TypedBinary t, Operand l, Operand r, int kind) {
    kernel(c, t, kind, () -> l.loadBits(c), () -> r.loadBits(c));
  }
}
