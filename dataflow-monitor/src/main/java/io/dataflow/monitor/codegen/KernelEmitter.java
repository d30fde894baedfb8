package io.dataflow.monitor.codegen;

import io.dataflow.monitor.eval.KeyedKernel;
import java.util.List;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * A keyed kernel's tick as generated code ({@link KeyedKernel.Code}): {@code run} and
 * {@code commit} call the kernel's {@link KeyedKernel.Steps} one after the other, with every
 * vector position as a constant. The JIT inlines the small step methods and folds the
 * positions, so a key's tick is straight-line loads and stores on its vector; the steps'
 * semantics stay in one place ({@code KeyedKernel.Steps}, which the kernel's own interpreter
 * calls too). The class holds no object, so the classes of one program are interchangeable.
 */
final class KernelEmitter implements Opcodes {
  private static final String STEPS = Type.getInternalName(KeyedKernel.Steps.class);
  private static final String DESCRIPTOR = "([J[J)V";

  private KernelEmitter() {}

  static KeyedKernel.Code emit(KeyedKernel kernel) throws GenerationRefused {
    ClassDefiner cls = new ClassDefiner("Kernel", kernel.source(), KeyedKernel.Code.class,
        new Constants());
    Code run = cls.method(ACC_PUBLIC, "run", DESCRIPTOR);
    calls(run, kernel.steps());
    Code commit = cls.method(ACC_PUBLIC, "commit", DESCRIPTOR);
    calls(commit, kernel.commitSteps());
    return cls.define(KeyedKernel.Code.class);
  }

  /** One static call per step: (vector, literals, positions...). */
  private static void calls(Code c, List<KeyedKernel.Step> steps) {
    StringBuilder d = new StringBuilder();
    for (KeyedKernel.Step s : steps) {
      d.setLength(0);
      d.append("([J[J");
      c.aload(1);
      c.aload(2);
      for (int a : s.args()) {
        c.intConstant(a);
        d.append('I');
      }
      d.append(")V");
      c.mv.visitMethodInsn(INVOKESTATIC, STEPS, s.method(), d.toString(), false);
    }
    c.op(RETURN);
    c.end();
  }
}
