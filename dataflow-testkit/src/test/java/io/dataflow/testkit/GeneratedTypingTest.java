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

  /**
   * Catches: a typed input that accepts a value of another type, an error that names the
   * wrong tick or input, and untyped evaluation that crashes on the unexpected value instead
   * of failing the tick with a MonitorException.
   */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void aWrongTypedInputFailsItsTickNamingTheInputAndBothTypes(long seed) {
    Seeds.check(seed, c -> {
      GeneratedSpec spec = new SpecGenerator(seed).next();
      c.note("annotated spec", spec.annotatedText());
      List<Map<String, Value>> trace =
          c.trace("trace", new TraceGenerator(~seed).mistyped(0.04).next(spec));
      Map<String, StreamType> types = spec.inputTypes();
      int first = -1;
      List<String> wrong = new java.util.ArrayList<>();
      for (int t = 0; t < trace.size() && first < 0; t++) {
        for (Map.Entry<String, Value> e : trace.get(t).entrySet()) {
          if (!e.getValue().typeName().equals(types.get(e.getKey()).annotation())) {
            first = t;
            wrong.add("'" + e.getKey() + "' is declared " + types.get(e.getKey()).annotation()
                + " but got a value of type " + e.getValue().typeName());
          }
        }
      }
      for (TypingMode mode : new TypingMode[] {TypingMode.STRICT, TypingMode.GRADUAL}) {
        Run run = Runs.monitor(spec.annotatedText(), mode, trace);
        if (first < 0) {
          assertThat(run.failure()).as(mode.name()).isNull();
        } else {
          assertThat(run.failure()).as(mode.name()).startsWith("tick=" + first + " ");
          assertThat(wrong).as(mode.name()).anySatisfy(w -> assertThat(run.failure())
              .contains(w));
        }
      }
      Run untyped = Runs.monitor(spec.annotatedText(), TypingMode.UNTYPED, trace);
      if (first < 0) {
        assertThat(untyped.failure()).isNull();
      }
    });
  }
}
