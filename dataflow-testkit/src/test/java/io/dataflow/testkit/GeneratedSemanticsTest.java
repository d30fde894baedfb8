package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Value;
import io.dataflow.monitor.TypingMode;
import io.dataflow.testkit.Runs.Run;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The monitor agrees with {@link ReferenceModel}, an independent evaluator written from
 * the language reference (docs/language.md#types, docs/language.md#lifting and
 * docs/language.md#time), on generated specs and traces. Catches semantic slips the
 * path comparisons cannot see because every path shares one monitor: lifting, delays and their
 * own last result, {@code default}, {@code init}, {@code update}, {@code latch}, {@code when},
 * {@code is_defined}, {@code if}, promotion, truncating division, code-point string order.
 */
class GeneratedSemanticsTest {
  static LongStream seeds() {
    return Seeds.seeds(1000);
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void theMonitorAgreesWithTheReferenceModel(long seed) {
    Seeds.check(seed, c -> {
      GeneratedSpec spec = c.note("spec", new SpecGenerator(seed).next());
      List<Map<String, Value>> trace = c.trace("trace", new TraceGenerator(~seed).next(spec));
      c.noteLazily("shrunk trace", () -> TraceGenerator.render(
          Shrinker.shrinkTrace(trace, t -> !agrees(spec, t))));
      Run monitor = Runs.monitor(spec.text(), TypingMode.GRADUAL, trace);
      assertThat(monitor.failure()).isNull();
      assertThat(monitor.lines()).isEqualTo(new ReferenceModel(spec).run(trace));
    });
  }

  private static boolean agrees(GeneratedSpec spec, List<Map<String, Value>> trace) {
    try {
      return Runs.monitor(spec.text(), TypingMode.GRADUAL, trace).lines()
          .equals(new ReferenceModel(spec).run(trace));
    } catch (RuntimeException | AssertionError e) {
      return false;
    }
  }
}
