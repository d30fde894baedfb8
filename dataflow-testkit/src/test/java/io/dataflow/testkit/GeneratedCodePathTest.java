package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.monitor.CodePath;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.TypingMode;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The eager runs of the equivalence tests ({@link GeneratedPathsTest}: generated code against
 * the interpreter) really run generated code: every generated spec qualifies, so a monitor that
 * falls back to the interpreter here is a code-generation regression that the equivalence
 * tests could not see (they would compare the interpreter with itself). Same specs as there.
 */
class GeneratedCodePathTest {
  static LongStream seeds() {
    return Seeds.seeds(1200);
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void everyGeneratedSpecRunsGeneratedCodeWhenEager(long seed) {
    Seeds.check(seed, c -> {
      GeneratedSpec spec = c.note("spec", new SpecGenerator(seed).risky(0.15)
          .maxComputed(seed % 5 == 0 ? 12 : 6).maxDepth(seed % 7 == 0 ? 5 : 3).next());
      DataflowMonitor monitor = DataflowMonitor.create(DataflowProgram.compile(Runs.SPEC,
          spec.text(), TypingMode.GRADUAL), DataflowMonitor.Options.DEFAULT.withFused(true));
      assertThat(monitor.codePath()).as("why not: %s", monitor.codePathReason())
          .isEqualTo(CodePath.GENERATED);
    });
  }
}
