package io.dataflow.monitor.codegen;

import io.dataflow.core.Row;
import io.dataflow.monitor.eval.KeyedKernel;
import java.util.List;
import org.objectweb.asm.Label;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * A keyed kernel's tick as generated code ({@link KeyedKernel.Code}): {@code tick} calls the
 * kernel's {@link KeyedKernel.Steps} one after the other (the inputs, the steps, the commit's
 * steps, the tick count, the outputs), with every vector position as a constant. The JIT
 * inlines the small step methods and folds the positions; the steps' semantics stay in one
 * place ({@code KeyedKernel.Steps}, which the kernel's own interpreter calls too). The class
 * holds no object, so the classes of one program are interchangeable.
 *
 * <p>The steps run on the kernel's working copy of the key's vector (one array, reused, so it
 * stays in the first-level cache), copied in before and out after: a tick that fails leaves
 * the key's vector as it was without a backup per tick, and the inputs and outputs are moved
 * with constant positions instead of loops over the kernel's tables.
 */
final class KernelEmitter implements Opcodes {
  private static final String STEPS = Type.getInternalName(KeyedKernel.Steps.class);
  private static final String ROW = Type.getInternalName(Row.class);
  private static final String DESCRIPTOR = "([J[J[JL" + ROW + ";L" + ROW + ";)Z";
  /** The longest vector copied element by element (see {@link #copy}). */
  private static final int UNROLLED = 32;
  // The tick's arguments: this, v, work, constants, input, output.
  private static final int V = 1;
  private static final int WORK = 2;
  private static final int CONSTANTS = 3;
  private static final int INPUT = 4;
  private static final int OUTPUT = 5;
  /** The columns' tick: this, v, work, constants, input, kinds, bits, at. */
  private static final String COLUMNS_DESCRIPTOR = "([J[J[JL" + ROW + ";[B[JI)Z";
  private static final int KINDS = 5;
  private static final int BITS = 6;
  private static final int AT = 7;

  private KernelEmitter() {}

  static KeyedKernel.Code emit(KeyedKernel kernel) throws GenerationRefused {
    ClassDefiner cls = new ClassDefiner("Kernel", kernel.source(), KeyedKernel.Code.class,
        new Constants());
    tick(cls.method(ACC_PUBLIC, "tick", DESCRIPTOR), kernel, false);
    tick(cls.method(ACC_PUBLIC, "tick", COLUMNS_DESCRIPTOR), kernel, true);
    return cls.define(KeyedKernel.Code.class);
  }

  /**
   * One of the two {@code tick} methods: the outputs into the row ({@code OUTPUT}) or, with
   * {@code columns}, into the columns {@code kinds} and {@code bits} at {@code at}
   * ({@link KeyedKernel.Steps#outputTo}); everything before the outputs is the same.
   */
  private static void tick(Code c, KeyedKernel kernel, boolean columns) {
    int length = kernel.vectorLength();
    copy(c, V, WORK, length);
    List<KeyedKernel.Step> inputs = kernel.inputSteps();
    for (int i = 0; i < inputs.size(); i++) {
      // Steps.input(work, constants, input.kind(i), input.bits(i), args...) or return false
      c.aload(WORK);
      c.aload(CONSTANTS);
      c.aload(INPUT);
      c.intConstant(i);
      c.mv.visitMethodInsn(INVOKEVIRTUAL, ROW, "kind", "(I)B", false);
      c.aload(INPUT);
      c.intConstant(i);
      c.mv.visitMethodInsn(INVOKEVIRTUAL, ROW, "bits", "(I)J", false);
      call(c, "([J[JBJ", inputs.get(i), "Z");
      Label next = new Label();
      c.jump(IFNE, next);
      c.op(ICONST_0);
      c.op(IRETURN);
      c.place(next);
    }
    calls(c, kernel.steps());
    calls(c, kernel.commitSteps());
    c.aload(WORK);
    c.mv.visitMethodInsn(INVOKESTATIC, STEPS, "advance", "([J)V", false);
    copy(c, WORK, V, length);
    List<KeyedKernel.Step> outputs = kernel.outputSteps();
    for (int j = 0; j < outputs.size(); j++) {
      c.aload(V);
      c.aload(CONSTANTS);
      if (columns) {
        // Steps.outputTo(v, constants, kinds, bits, at + j, args...)
        c.aload(KINDS);
        c.aload(BITS);
        c.iload(AT);
        c.intConstant(j);
        c.op(IADD);
        call(c, "outputTo", "([J[J[B[JI", outputs.get(j), "V");
      } else {
        // Steps.output(v, constants, output, j, args...)
        c.aload(OUTPUT);
        c.intConstant(j);
        call(c, "([J[JL" + ROW + ";I", outputs.get(j), "V");
      }
    }
    c.op(ICONST_1);
    c.op(IRETURN);
    c.end();
  }

  /** One static call per step: (work, literals, positions...). */
  private static void calls(Code c, List<KeyedKernel.Step> steps) {
    for (KeyedKernel.Step s : steps) {
      c.aload(WORK);
      c.aload(CONSTANTS);
      call(c, "([J[J", s, "V");
    }
  }

  /** The step's int arguments, then its call (the receiver's arguments already pushed). */
  private static void call(Code c, String prefix, KeyedKernel.Step s, String returns) {
    call(c, s.method(), prefix, s, returns);
  }

  /** {@link #call} of another step method of the same arguments ({@code outputTo}). */
  private static void call(Code c, String method, String prefix, KeyedKernel.Step s,
      String returns) {
    StringBuilder d = new StringBuilder(prefix);
    for (int a : s.args()) {
      c.intConstant(a);
      d.append('I');
    }
    d.append(')').append(returns);
    c.mv.visitMethodInsn(INVOKESTATIC, STEPS, method, d.toString(), false);
  }

  /**
   * {@code from} into {@code to}, {@code length} elements. A short vector is copied element by
   * element at constant indices, which the JIT can follow: the steps' loads of the working copy
   * then read what the copy or an earlier step stored, not memory (measured: about 1 to 3 ns per
   * tick less than {@code System.arraycopy}'s stub for {@code groupsum}'s 14 elements).
   */
  private static void copy(Code c, int from, int to, int length) {
    if (length <= UNROLLED) {
      for (int k = 0; k < length; k++) {
        c.aload(to);
        c.intConstant(k);
        c.aload(from);
        c.intConstant(k);
        c.op(LALOAD);
        c.op(LASTORE);
      }
      return;
    }
    c.aload(from);
    c.op(ICONST_0);
    c.aload(to);
    c.op(ICONST_0);
    c.intConstant(length);
    c.mv.visitMethodInsn(INVOKESTATIC, "java/lang/System", "arraycopy",
        "(Ljava/lang/Object;ILjava/lang/Object;II)V", false);
  }
}
