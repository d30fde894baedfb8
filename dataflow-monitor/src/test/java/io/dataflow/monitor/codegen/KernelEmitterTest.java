package io.dataflow.monitor.codegen;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.KeyedMonitor;
import io.dataflow.monitor.eval.KeyedKernel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The keyed kernel's generated hot tick (docs/performance.md, issue 16, thirteenth pass): for a
 * small program in the work format ({@code groupsum}) the tick allocates its own working copy
 * and passes it to no call (the steps' bytecode is copied in), so the JIT can replace it by
 * registers whatever it inlines; past the size limit for copies, or for a program not in the
 * work format, the tick calls the steps on the kernel's copy. The keyed monitor's equivalence
 * tests ({@code KeyedMonitorTest}, generated path) check what the ticks compute.
 */
class KernelEmitterTest implements Opcodes {
  private static final String STEPS = Type.getInternalName(KeyedKernel.Steps.class);

  @Test
  void aSmallProgramsHotTickPassesItsWorkingCopyToNoCall(@TempDir Path dir) throws Exception {
    KeyedKernel kernel = kernel("in val: Int\nout sum: Int\nsum = default(sum[1], 0) + val\n");
    assertThat(kernel.elements()).isTrue();
    Map<String, List<String>> ticks = hotTicks(dir, kernel, KernelEmitter.LARGEST_COPIED);
    assertThat(ticks).hasSize(4); // tickHot and tickFresh, each into a row and into columns
    ticks.forEach((method, insns) -> {
      assertThat(insns).as(method).contains("NEWARRAY");
      assertThat(insns).as(method)
          // tickHot hands a new key to tickFresh before its copy exists
          .noneMatch(i -> i.startsWith("CALL ") && i.contains("[J") && !i.contains(".tickFresh "))
          .noneMatch(i -> i.startsWith("CALL " + STEPS));
    });
  }

  @Test
  void pastTheSizeLimitTheHotTickCallsTheStepsOnTheKernelsCopy(@TempDir Path dir)
      throws Exception {
    KeyedKernel kernel = kernel("in val: Int\nout sum: Int\nsum = default(sum[1], 0) + val\n");
    Map<String, List<String>> ticks = hotTicks(dir, kernel, 100);
    assertThat(ticks).hasSize(4);
    ticks.forEach((method, insns) -> {
      assertThat(insns).as(method).doesNotContain("NEWARRAY");
      assertThat(insns).as(method).anyMatch(i -> i.startsWith("CALL " + STEPS + ".intArith"));
    });
  }

  @Test
  void aProgramWithADeeperRingCallsTheSteps(@TempDir Path dir) throws Exception {
    KeyedKernel kernel = kernel("in val: Int\nout w: Int = default(val[1], 0)"
        + " + default(val[3], 0)\n");
    assertThat(kernel.elements()).isFalse();
    Map<String, List<String>> ticks = hotTicks(dir, kernel, KernelEmitter.LARGEST_COPIED);
    ticks.forEach((method, insns) -> assertThat(insns).as(method)
        .doesNotContain("NEWARRAY").anyMatch(i -> i.startsWith("CALL " + STEPS + ".hist")));
  }

  /**
   * Every step can be copied into a generated class, which is in another package and loader:
   * each public step copies (no exception handler, no invokedynamic, no call of itself), and
   * every class and member that the copies name outside {@code Steps} (the methods reached from
   * the public steps, with the hot tick's substitutes) is public, in a public class. One that
   * is not would fail only when the copied branch first runs (linking is lazy), with an error
   * the kernel does not catch.
   */
  @Test
  void everyStepCanBeCopiedIntoAClassOfAnotherPackage() throws Exception {
    Map<String, List<String[]>> names = new LinkedHashMap<>(); // method -> kind, owner, name, d
    List<String> publicSteps = new ArrayList<>();
    try (java.io.InputStream in = KeyedKernel.Steps.class.getResourceAsStream(
        "KeyedKernel$Steps.class")) {
      new ClassReader(in.readAllBytes()).accept(new ClassVisitor(ASM9) {
        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor,
            String signature, String[] exceptions) {
          List<String[]> named = new ArrayList<>();
          names.put(name + descriptor, named);
          if ((access & ACC_PUBLIC) != 0 && (access & ACC_STATIC) != 0) {
            publicSteps.add(name + descriptor);
          }
          return new MethodVisitor(ASM9) {
            @Override
            public void visitFieldInsn(int opcode, String owner, String n, String d) {
              named.add(new String[] {"field", owner, n, d});
            }

            @Override
            public void visitMethodInsn(int opcode, String owner, String n, String d,
                boolean itf) {
              named.add(new String[] {"method", owner, n, d});
            }

            @Override
            public void visitTypeInsn(int opcode, String type) {
              named.add(new String[] {"class", type, "", ""});
            }

            @Override
            public void visitLdcInsn(Object value) {
              if (value instanceof Type t && t.getSort() == Type.OBJECT) {
                named.add(new String[] {"class", t.getInternalName(), "", ""});
              }
            }
          };
        }
      }, 0);
    }
    assertThat(publicSteps).hasSizeGreaterThan(20);
    Inliner inliner = new Inliner(KeyedKernel.Steps.class, KernelEmitter.STEP_SUBSTITUTES);
    java.util.Deque<String> next = new java.util.ArrayDeque<>(publicSteps);
    java.util.Set<String> reached = new java.util.HashSet<>();
    while (!next.isEmpty()) {
      String m = next.pop();
      if (!reached.add(m)) {
        continue;
      }
      if (publicSteps.contains(m)) {
        int paren = m.indexOf('(');
        // refuses by throwing; copies into a visitor that keeps nothing
        inliner.inline(new MethodVisitor(ASM9) {}, m.substring(0, paren), m.substring(paren),
            0);
      }
      for (String[] n : names.get(m)) {
        if (n[0].equals("method") && n[1].equals(STEPS)) {
          next.push(KernelEmitter.STEP_SUBSTITUTES.getOrDefault(n[2] + n[3], n[2]) + n[3]);
          continue; // copied too
        }
        Class<?> owner = Class.forName(Type.getObjectType(n[1]).getClassName(), false,
            KernelEmitterTest.class.getClassLoader());
        for (Class<?> c = owner; c != null; c = c.getEnclosingClass()) {
          assertThat(java.lang.reflect.Modifier.isPublic(c.getModifiers()))
              .as("%s, named by %s, is public", c, m).isTrue();
        }
        boolean publicMember = switch (n[0]) {
          case "field" -> java.util.Arrays.stream(owner.getFields())
              .anyMatch(f -> f.getName().equals(n[2]));
          case "method" -> java.util.Arrays.stream(owner.getMethods())
              .anyMatch(x -> x.getName().equals(n[2]) && Type.getMethodDescriptor(x).equals(n[3]));
          default -> true;
        };
        assertThat(publicMember).as("%s %s.%s %s, named by %s, is public", n[0],
            owner.getName(), n[2], n[3], m).isTrue();
      }
    }
    assertThat(reached).contains("getWork([J[JI)B").doesNotContain("getPacked([JI)B");
  }

  /** The kernel of a keyed monitor of {@code text} (its own field: no accessor is public). */
  private static KeyedKernel kernel(String text) throws ReflectiveOperationException {
    KeyedMonitor m = KeyedMonitor.create(DataflowProgram.compile("emitted.dsrv", text));
    java.lang.reflect.Field f = KeyedMonitor.class.getDeclaredField("kernel");
    f.setAccessible(true);
    KeyedKernel k = (KeyedKernel) f.get(m);
    assertThat(k).isNotNull();
    assertThat(k.hotLength()).isPositive();
    return k;
  }

  /**
   * Emits {@code kernel}'s class (written to {@code dir} by the dump option) and returns, per
   * hot tick method (name and descriptor), its calls ({@code CALL owner.name descriptor}) and
   * array allocations ({@code NEWARRAY}).
   */
  private static Map<String, List<String>> hotTicks(Path dir, KeyedKernel kernel,
      int largestCopied) throws GenerationRefused, IOException {
    String saved = System.getProperty(ClassDefiner.DUMP_PROPERTY);
    System.setProperty(ClassDefiner.DUMP_PROPERTY, dir.toString());
    try {
      assertThat(KernelEmitter.emit(kernel, largestCopied)).isNotNull();
    } finally {
      if (saved == null) {
        System.clearProperty(ClassDefiner.DUMP_PROPERTY);
      } else {
        System.setProperty(ClassDefiner.DUMP_PROPERTY, saved);
      }
    }
    List<Path> classes;
    try (Stream<Path> files = Files.list(dir)) {
      classes = files.filter(f -> f.toString().endsWith(".class")).toList();
    }
    assertThat(classes).hasSize(1);
    Map<String, List<String>> ticks = new LinkedHashMap<>();
    new ClassReader(Files.readAllBytes(classes.get(0))).accept(new ClassVisitor(ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor,
          String signature, String[] exceptions) {
        if (!name.equals("tickHot") && !name.equals("tickFresh")) {
          return null;
        }
        List<String> insns = new ArrayList<>();
        ticks.put(name + descriptor, insns);
        return new MethodVisitor(ASM9) {
          @Override
          public void visitMethodInsn(int opcode, String owner, String n, String d,
              boolean itf) {
            insns.add("CALL " + owner + "." + n + " " + d);
          }

          @Override
          public void visitIntInsn(int opcode, int operand) {
            if (opcode == NEWARRAY) {
              insns.add("NEWARRAY");
            }
          }
        };
      }
    }, 0);
    return ticks;
  }
}
