package io.dataflow.monitor.codegen;

import io.dataflow.core.Row;
import io.dataflow.monitor.eval.KeyedKernel;
import io.dataflow.monitor.eval.KeyedLayout;
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
    if (kernel.hotLength() > 0) {
      expand(cls.method(ACC_PRIVATE | ACC_STATIC, "expand", "([J[J)V"), kernel);
      store(cls.method(ACC_PRIVATE | ACC_STATIC, "store", "([J[J)I"), kernel);
      tickHot(cls.method(ACC_PUBLIC, "tickHot", HOT_DESCRIPTOR), kernel, false);
      tickHot(cls.method(ACC_PUBLIC, "tickHot", HOT_COLUMNS_DESCRIPTOR), kernel, true);
    } else {
      refuseHot(cls.method(ACC_PUBLIC, "tickHot", HOT_DESCRIPTOR));
      refuseHot(cls.method(ACC_PUBLIC, "tickHot", HOT_COLUMNS_DESCRIPTOR));
    }
    return cls.define(KeyedKernel.Code.class);
  }

  private static final String HOT_DESCRIPTOR = "([J[J[JL" + ROW + ";L" + ROW + ";)I";
  private static final String HOT_COLUMNS_DESCRIPTOR = "([J[J[JL" + ROW + ";[B[JI)I";

  /** A kernel without a hot format never gets a hot vector: declines (never called). */
  private static void refuseHot(Code c) {
    c.op(ICONST_0);
    c.op(IRETURN);
    c.end();
  }

  /**
   * {@code expand(h, w)}: the wide vector {@code w} of the hot vector {@code h}, every position
   * a constant ({@code KeyedKernel.Hot.expand}): a kept payload from its place, one left out from
   * its representative's place or its constant, the narrow part's words as they are; all but
   * {@code LAST_SEEN}, which no step reads ({@link #store} puts it into {@code w} when the key
   * widens).
   *
   * <p>Each word of {@code h} is loaded once, into a local, before the first store: the JIT
   * cannot tell {@code h} and {@code w} apart, so a load after a store into {@code w} would be
   * done again (a payload with copies, such as {@code groupsum}'s previous sum, once per copy).
   */
  private static void expand(Code c, KeyedKernel kernel) {
    int length = kernel.vectorLength();
    int[] source = expansion(kernel);
    int locals = 2;
    int[] local = new int[kernel.hotLength()];
    for (int p = KeyedLayout.TICK; p < length; p++) {
      int q = source[p];
      if (q >= 0 && local[q] == 0) {
        local[q] = locals;
        c.aload(0);
        c.intConstant(q);
        c.op(LALOAD);
        c.lstore(locals);
        locals += 2;
      }
    }
    long[] constant = kernel.hotConstants();
    for (int p = KeyedLayout.TICK; p < length; p++) {
      c.aload(1);
      c.intConstant(p);
      if (source[p] >= 0) {
        c.lload(local[source[p]]);
      } else {
        longConstant(c, constant[p]);
      }
      c.op(LASTORE);
    }
    c.op(RETURN);
    c.end();
  }

  /** Per wide position: its place in a hot vector, or -1 for a constant (see {@link #expand}). */
  private static int[] expansion(KeyedKernel kernel) {
    int[] from = kernel.hotFrom();
    int narrowAt = kernel.narrowAt();
    int length = kernel.vectorLength();
    int hotNarrow = kernel.hotLength() - (length - narrowAt);
    int[] source = new int[length];
    for (int p = 0; p < length; p++) {
      if (p < KeyedLayout.HEADER) {
        source[p] = p;
      } else if (p >= narrowAt) {
        source[p] = hotNarrow + p - narrowAt;
      } else {
        source[p] = from[p];
      }
    }
    return source;
  }

  /**
   * {@code store(w, h)}: {@link KeyedKernel#WIDENED} when a payload the hot format leaves out
   * differs from its representative or constant ({@code h} untouched, {@code w} given
   * {@code h}'s {@code LAST_SEEN}), else {@code w}'s kept payloads, tick count and narrow words
   * into {@code h} and {@link KeyedKernel#IN_PLACE}. (Loading every word of {@code w} into locals
   * first, as {@link #expand} does, was tried and measured no better.)
   */
  private static void store(Code c, KeyedKernel kernel) {
    int[] rep = kernel.hotRepresentatives();
    long[] constant = kernel.hotConstants();
    int narrowAt = kernel.narrowAt();
    int length = kernel.vectorLength();
    int[] source = expansion(kernel);
    Label wide = new Label();
    for (int p = KeyedLayout.HEADER; p < narrowAt; p++) {
      if (rep[p] == p) {
        continue;
      }
      c.aload(0);
      c.intConstant(p);
      c.op(LALOAD);
      if (rep[p] < 0) {
        longConstant(c, constant[p]);
      } else {
        c.aload(0);
        c.intConstant(rep[p]);
        c.op(LALOAD);
      }
      c.op(LCMP);
      c.jump(IFNE, wide);
    }
    for (int p = KeyedLayout.TICK; p < length; p++) {
      if (p >= KeyedLayout.HEADER && p < narrowAt && rep[p] != p) {
        continue;
      }
      c.aload(1);
      c.intConstant(source[p]);
      c.aload(0);
      c.intConstant(p);
      c.op(LALOAD);
      c.op(LASTORE);
    }
    c.intConstant(KeyedKernel.IN_PLACE);
    c.op(IRETURN);
    c.place(wide);
    c.aload(0);
    c.intConstant(KeyedLayout.LAST_SEEN);
    c.aload(1);
    c.intConstant(KeyedLayout.LAST_SEEN);
    c.op(LALOAD);
    c.op(LASTORE);
    c.intConstant(KeyedKernel.WIDENED);
    c.op(IRETURN);
    c.end();
  }

  private static void longConstant(Code c, long v) {
    if (v == 0L) {
      c.op(LCONST_0);
    } else if (v == 1L) {
      c.op(LCONST_1);
    } else {
      c.mv.visitLdcInsn(v);
    }
  }

  /**
   * One of the two {@code tickHot} methods ({@link KeyedKernel.Code#tickHot}): {@code expand}
   * into the working copy, the inputs, steps, commit and tick count as {@link #tick} runs them,
   * {@code store} back into the hot vector, the outputs from the working copy.
   */
  private static void tickHot(Code c, KeyedKernel kernel, boolean columns) {
    int result = columns ? 8 : 6;
    c.aload(V);
    c.aload(WORK);
    c.mv.visitMethodInsn(INVOKESTATIC, c.owner(), "expand", "([J[J)V", false);
    inputsAndSteps(c, kernel);
    c.aload(WORK);
    c.aload(V);
    c.mv.visitMethodInsn(INVOKESTATIC, c.owner(), "store", "([J[J)I", false);
    c.istore(result);
    outputs(c, kernel, columns, WORK);
    c.iload(result);
    c.op(IRETURN);
    c.end();
  }

  /**
   * One of the two {@code tick} methods: the outputs into the row ({@code OUTPUT}) or, with
   * {@code columns}, into the columns {@code kinds} and {@code bits} at {@code at}
   * ({@link KeyedKernel.Steps#outputTo}); everything before the outputs is the same.
   */
  private static void tick(Code c, KeyedKernel kernel, boolean columns) {
    int length = kernel.vectorLength();
    copy(c, V, WORK, length);
    inputsAndSteps(c, kernel);
    copy(c, WORK, V, length);
    outputs(c, kernel, columns, V);
    c.op(ICONST_1);
    c.op(IRETURN);
    c.end();
  }

  /** The inputs (returning 0, false, on a refused kind), steps, commit and tick count on WORK. */
  private static void inputsAndSteps(Code c, KeyedKernel kernel) {
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
  }

  /** The outputs, read from the vector in local {@code from}: into the row or the columns. */
  private static void outputs(Code c, KeyedKernel kernel, boolean columns, int from) {
    List<KeyedKernel.Step> outputs = kernel.outputSteps();
    for (int j = 0; j < outputs.size(); j++) {
      c.aload(from);
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
