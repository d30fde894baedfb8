package io.dataflow.monitor.codegen;

import io.dataflow.monitor.codegen.Members.FieldRef;
import io.dataflow.monitor.codegen.Members.MethodRef;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The body of one generated method: a {@link MethodVisitor} with the few shapes the emitters
 * use (locals, constants of the class, members from {@link Members}, line numbers). ASM
 * computes the maximum stack and locals (the class has no stack-map frames: version 49).
 *
 * <p>Thread-safety: not thread-safe; one per method being written.
 */
final class Code implements Opcodes {
  final MethodVisitor mv;
  private final Constants constants;
  private final Label last = new Label();

  Code(MethodVisitor mv, Constants constants) {
    this.mv = mv;
    this.constants = constants;
    mv.visitCode();
  }

  void op(int opcode) {
    mv.visitInsn(opcode);
  }

  void iload(int local) {
    mv.visitVarInsn(ILOAD, local);
  }

  void lload(int local) {
    mv.visitVarInsn(LLOAD, local);
  }

  void aload(int local) {
    mv.visitVarInsn(ALOAD, local);
  }

  void istore(int local) {
    mv.visitVarInsn(ISTORE, local);
  }

  void lstore(int local) {
    mv.visitVarInsn(LSTORE, local);
  }

  void astore(int local) {
    mv.visitVarInsn(ASTORE, local);
  }

  void iinc(int local, int by) {
    mv.visitIincInsn(local, by);
  }

  /** Pushes an int in the shortest form. */
  void intConstant(int v) {
    if (v >= -1 && v <= 5) {
      mv.visitInsn(ICONST_0 + v);
    } else if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) {
      mv.visitIntInsn(BIPUSH, v);
    } else if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
      mv.visitIntInsn(SIPUSH, v);
    } else {
      mv.visitLdcInsn(v);
    }
  }

  void jump(int opcode, Label target) {
    mv.visitJumpInsn(opcode, target);
  }

  void place(Label label) {
    mv.visitLabel(label);
  }

  /** A label placed here. */
  Label here() {
    Label l = new Label();
    mv.visitLabel(l);
    return l;
  }

  /** The code from here on comes from line {@code line} of the specification. */
  void line(int line) {
    if (line > 0) {
      mv.visitLineNumber(line, here());
    }
  }

  /** Pushes a constant of the class: the node, cell, ring, check or monitor {@code o}. */
  void get(Object o) {
    constants.get(mv, o);
  }

  void getField(FieldRef f) {
    mv.visitFieldInsn(GETFIELD, f.owner(), f.name(), f.descriptor());
  }

  void putField(FieldRef f) {
    mv.visitFieldInsn(PUTFIELD, f.owner(), f.name(), f.descriptor());
  }

  void invoke(MethodRef m) {
    if (m.itf() && m.opcode() != INVOKEINTERFACE) {
      // A static or special call of an interface's method needs class-file version 52; the
      // generated classes are version 49 (ClassDefiner).
      throw new IllegalStateException("generated code cannot call the interface method "
          + m.owner() + "." + m.name() + " with opcode " + m.opcode());
    }
    mv.visitMethodInsn(m.opcode(), m.owner(), m.name(), m.descriptor(), m.itf());
  }

  /** A handler for any throwable in {@code [start, end)} at {@code handler}. */
  void catchAll(Label start, Label end, Label handler) {
    mv.visitTryCatchBlock(start, end, handler, null);
  }

  /** The internal name of the class being written. */
  String owner() {
    return constants.owner();
  }

  /** Ends the method: ASM computes the maximum stack and locals. */
  void end() {
    mv.visitLabel(last);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
  }

  /** The method's code size in bytes, once it {@link #end ended}. */
  int size() {
    return last.getOffset();
  }
}
