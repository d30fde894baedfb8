package io.dataflow.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.Kind;
import io.dataflow.monitor.codegen.FusedCompiler;
import io.dataflow.monitor.codegen.FusedStreams;
import io.dataflow.monitor.eval.Evaluator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What makes generated code debuggable: its frames name the specification's file and the
 * equation's line, and {@code -Ddataflow.monitor.dump=DIR} writes each class and its listing.
 */
class GeneratedCodeDiagnosticsTest {
  /** {@code q}'s equation is on line 4. */
  private static final String DIVIDES = "in x: Int\nout ok: Int = x + 1\n\nout q: Int = 10 / x\n"
      + "out after: Int = x * 2";

  private static Evaluator evaluator(DataflowProgram p) {
    return new Evaluator(p.spec, 0, new Evaluator.BodySettings(16, FusedCompiler.BODIES, false),
        () -> { }, null, null);
  }

  /** The frame of generated code in {@code e}'s stack trace (the monitor keeps no cause). */
  private static StackTraceElement generatedFrame(Throwable e) {
    return Arrays.stream(e.getStackTrace())
        .filter(f -> f.getClassName().startsWith("io.dataflow.monitor.generated."))
        .findFirst().orElseThrow(() -> new AssertionError("no generated frame", e));
  }

  /**
   * A failure that is not the specification's (here a ring broken from outside, so the
   * generated history read meets a null array) carries its stack trace, which names the
   * specification and the equation's line; the monitor keeps it as the cause of its "internal
   * error". (The language's own errors, {@code EvalError}, carry no stack trace by design.)
   */
  @Test
  void aFailureInGeneratedCodeNamesTheSpecificationAndTheEquationsLine() throws Exception {
    Evaluator ev = evaluator(DataflowProgram.compile("counts.dsrv",
        "in x: Int\nout c: Int\n\nc = default(c[1], 0) + x"));
    FusedStreams code = FusedCompiler.compile(ev);
    ev.staged()[0].setRaw(Kind.INT, 1, null);
    code.step();
    ev.ringCells()[0].ring.tags = null;
    ev.staged()[0].setRaw(Kind.INT, 2, null);
    Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(code::step);
    assertThat(thrown).isInstanceOf(NullPointerException.class);
    StackTraceElement frame = generatedFrame(thrown);
    assertThat(frame.getClassName()).startsWith("io.dataflow.monitor.generated.Tick_counts_dsrv_");
    assertThat(frame.getMethodName()).isEqualTo("s0");
    assertThat(frame.getFileName()).isEqualTo("counts.dsrv");
    assertThat(frame.getLineNumber()).isEqualTo(4);
    assertThat(ev.failure(thrown)).hasMessageContaining("internal error").hasCause(thrown);
  }

  @Test
  void theMonitorStillNamesTheStreamAndItsLocation() {
    DataflowMonitor m = DataflowMonitor.create(DataflowProgram.compile("divides.dsrv",
        DIVIDES), DataflowMonitor.Options.DEFAULT.withFusion(DataflowMonitor.Fusion.EAGER));
    assertThat(m.codePath()).isEqualTo(CodePath.GENERATED);
    assertThatThrownBy(() -> m.evaluate(Map.of("x", io.dataflow.core.Value.of(0))))
        .hasMessageContaining("stream 'q': division by zero");
  }

  @Test
  void theDumpOptionWritesEachGeneratedClassAndItsListing(@TempDir Path dir)
      throws IOException {
    String saved = System.getProperty("dataflow.monitor.dump");
    System.setProperty("dataflow.monitor.dump", dir.toString());
    try {
      DataflowMonitor m = DataflowMonitor.create(DataflowProgram.compile("dumped.dsrv",
          DIVIDES), DataflowMonitor.Options.DEFAULT.withFusion(DataflowMonitor.Fusion.EAGER));
      assertThat(m.codePath()).isEqualTo(CodePath.GENERATED);
    } finally {
      if (saved == null) {
        System.clearProperty("dataflow.monitor.dump");
      } else {
        System.setProperty("dataflow.monitor.dump", saved);
      }
    }
    List<String> names;
    try (Stream<Path> files = Files.list(dir)) {
      names = files.map(f -> f.getFileName().toString())
          .filter(n -> n.startsWith("Tick_dumped_dsrv_")).sorted().toList();
    }
    assertThat(names).hasSize(2);
    assertThat(names.get(0)).endsWith(".class");
    assertThat(names.get(1)).endsWith(".txt")
        .isEqualTo(names.get(0).replace(".class", ".txt"));
    byte[] bytes = Files.readAllBytes(dir.resolve(names.get(0)));
    assertThat(bytes).startsWith(0xCA, 0xFE, 0xBA, 0xBE);
    String listing = Files.readString(dir.resolve(names.get(1)));
    assertThat(listing).contains("// compiled from: dumped.dsrv")
        .contains("class io/dataflow/monitor/generated/Tick_dumped_dsrv_")
        .contains("INVOKESTATIC io/dataflow/monitor/eval/Ops.div (JJ)J");
    // Each stream's code in each form carries its equation's line (q's is line 4).
    for (String method : List.of("static s1()V", "public batch(", "public dense(")) {
      String section = Arrays.stream(listing.split("// access flags"))
          .filter(m -> m.contains(method)).findFirst().orElseThrow();
      assertThat(section).as(method).contains("LINENUMBER 4 ");
    }
  }
}
