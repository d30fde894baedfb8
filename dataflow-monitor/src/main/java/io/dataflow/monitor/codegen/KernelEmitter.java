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
 * stays in the first-level cache), copied in before and out after (converted, in the work format
 * of a small program, {@link KeyedKernel#elements}, whose hot tick has a working copy of its own
 * and the steps' bytecode copied in rather than called, see {@link #tickHot}): a tick that
 * fails leaves the key's vector as it was without a backup per tick, and the inputs and outputs
 * are moved with constant positions instead of loops over the kernel's tables.
 */
final class KernelEmitter implements Opcodes {
  private static final String STEPS = Type.getInternalName(KeyedKernel.Steps.class);
  private static final String ROW = Type.getInternalName(Row.class);
  /** What the hot tick copies in place of a step method ({@link Inliner}). */
  static final java.util.Map<String, String> STEP_SUBSTITUTES =
      java.util.Map.of("get([J[JI)B", "getWork", "put([JIB)V", "putWork");
  /**
   * The steps' bytecode, copied into a hot tick that has a working copy of its own: a kernel
   * in the work format, whose kinds are all in elements or literals ({@code Steps.getWork});
   * null where the class file of the steps cannot be read (the ticks then call them).
   */
  private static final Inliner STEPS_CODE = stepsCode();

  private static Inliner stepsCode() {
    try {
      return new Inliner(KeyedKernel.Steps.class, STEP_SUBSTITUTES); // declared above
    } catch (IllegalStateException | java.io.UncheckedIOException e) {
      // Looked up on use, as ClassDefiner's: a clean run never starts SLF4J.
      org.slf4j.LoggerFactory.getLogger(KernelEmitter.class).warn("keyed hot ticks call their"
          + " steps instead of copying them (slower): {}", e.toString());
      return null;
    }
  }
  /** In place of a first free local: the steps are called, not copied in. */
  private static final int CALLS = -1;
  private static final String DESCRIPTOR = "([J[J[JL" + ROW + ";L" + ROW + ";)Z";
  /** The longest vector copied element by element (see {@link #copyVector}). */
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
    return emit(kernel, LARGEST_COPIED);
  }

  /** {@link #emit(KeyedKernel)} with another size limit for copies (tests: the fallback). */
  static KeyedKernel.Code emit(KeyedKernel kernel, int largestCopied) throws GenerationRefused {
    if (kernel.elements() && kernel.hotLength() > 0 && STEPS_CODE != null) {
      KeyedKernel.Code copied = emitClass(kernel, largestCopied);
      if (copied != null) {
        return copied;
      }
    }
    return emitClass(kernel, -1);
  }

  /**
   * The largest hot tick with the steps copied in, in bytes of bytecode: HotSpot compiles no
   * larger method ({@code HugeMethodLimit}, 8000, under {@code DontCompileHugeMethods}), and a
   * hot tick left to the interpreter would cost far more than the copies save.
   */
  static final int LARGEST_COPIED = 7999;

  /**
   * The kernel's class; with copies ({@code largestCopied >= 0}), its hot ticks on a working
   * copy of their own with the steps' bytecode copied in ({@link #tickHot}), or null when one of
   * them would be larger than {@code largestCopied} bytes (the class is then emitted without).
   */
  private static KeyedKernel.Code emitClass(KeyedKernel kernel, int largestCopied)
      throws GenerationRefused {
    boolean copies = largestCopied >= 0;
    ClassDefiner cls = new ClassDefiner("Kernel", kernel.source(), KeyedKernel.Code.class,
        new Constants());
    tick(cls.method(ACC_PUBLIC, "tick", DESCRIPTOR), kernel, false);
    tick(cls.method(ACC_PUBLIC, "tick", COLUMNS_DESCRIPTOR), kernel, true);
    if (kernel.hotLength() > 0) {
      boolean elements = kernel.elements();
      if (!copies) {
        expand(cls.method(ACC_PRIVATE | ACC_STATIC, "expand", "([J[J)V"), kernel, elements);
        expandFresh(cls.method(ACC_PRIVATE | ACC_STATIC, "expandFresh", "([J)V"), kernel,
            elements);
        store(cls.method(ACC_PRIVATE | ACC_STATIC, "store", "([J[J)I"), kernel, elements);
      }
      for (boolean columns : new boolean[] {false, true}) {
        String descriptor = columns ? HOT_COLUMNS_DESCRIPTOR : HOT_DESCRIPTOR;
        for (boolean fresh : new boolean[] {false, true}) {
          Code c = cls.method(fresh ? ACC_PRIVATE : ACC_PUBLIC, fresh ? "tickFresh" : "tickHot",
              descriptor);
          tickHot(c, kernel, columns, fresh, copies);
          if (copies && c.size() > largestCopied) {
            return null;
          }
        }
      }
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
   * {@code expand(h, w)}: the working copy {@code w} of the hot vector {@code h}, every position
   * a constant ({@code KeyedKernel.Hot.expand}): a kept payload from its place, one left out
   * from its representative's place or its constant, a narrow word from its place or its
   * constant; in the work format ({@code elements}) the narrow part's bytes, from their kept
   * word or, where the plan has them constant, as constants (the JIT folds the steps' tests of
   * them); all but {@code LAST_SEEN}, which no step reads ({@link #store} puts it into {@code w}
   * when the key widens).
   *
   * <p>Each word of {@code h} is loaded once, into a local, before the first store: the JIT
   * cannot tell {@code h} and {@code w} apart, so a load after a store into {@code w} would be
   * done again (a payload with copies, such as {@code groupsum}'s previous sum, once per copy).
   */
  private static void expand(Code c, KeyedKernel kernel, boolean elements) {
    expand(c, kernel, elements, 0, 1, 2);
    c.op(RETURN);
    c.end();
  }

  /** {@link #expand}'s body: from the hot vector in local {@code h} into local {@code w}. */
  private static void expand(Code c, KeyedKernel kernel, boolean elements, int h, int w,
      int free) {
    int length = kernel.vectorLength();
    int[] source = kernel.hotFrom();
    int locals = free;
    int[] local = new int[kernel.hotLength()];
    for (int p = KeyedLayout.TICK; p < length; p++) {
      int q = source[p];
      if (q >= 0 && local[q] == 0) {
        local[q] = locals;
        c.aload(h);
        c.intConstant(q);
        c.op(LALOAD);
        c.lstore(locals);
        locals += 2;
      }
    }
    long[] constant = kernel.hotConstants();
    int narrowAt = kernel.narrowAt();
    for (int p = KeyedLayout.TICK; p < narrowAt; p++) {
      c.aload(w);
      c.intConstant(p);
      if (source[p] >= 0) {
        c.lload(local[source[p]]);
      } else {
        longConstant(c, constant[p]);
      }
      c.op(LASTORE);
    }
    long[] mask = kernel.hotMasks();
    for (int p = narrowAt; p < length; p++) {
      int word = source[p] < 0 ? -1 : local[source[p]];
      if (elements) {
        unpack(c, word, w, KeyedKernel.workAt(p, narrowAt), mask[p], constant[p]);
      } else {
        c.aload(w);
        c.intConstant(p);
        if (word < 0) {
          longConstant(c, constant[p]);
        } else {
          c.lload(word);
        }
        c.op(LASTORE);
      }
    }
  }

  /**
   * {@code expandFresh(w)}: a new key's state ({@link KeyedKernel#hotFresh}) into the working
   * copy {@code w} (in the work format with {@code elements}), every element a constant (the JIT
   * folds what the steps test of it), all but {@code LAST_SEEN} (as {@link #expand}).
   */
  private static void expandFresh(Code c, KeyedKernel kernel, boolean elements) {
    expandFresh(c, kernel, elements, 0);
    c.op(RETURN);
    c.end();
  }

  /** {@link #expandFresh}'s body, into local {@code w}. */
  private static void expandFresh(Code c, KeyedKernel kernel, boolean elements, int w) {
    long[] fresh = kernel.hotFresh();
    int narrowAt = kernel.narrowAt();
    for (int p = KeyedLayout.TICK; p < fresh.length; p++) {
      if (p < narrowAt || !elements) {
        c.aload(w);
        c.intConstant(p);
        longConstant(c, fresh[p]);
        c.op(LASTORE);
      } else {
        unpack(c, -1, w, KeyedKernel.workAt(p, narrowAt), -1L, fresh[p]);
      }
    }
  }

  /**
   * The bytes of the word in local {@code word} into the working copy in local {@code x}, from
   * {@code at} on ({@code KeyedKernel.unpack}); the bytes in {@code mask} (0xFF each) are
   * {@code constant}'s instead, written as constants (the JIT then folds the steps' tests of
   * them).
   */
  private static void unpack(Code c, int word, int x, int at, long mask, long constant) {
    for (int b = 0; b < 8; b++) {
      c.aload(x);
      c.intConstant(at + b);
      if ((mask >>> (8 * b) & 0xFF) != 0) {
        longConstant(c, constant >>> (8 * b) & 0xFF);
        c.op(LASTORE);
        continue;
      }
      c.lload(word);
      if (b > 0) {
        c.intConstant(8 * b);
        c.op(LUSHR);
      }
      if (b < 7) {
        longConstant(c, 0xFF);
        c.op(LAND);
      }
      c.op(LASTORE);
    }
  }

  /**
   * Pushes the working copy's (local {@code w}) narrow word {@code p}: its element, or, in the work
   * format ({@code elements}), its bytes packed.
   */
  private static void narrowWord(Code c, int w, int p, int narrowAt, boolean elements) {
    if (elements) {
      pack(c, w, KeyedKernel.workAt(p, narrowAt));
    } else {
      c.aload(w);
      c.intConstant(p);
      c.op(LALOAD);
    }
  }

  /** Pushes the word of the bytes from {@code at} on of the working copy in local {@code x}. */
  private static void pack(Code c, int x, int at) {
    for (int b = 0; b < 8; b++) {
      c.aload(x);
      c.intConstant(at + b);
      c.op(LALOAD);
      if (b > 0) {
        c.intConstant(8 * b);
        c.op(LSHL);
        c.op(LOR);
      }
    }
  }

  /**
   * {@code store(w, h)}: {@link KeyedKernel#WIDENED} when a payload the hot format leaves out
   * differs from its representative or constant, or a constant byte of the narrow part from its
   * constant ({@code h} untouched, {@code w} given {@code h}'s {@code LAST_SEEN}), else
   * {@code w}'s kept payloads, tick count and kept narrow words (packed again) into {@code h}
   * and {@link KeyedKernel#IN_PLACE}. (Loading every word of {@code w} into locals
   * first, as {@link #expand} does, was tried and measured no better.)
   */
  private static void store(Code c, KeyedKernel kernel, boolean elements) {
    store(c, kernel, elements, 0, 1, null);
    c.end();
  }

  /**
   * {@link #store}'s body, from local {@code w} into local {@code h}: its result on the stack
   * and a jump to {@code done}, or returned when {@code done} is null.
   */
  private static void store(Code c, KeyedKernel kernel, boolean elements, int w, int h,
      Label done) {
    int[] rep = kernel.hotRepresentatives();
    long[] constant = kernel.hotConstants();
    int narrowAt = kernel.narrowAt();
    int length = kernel.vectorLength();
    int[] source = kernel.hotFrom();
    long[] mask = kernel.hotMasks();
    Label wide = new Label();
    for (int p = KeyedLayout.HEADER; p < length; p++) {
      if (p >= narrowAt) {
        if (mask[p] != 0) {
          // (word & mask) == (constant & mask): a constant word's mask is all ones
          narrowWord(c, w, p, narrowAt, elements);
          if (mask[p] != -1L) {
            longConstant(c, mask[p]);
            c.op(LAND);
          }
          longConstant(c, constant[p] & mask[p]);
          c.op(LCMP);
          c.jump(IFNE, wide);
        }
        continue;
      }
      if (rep[p] == p) {
        continue;
      }
      c.aload(w);
      c.intConstant(p);
      c.op(LALOAD);
      if (rep[p] < 0) {
        longConstant(c, constant[p]);
      } else {
        c.aload(w);
        c.intConstant(rep[p]);
        c.op(LALOAD);
      }
      c.op(LCMP);
      c.jump(IFNE, wide);
    }
    for (int p = KeyedLayout.TICK; p < length; p++) {
      if (rep[p] != p) {
        continue;
      }
      c.aload(h);
      c.intConstant(source[p]);
      if (p < narrowAt) {
        c.aload(w);
        c.intConstant(p);
        c.op(LALOAD);
      } else {
        narrowWord(c, w, p, narrowAt, elements);
      }
      c.op(LASTORE);
    }
    c.intConstant(KeyedKernel.IN_PLACE);
    returnOrJump(c, done);
    c.place(wide);
    c.aload(w);
    c.intConstant(KeyedLayout.LAST_SEEN);
    c.aload(h);
    c.intConstant(KeyedLayout.LAST_SEEN);
    c.op(LALOAD);
    c.op(LASTORE);
    c.intConstant(KeyedKernel.WIDENED);
    returnOrJump(c, done);
  }

  /** Returns the int on the stack, or with a {@code done} label, jumps there with it. */
  private static void returnOrJump(Code c, Label done) {
    if (done == null) {
      c.op(IRETURN);
    } else {
      c.jump(GOTO, done);
    }
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
   * {@code store} back into the hot vector, the outputs from the working copy. With
   * {@code copies} (a kernel in the work format, {@link KeyedKernel#elements}) the working copy
   * is a new array of the tick's own, {@code expand} and {@code store} are written into the
   * tick, and the steps (outputs included) are copied in ({@link Inliner}) instead of called:
   * the array is then
   * never passed to a call, so the JIT replaces it by its elements whatever it decides about
   * inlining (a tick that leaves the hot format copies it into the kernel's, element by
   * element). Left to the JIT's inlining, it was not: on JDK 25, and through the pipeline, a
   * step not inlined let the array escape, allocated on every tick (docs/performance.md, issue
   * 16, twelfth and thirteenth passes).
   *
   * <p>A hot vector of tick count 0 is a new key's ({@link KeyedKernel#hotLength}): {@code tickHot}
   * hands it to {@code tickFresh}, the same tick with the fresh state as constants in place of
   * {@code expand} ({@code fresh}).
   */
  private static void tickHot(Code c, KeyedKernel kernel, boolean columns, boolean fresh,
      boolean copies) {
    int result = columns ? 8 : 6;
    if (!fresh) {
      Label ticked = new Label();
      c.aload(V);
      c.intConstant(KeyedLayout.TICK);
      c.op(LALOAD);
      c.op(LCONST_0);
      c.op(LCMP);
      c.jump(IFNE, ticked);
      for (int a = 0; a <= (columns ? AT : OUTPUT); a++) {
        if (columns && a == AT) {
          c.iload(a);
        } else {
          c.aload(a);
        }
      }
      c.mv.visitMethodInsn(INVOKESPECIAL, c.owner(), "tickFresh",
          columns ? HOT_COLUMNS_DESCRIPTOR : HOT_DESCRIPTOR, false);
      c.op(IRETURN);
      c.place(ticked);
    }
    int work = WORK;
    int free = CALLS;
    if (copies) {
      work = result + 1;
      free = work + 1;
      c.intConstant(KeyedKernel.workLength(kernel.vectorLength(), kernel.narrowAt()));
      c.mv.visitIntInsn(NEWARRAY, T_LONG);
      c.astore(work);
      if (fresh) {
        expandFresh(c, kernel, true, work);
      } else {
        expand(c, kernel, true, V, work, free);
      }
    } else if (fresh) {
      c.aload(work);
      c.mv.visitMethodInsn(INVOKESTATIC, c.owner(), "expandFresh", "([J)V", false);
    } else {
      c.aload(V);
      c.aload(work);
      c.mv.visitMethodInsn(INVOKESTATIC, c.owner(), "expand", "([J[J)V", false);
    }
    inputsAndSteps(c, kernel, work, free);
    if (copies) {
      Label stored = new Label();
      store(c, kernel, true, work, V, stored);
      c.place(stored);
    } else {
      c.aload(work);
      c.aload(V);
      c.mv.visitMethodInsn(INVOKESTATIC, c.owner(), "store", "([J[J)I", false);
    }
    c.istore(result);
    if (copies) {
      Label kept = new Label();
      c.iload(result);
      c.intConstant(KeyedKernel.WIDENED);
      c.jump(IF_ICMPNE, kept);
      copy(c, work, WORK, KeyedKernel.workLength(kernel.vectorLength(), kernel.narrowAt()));
      c.place(kept);
    }
    outputs(c, kernel, columns, work, free);
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
    if (kernel.elements()) {
      toWork(c, kernel, columns ? 8 : 6);
      inputsAndSteps(c, kernel, WORK, CALLS);
      fromWork(c, kernel);
    } else {
      copyVector(c, V, WORK, length);
      inputsAndSteps(c, kernel, WORK, CALLS);
      copyVector(c, WORK, V, length);
    }
    outputs(c, kernel, columns, WORK, CALLS);
    c.op(ICONST_1);
    c.op(IRETURN);
    c.end();
  }

  /**
   * The inputs (returning 0, false, on a refused kind), steps, commit and tick count on the
   * working copy in local {@code work}; the steps copied in from local {@code free} on (see
   * {@link #call}).
   */
  private static void inputsAndSteps(Code c, KeyedKernel kernel, int work, int free) {
    List<KeyedKernel.Step> inputs = kernel.inputSteps();
    for (int i = 0; i < inputs.size(); i++) {
      // Steps.input(work, constants, input.kind(i), input.bits(i), args...) or return false
      c.aload(work);
      c.aload(CONSTANTS);
      c.aload(INPUT);
      c.intConstant(i);
      c.mv.visitMethodInsn(INVOKEVIRTUAL, ROW, "kind", "(I)B", false);
      c.aload(INPUT);
      c.intConstant(i);
      c.mv.visitMethodInsn(INVOKEVIRTUAL, ROW, "bits", "(I)J", false);
      call(c, "([J[JBJ", inputs.get(i), "Z", free);
      Label next = new Label();
      c.jump(IFNE, next);
      c.op(ICONST_0);
      c.op(IRETURN);
      c.place(next);
    }
    calls(c, kernel.steps(), work, free);
    calls(c, kernel.commitSteps(), work, free);
    c.aload(work);
    invoke(c, "advance", "([J)V", free);
  }

  /** The outputs, read from the vector in local {@code from}: into the row or the columns. */
  private static void outputs(Code c, KeyedKernel kernel, boolean columns, int from,
      int free) {
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
        call(c, "outputTo", "([J[J[B[JI", outputs.get(j), "V", free);
      } else {
        // Steps.output(v, constants, output, j, args...)
        c.aload(OUTPUT);
        c.intConstant(j);
        call(c, "([J[JL" + ROW + ";I", outputs.get(j), "V", free);
      }
    }
  }

  /** One static call per step: (work, literals, positions...). */
  private static void calls(Code c, List<KeyedKernel.Step> steps, int work, int free) {
    for (KeyedKernel.Step s : steps) {
      c.aload(work);
      c.aload(CONSTANTS);
      call(c, "([J[J", s, "V", free);
    }
  }

  /**
   * The step's int arguments, then its call (the receiver's arguments already pushed), or its
   * bytecode copied in with its locals from {@code free} on ({@link Inliner}; {@link #CALLS}
   * for a call).
   */
  private static void call(Code c, String prefix, KeyedKernel.Step s, String returns,
      int free) {
    call(c, s.method(), prefix, s, returns, free);
  }

  /** {@link #call} of another step method of the same arguments ({@code outputTo}). */
  private static void call(Code c, String method, String prefix, KeyedKernel.Step s,
      String returns, int free) {
    StringBuilder d = new StringBuilder(prefix);
    for (int a : s.args()) {
      c.intConstant(a);
      d.append('I');
    }
    d.append(')').append(returns);
    invoke(c, method, d.toString(), free);
  }

  /** A call of {@code Steps.method}, or its bytecode copied in (see {@link #call}). */
  private static void invoke(Code c, String method, String descriptor, int free) {
    if (free == CALLS) {
      c.mv.visitMethodInsn(INVOKESTATIC, STEPS, method, descriptor, false);
    } else {
      STEPS_CODE.inline(c.mv, method, descriptor, free);
    }
  }

  /**
   * {@code from} into {@code to}, {@code length} elements. A short vector is copied element by
   * element at constant indices, which the JIT can follow: the steps' loads of the working copy
   * then read what the copy or an earlier step stored, not memory (measured: about 1 to 3 ns per
   * tick less than {@code System.arraycopy}'s stub for {@code groupsum}'s 14 elements).
   */
  private static void copyVector(Code c, int from, int to, int length) {
    if (length <= UNROLLED) {
      copy(c, from, to, length);
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

  /**
   * The vector V into the working copy WORK in the work format ({@code KeyedKernel.toWork},
   * {@link KeyedKernel#elements}), element by element at constant indices, as
   * {@link #copyVector} copies; a longer one by the kernel's own loop.
   *
   * @param word a free local for a {@code long}
   */
  private static void toWork(Code c, KeyedKernel kernel, int word) {
    int length = kernel.vectorLength();
    int narrowAt = kernel.narrowAt();
    if (length > UNROLLED) {
      convert(c, "toWork", V, WORK, narrowAt);
      return;
    }
    copy(c, V, WORK, narrowAt);
    for (int n = narrowAt; n < length; n++) {
      c.aload(V);
      c.intConstant(n);
      c.op(LALOAD);
      c.lstore(word);
      unpack(c, word, WORK, KeyedKernel.workAt(n, narrowAt), 0, 0);
    }
  }

  /** The working copy WORK into the vector V ({@link #toWork}'s inverse). */
  private static void fromWork(Code c, KeyedKernel kernel) {
    int length = kernel.vectorLength();
    int narrowAt = kernel.narrowAt();
    if (length > UNROLLED) {
      convert(c, "fromWork", WORK, V, narrowAt);
      return;
    }
    for (int k = 0; k < length; k++) {
      c.aload(V);
      c.intConstant(k);
      if (k < narrowAt) {
        c.aload(WORK);
        c.intConstant(k);
        c.op(LALOAD);
      } else {
        pack(c, WORK, KeyedKernel.workAt(k, narrowAt));
      }
      c.op(LASTORE);
    }
  }

  /** Elements 0 to {@code count - 1} of the array in local {@code from} into local {@code to}. */
  private static void copy(Code c, int from, int to, int count) {
    for (int k = 0; k < count; k++) {
      c.aload(to);
      c.intConstant(k);
      c.aload(from);
      c.intConstant(k);
      c.op(LALOAD);
      c.op(LASTORE);
    }
  }

  /** A call of the kernel's conversion {@code method} ({@code toWork}, {@code fromWork}). */
  private static void convert(Code c, String method, int from, int to, int narrowAt) {
    c.aload(from);
    c.aload(to);
    c.intConstant(narrowAt);
    c.mv.visitMethodInsn(INVOKESTATIC, Type.getInternalName(KeyedKernel.class), method,
        "([J[JI)V", false);
  }
}
