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
 * A well-typed generated program means the same under every typing mode: the fully annotated
 * text compiled strictly and untyped, and the unannotated text compiled gradually, give the
 * same output and fail (risky specs only) at the same tick and stream for the same reason.
 * Evaluation never throws anything but a {@code MonitorException}, and a monitor that threw
 * stays poisoned. Catches: a strict-mode check that rejects a value the expression certainly
 * has (Deferred in a typed stream, a promoted Float), a typing mode that changes evaluation,
 * and an internal exception escaping {@code evaluate}.
 */
class GeneratedTypingTest {
  static LongStream seeds() {
    return Seeds.seeds(500);
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void strictUntypedAndGradualInterpretationsAgree(long seed) {
    Seeds.check(seed, c -> {
      GeneratedSpec spec = new SpecGenerator(seed).risky(0.3).next();
      c.note("annotated spec", spec.annotatedText());
      List<Map<String, Value>> trace = c.trace("trace", new TraceGenerator(~seed).next(spec));
      Run strict = c.note("strict", Runs.monitor(spec.annotatedText(), TypingMode.STRICT, trace));
      assertThat(Runs.monitor(spec.annotatedText(), TypingMode.UNTYPED, trace)).as("untyped")
          .isEqualTo(strict);
      assertThat(Runs.monitor(spec.unannotatedText(), TypingMode.GRADUAL, trace))
          .as("gradual, unannotated").isEqualTo(strict);
      assertThat(Runs.monitor(spec.annotatedText(), TypingMode.GRADUAL, trace))
          .as("gradual, annotated").isEqualTo(strict);
      if (!spec.isRisky()) {
        assertThat(strict.failure()).as("a spec that is not risky never fails").isNull();
      }
    });
  }
}
