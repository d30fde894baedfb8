package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.ExecutionPolicy;
import io.dataflow.core.InputWindow;
import io.dataflow.core.Value;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.TypingMode;
import io.dataflow.testkit.Runs.Run;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Generated specs and traces give identical output through every library path: the bare
 * monitor (through rows, its typed handles and batches in columns), the runtime stepped by the
 * harness, the runtime in the caller's thread reading the rendered trace file, and (every 4th
 * seed) the runtime on its own thread with random batch sizes, flush policy and batching input
 * window; another layout of the same spec (declaration order, inline equations, comments)
 * gives the same output too. A risky spec may fail with a runtime error; then every path fails
 * at the same tick and stream after the same rows. Catches: a path that reorders, drops or synthesizes ticks, loses the last tick of a
 * batch, reads a gap as anything but an empty tick, or evaluates past a failure.
 */
class GeneratedPathsTest {
  static LongStream seeds() {
    return Seeds.seeds(1200);
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void everyPathGivesTheSameTrace(long seed) {
    Seeds.check(seed, c -> {
      GeneratedSpec spec = c.note("spec", new SpecGenerator(seed).risky(0.15)
          .maxComputed(seed % 5 == 0 ? 12 : 6).maxDepth(seed % 7 == 0 ? 5 : 3).next());
      List<Map<String, Value>> trace =
          c.trace("trace", new TraceGenerator(~seed).next(spec));
      c.noteLazily("shrunk trace (monitor and stepped runtime differ)", () ->
          TraceGenerator.render(Shrinker.shrinkTrace(trace, t -> !monitorAndSteppedAgree(spec,
              t))));
      Run monitor = c.note("monitor", Runs.monitor(spec.text(), TypingMode.GRADUAL, trace));
      if (!spec.isRisky()) {
        assertThat(monitor.failure()).as("a valid spec that is not risky never fails").isNull();
      }
      assertThat(Runs.stepped(spec.text(), TypingMode.GRADUAL, trace)).as("stepped")
          .isEqualTo(monitor);
      String file = seed % 2 == 0 ? TraceGenerator.render(trace)
          : new TraceGenerator(seed).renderVaried(trace, Map.of());
      c.note("trace file", file);
      assertThat(Runs.traceFile(spec.text(), TypingMode.GRADUAL, file)).as("trace file")
          .isEqualTo(monitor);
      // When two streams fail in one tick, the one reported depends on declaration order.
      assertThat(Runs.interpreted(spec.text(), TypingMode.GRADUAL, trace))
          .as("the interpreter and the generated code agree").isEqualTo(monitor);
      assertThat(Runs.handles(spec.text(), TypingMode.GRADUAL, trace,
          DataflowMonitor.Options.DEFAULT.withFused(seed % 3 != 0)))
          .as("the typed handles (step) agree with the rows (evaluate)").isEqualTo(monitor);
      assertThat(Runs.columns(spec.text(), TypingMode.GRADUAL, trace,
          DataflowMonitor.Options.DEFAULT.withFused(seed % 3 != 1), seed, 1 + (int) (seed % 40)))
          .as("batches in columns agree with the rows").isEqualTo(monitor);
      Run relaid = Runs.monitor(spec.withLayoutSeed(~seed).text(), TypingMode.GRADUAL, trace);
      assertThat(relaid.lines()).as("another layout of the same spec").isEqualTo(monitor.lines());
      assertThat(tickOf(relaid.failure())).as("another layout fails in the same tick")
          .isEqualTo(tickOf(monitor.failure()));
      if (seed % 4 == 0) {
        // Batch boundaries, flush policy and a batching input window never change the output.
        SplittableRandom rnd = new SplittableRandom(seed);
        int batchSize = 1 + rnd.nextInt(70);
        ExecutionPolicy policy = rnd.nextBoolean() ? ExecutionPolicy.SYNCHRONOUS
            : ExecutionPolicy.buffered(1 + rnd.nextInt(300));
        InputWindow window = rnd.nextBoolean() ? InputWindow.none()
            : InputWindow.batch(1 + rnd.nextInt(20), Duration.ofMillis(1));
        c.note("threaded runtime", "batches of " + batchSize + ", " + policy + ", " + window);
        assertThat(Runs.threaded(spec.text(), TypingMode.GRADUAL, trace, batchSize, policy,
            window)).as("threaded").isEqualTo(monitor);
      }
    });
  }

  private static String tickOf(String failure) {
    return failure == null ? null : failure.substring(0, failure.indexOf(' '));
  }

  private static boolean monitorAndSteppedAgree(GeneratedSpec spec,
      List<Map<String, Value>> trace) {
    try {
      return Runs.monitor(spec.text(), TypingMode.GRADUAL, trace)
          .equals(Runs.stepped(spec.text(), TypingMode.GRADUAL, trace));
    } catch (RuntimeException | AssertionError e) {
      return false;
    }
  }
}
