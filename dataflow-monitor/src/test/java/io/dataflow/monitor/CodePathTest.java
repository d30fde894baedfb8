package io.dataflow.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Value;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The public diagnostics of the tick path ({@link DataflowMonitor#codePath()},
 * {@link DataflowMonitor#codePathReason()}): a program that qualifies runs generated code when
 * asked to, the interpreter says why it runs, and a program generation refuses is reported and
 * logged once, not silently slowed down.
 */
class CodePathTest {
  private static final String QUALIFIES = "in x: Int\nout z: Int\nz = x + 1";
  private static final DataflowMonitor.Options OPTIONS = DataflowMonitor.Options.DEFAULT;

  @Test
  void aProgramThatQualifiesRunsGeneratedCodeWhenEager() {
    DataflowMonitor m = DataflowMonitor.create(DataflowProgram.compile("q.dsrv", QUALIFIES),
        OPTIONS.withFusion(DataflowMonitor.Fusion.EAGER));
    assertThat(m.codePath()).isEqualTo(CodePath.GENERATED);
    assertThat(m.codePathReason()).isEmpty();
    assertThat(m.evaluate(Map.of("x", Value.of(1)))).containsEntry("z", Value.of(2));
  }

  @Test
  void theInterpreterOnlyModeRunsTheInterpreterAndSaysSo() {
    DataflowMonitor m = DataflowMonitor.create(DataflowProgram.compile("q.dsrv", QUALIFIES),
        OPTIONS.withFusion(DataflowMonitor.Fusion.OFF));
    assertThat(m.codePath()).isEqualTo(CodePath.INTERPRETED);
    assertThat(m.codePathReason()).hasValueSatisfying(r -> assertThat(r).contains("OFF"));
  }

  @Test
  void backgroundGenerationIsPendingUntilItIsInstalled() {
    DataflowMonitor m = DataflowMonitor.create(DataflowProgram.compile("q.dsrv", QUALIFIES),
        OPTIONS.withFusion(DataflowMonitor.Fusion.BACKGROUND));
    assertThat(m.codePath()).isEqualTo(CodePath.PENDING);
    assertThat(m.codePathReason()).hasValueSatisfying(r -> assertThat(r).contains("background"));
    long deadline = io.dataflow.core.SystemClock.INSTANCE.nanoTime() + 30_000_000_000L;
    while (m.codePath() != CodePath.GENERATED) {
      m.evaluate(Map.of("x", Value.of(1)));
      assertThat(m.codePath()).isNotEqualTo(CodePath.INTERPRETED);
      assertThat(io.dataflow.core.SystemClock.INSTANCE.nanoTime()).as("switched in time")
          .isLessThan(deadline);
    }
    assertThat(m.codePathReason()).isEmpty();
    assertThat(m.nextTick()).isGreaterThanOrEqualTo(DataflowMonitor.Fusion.BACKGROUND_AFTER_TICKS);
  }

  /**
   * One stream whose expression is too long for one JVM method: generation refuses it (the
   * only way the tick path legitimately falls back), the monitor says why and still computes,
   * and the refusal is logged once for the program, not once per monitor.
   */
  @Test
  void aProgramTooLargeForAMethodIsReportedAndLoggedOnce() {
    int depth = 13; // a balanced sum: a chain would exceed the parser's nesting limit
    int terms = 1 << depth;
    DataflowProgram p = DataflowProgram.compile("too-large-for-a-method.dsrv",
        "in x: Int\nout z: Int\nz = " + sum(depth));
    String log = stderrOf(() -> {
      for (int i = 0; i < 2; i++) {
        DataflowMonitor m = DataflowMonitor.create(p,
            OPTIONS.withFusion(DataflowMonitor.Fusion.EAGER));
        assertThat(m.codePath()).isEqualTo(CodePath.INTERPRETED);
        assertThat(m.codePathReason()).hasValueSatisfying(r -> assertThat(r)
            .contains("bytes of code"));
        assertThat(m.evaluate(Map.of("x", Value.of(2)))).containsEntry("z",
            Value.of(2L * terms));
      }
    });
    assertThat(log.split("too-large-for-a-method.dsrv", -1)).as("logged once: %s", log)
        .hasSize(2);
    assertThat(log).contains("bytes of code");
  }

  /** x added to itself 2^depth times, as a balanced tree of additions. */
  private static String sum(int depth) {
    return depth == 0 ? "x" : "(" + sum(depth - 1) + " + " + sum(depth - 1) + ")";
  }

  /** What {@code action} writes to System.err (where the test binding of SLF4J logs). */
  private static String stderrOf(Runnable action) {
    PrintStream saved = System.err;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    try {
      action.run();
    } finally {
      System.setErr(saved);
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
