package io.dataflow.monitor.codegen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
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
}
