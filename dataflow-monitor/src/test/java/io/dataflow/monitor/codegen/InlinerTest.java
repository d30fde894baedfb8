package io.dataflow.monitor.codegen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * {@link Inliner}: a method's bytecode copied into a generated method computes what its call
 * computes (arguments of every size, locals moved past the caller's, several returns, a loop,
 * a switch, an increment, nested calls copied too), leaves no call of the copied class, copies
 * a substitute where told to, and refuses what it cannot copy. A failure names its seed.
 */
class InlinerTest implements Opcodes {
  /** The methods copied (the keyed kernel's steps are the real ones, see KernelEmitter). */
  static final class Fixture {
    private Fixture() {}

    static long mix(long[] a, int n, long x, double d, byte b) {
      long acc = twice(x) + b;
      for (int k = 0; k < n; k++) {
        acc += a[k];
      }
      if (d > 1.5) {
        return acc - 1;
      }
      switch (n) {
        case 0 -> acc ^= 3;
        case 1 -> acc *= 7;
        case 2 -> acc -= 11;
        default -> acc += clamp(n, 1, 5);
      }
      int j = n;
      j += 4;
      return acc + j;
    }

    private static long twice(long x) {
      return x << 1;
    }

    private static int clamp(int v, int lo, int hi) {
      if (v < lo) {
        return lo;
      }
      return v > hi ? hi : v;
    }

    static long original(long x) {
      return x + 1;
    }

    static long substitute(long x) {
      return x + 2;
    }

    static long callsOriginal(long x) {
      return original(x) * 3;
    }

    static int forever(int x) {
      return x <= 0 ? 0 : forever(x - 1);
    }

    static int guarded(int x) {
      try {
        return 10 / x;
      } catch (ArithmeticException e) {
        return -1;
      }
    }
  }

  @Test
  void aCopiedMethodComputesWhatItsCallComputes() throws Throwable {
    Inliner inliner = new Inliner(Fixture.class, Map.of());
    String descriptor = "([JIJDB)J";
    // run(a, n, x, d, b): first = mix(...) (a copy), then mix(...) + 31 * first (a second copy,
    // over the first one's locals): 32 times mix's value when both copies compute it.
    byte[] bytes = generated("Mixed", descriptor, mv -> {
      for (int copy = 0; copy < 2; copy++) {
        mv.visitVarInsn(ALOAD, 0);
        mv.visitVarInsn(ILOAD, 1);
        mv.visitVarInsn(LLOAD, 2);
        mv.visitVarInsn(DLOAD, 4);
        mv.visitVarInsn(ILOAD, 6);
        inliner.inline(mv, "mix", descriptor, 9);
        if (copy == 0) {
          mv.visitVarInsn(LSTORE, 7); // the caller's own local, below the copies'
        }
      }
      mv.visitVarInsn(LLOAD, 7);
      mv.visitLdcInsn(31L);
      mv.visitInsn(LMUL);
      mv.visitInsn(LADD);
      mv.visitInsn(LRETURN);
    });
    assertThat(calls(bytes)).as("calls left in the generated method").isEmpty();
    MethodHandle run = define(bytes, "run", MethodType.methodType(long.class, long[].class,
        int.class, long.class, double.class, byte.class));
    long seed = 0x1A11AE5L;
    SplittableRandom r = new SplittableRandom(seed);
    for (int i = 0; i < 2000; i++) {
      long[] a = r.longs(8).toArray();
      int n = r.nextInt(9);
      long x = r.nextLong();
      double d = r.nextDouble() * 3;
      byte b = (byte) r.nextInt();
      long expected = 32 * Fixture.mix(a, n, x, d, b);
      assertThat((long) run.invoke(a, n, x, d, b))
          .as("seed %x, round %d: mix(n=%d, x=%d, d=%s, b=%d)", seed, i, n, x, d, b)
          .isEqualTo(expected);
    }
  }

  @Test
  void aSubstituteIsCopiedInPlaceOfTheMethodItReplaces() throws Throwable {
    Inliner plain = new Inliner(Fixture.class, Map.of());
    Inliner substituted = new Inliner(Fixture.class,
        Map.of("original(J)J", "substitute"));
    for (Inliner inliner : List.of(plain, substituted)) {
      byte[] bytes = generated("Substituted", "(J)J", mv -> {
        mv.visitVarInsn(LLOAD, 0);
        inliner.inline(mv, "callsOriginal", "(J)J", 2);
        mv.visitInsn(LRETURN);
      });
      MethodHandle run = define(bytes, "run", MethodType.methodType(long.class, long.class));
      long expected = inliner == plain ? Fixture.callsOriginal(5) : (5 + 2) * 3;
      assertThat((long) run.invoke(5L)).isEqualTo(expected);
    }
  }

  @Test
  void aMethodWithAnExceptionHandlerCallingItselfOrNotThereIsRefused() {
    Inliner inliner = new Inliner(Fixture.class, Map.of());
    MethodVisitor ignored = new MethodVisitor(ASM9) {};
    assertThatThrownBy(() -> inliner.inline(ignored, "guarded", "(I)I", 1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("guarded(I)I has an exception handler");
    assertThatThrownBy(() -> inliner.inline(ignored, "forever", "(I)I", 1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("a method that calls itself is not copied");
    assertThatThrownBy(() -> inliner.inline(ignored, "absent", "(J)J", 1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("absent(J)J is not there");
  }

  /** A class-file version 49 class with one static method {@code run}, as the generator's. */
  private static byte[] generated(String name, String descriptor,
      java.util.function.Consumer<MethodVisitor> body) {
    ClassWriter w = new ClassWriter(ClassWriter.COMPUTE_MAXS);
    w.visit(V1_5, ACC_PUBLIC | ACC_FINAL | ACC_SUPER, "io/dataflow/monitor/codegen/Inlined" + name,
        null, "java/lang/Object", null);
    MethodVisitor mv = w.visitMethod(ACC_PUBLIC | ACC_STATIC, "run", descriptor, null, null);
    mv.visitCode();
    body.accept(mv);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    w.visitEnd();
    return w.toByteArray();
  }

  private static MethodHandle define(byte[] bytes, String method, MethodType type)
      throws ReflectiveOperationException {
    MethodHandles.Lookup lookup = MethodHandles.lookup().defineHiddenClass(bytes, true);
    return lookup.findStatic(lookup.lookupClass(), method, type);
  }

  /** The methods the class's code calls, as owner.name. */
  private static List<String> calls(byte[] bytes) {
    List<String> calls = new ArrayList<>();
    new ClassReader(bytes).accept(new ClassVisitor(ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor,
          String signature, String[] exceptions) {
        return new MethodVisitor(ASM9) {
          @Override
          public void visitMethodInsn(int opcode, String owner, String n, String d,
              boolean itf) {
            calls.add(owner + "." + n);
          }
        };
      }
    }, 0);
    return calls;
  }
}
