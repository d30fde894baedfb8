package io.dataflow.monitor.codegen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.monitor.codegen.Members.MethodRef;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.objectweb.asm.Attribute;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/** Defining generated classes: checked by CheckClassAdapter in the suite, loaded apart. */
class ClassDefinerTest {
  private static ClassDefiner runnable(String source, boolean broken) {
    Constants constants = new Constants();
    constants.add(new StringBuilder("held"));
    ClassDefiner cls = new ClassDefiner("Test", source, Runnable.class, constants);
    Code run = cls.method(Opcodes.ACC_PUBLIC, "run", "()V");
    if (broken) {
      run.intConstant(0);
      run.op(Opcodes.ATHROW); // an int is not a throwable
    } else {
      run.get(constants.first());
      run.op(Opcodes.POP);
      run.op(Opcodes.RETURN);
    }
    run.end();
    return cls;
  }

  @Test
  void theSuiteChecksEveryGeneratedClassWithCheckClassAdapter() {
    assertThat(Boolean.getBoolean(ClassDefiner.VERIFY_PROPERTY))
        .as("surefire sets -D%s=true", ClassDefiner.VERIFY_PROPERTY).isTrue();
    assertThatThrownBy(() -> runnable("broken.dsrv", true).define(Runnable.class))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("fails CheckClassAdapter");
  }

  @Test
  void aGeneratedClassIsAnOrdinaryClassOfItsOwnLoaderNamedForItsSource() throws Exception {
    Runnable r = runnable("my spec.dsrv", false).define(Runnable.class);
    r.run();
    Class<?> c = r.getClass();
    assertThat(c.isHidden()).isFalse();
    assertThat(c.getName()).startsWith("io.dataflow.monitor.generated.Test_my_spec_dsrv_");
    assertThat(c.getClassLoader()).isNotSameAs(ClassDefiner.class.getClassLoader());
    assertThat(runnable("my spec.dsrv", false).define(Runnable.class).getClass())
        .isNotSameAs(c);
  }

  /** {@code run()} with a loop: {@code for (int i = 0; i < 3; i++) {}}, so a frame is due. */
  private static ClassDefiner looping(String source) {
    ClassDefiner cls = new ClassDefiner("Test", source, Runnable.class, new Constants());
    Code run = cls.method(Opcodes.ACC_PUBLIC, "run", "()V");
    Label test = new Label();
    Label body = new Label();
    run.intConstant(0);
    run.mv.visitVarInsn(Opcodes.ISTORE, 1);
    run.mv.visitJumpInsn(Opcodes.GOTO, test);
    run.mv.visitLabel(body);
    run.mv.visitIincInsn(1, 1);
    run.mv.visitLabel(test);
    run.mv.visitVarInsn(Opcodes.ILOAD, 1);
    run.intConstant(3);
    run.mv.visitJumpInsn(Opcodes.IF_ICMPLT, body);
    run.op(Opcodes.RETURN);
    run.end();
    return cls;
  }

  @Test
  void generatedClassesAreVersion49WithoutStackMapFramesAndTheirMaximumStackCounted(
      @TempDir Path dump) throws Exception {
    String before = System.setProperty(ClassDefiner.DUMP_PROPERTY, dump.toString());
    ClassDefiner cls = looping("loop.dsrv");
    try {
      cls.define(Runnable.class).run();
    } finally {
      restore(ClassDefiner.DUMP_PROPERTY, before);
    }
    byte[] bytes = Files.readAllBytes(dump.resolve(cls.simpleName() + ".class"));
    int[] maxStack = {-1};
    boolean[] framed = {false};
    ClassReader reader = new ClassReader(bytes);
    reader.accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor,
          String signature, String[] exceptions) {
        return !name.equals("run") ? null : new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitFrame(int type, int locals, Object[] local, int stack,
              Object[] stackItems) {
            framed[0] = true;
          }

          @Override
          public void visitMaxs(int stack, int locals) {
            maxStack[0] = stack;
          }
        };
      }
    }, new Attribute[0], 0);
    assertThat(reader.readShort(6)).as("major version").isEqualTo((short) 49);
    assertThat(framed[0]).as("stack-map frames").isFalse();
    assertThat(maxStack[0]).isEqualTo(2);
  }

  @Test
  void theJvmStillVerifiesAGeneratedClassWithoutFrames() {
    String before = System.setProperty(ClassDefiner.VERIFY_PROPERTY, "false");
    try {
      assertThatThrownBy(() -> runnable("broken.dsrv", true).define(Runnable.class))
          .isInstanceOf(GenerationRefused.class)
          .hasMessageContaining("VerifyError");
    } finally {
      restore(ClassDefiner.VERIFY_PROPERTY, before);
    }
  }

  @Test
  void aStaticCallOfAnInterfaceMethodIsRefusedWhileWritingIt() {
    ClassDefiner cls = new ClassDefiner("Test", "itf.dsrv", Runnable.class, new Constants());
    Code run = cls.method(Opcodes.ACC_PUBLIC, "run", "()V");
    MethodRef of = new MethodRef(Opcodes.INVOKESTATIC, "java/util/List", "of",
        "()Ljava/util/List;", true);
    assertThatThrownBy(() -> run.invoke(of))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("java/util/List.of");
  }

  private static void restore(String property, String value) {
    if (value == null) {
      System.clearProperty(property);
    } else {
      System.setProperty(property, value);
    }
  }
}
