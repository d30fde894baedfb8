package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.dataflow.core.ExitReport;
import io.dataflow.core.spi.Source;
import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import io.dataflow.io.InMemorySource;
import io.dataflow.io.JsonLinesSource;
import io.dataflow.io.TraceFileSource;
import io.dataflow.reconfig.ReconfigurationRequest;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A pull source runs on the owner thread, which alone drains the ingress queue: with a queue
 * far smaller than the input, every tick, request and the end still arrive, in order, and the
 * run completes (it never waits for itself).
 */
class PullSourceBackpressureTest {
  private static final int TICKS = 300;
  private static final int SWITCH_AT = 150;
  private static final String BEFORE = "in x\nout z\nz = x";
  private static final String AFTER = "in x\nout z\nz = x * 2";

  @TempDir
  static Path dir;

  static Stream<Arguments> sources() {
    return Stream.of(
        Arguments.of("trace file", (Function<Path, Source>) d -> TraceFileSource.of("in",
            new StringReader(traceText()), "t.input")),
        Arguments.of("JSON Lines file", (Function<Path, Source>) d -> {
          try {
            Path file = d.resolve("t.jsonl");
            Files.writeString(file, jsonLinesText());
            return JsonLinesSource.file("in", file);
          } catch (IOException e) {
            throw new IllegalStateException(e);
          }
        }),
        Arguments.of("in memory", (Function<Path, Source>) d -> {
          List<Object> items = new ArrayList<>();
          for (int i = 0; i < TICKS; i++) {
            if (i == SWITCH_AT) {
              items.add(ReconfigurationRequest.of(AFTER));
            }
            items.add(Tick.of("x", Value.of(i)));
          }
          return InMemorySource.ofItems("in", items);
        }));
  }

  private static String traceText() {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < TICKS; i++) {
      if (i == SWITCH_AT) {
        b.append("@reconfigure {specification: \"in x\\nout z\\nz = x * 2\"}\n");
      }
      b.append(i).append(": x = ").append(i).append('\n');
    }
    return b.toString();
  }

  private static String jsonLinesText() {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < TICKS; i++) {
      if (i == SWITCH_AT) {
        b.append("{\"$reconfigure\": {\"specification\": \"in x\\nout z\\nz = x * 2\"}}\n");
      }
      b.append("{\"x\": ").append(i).append("}\n");
    }
    return b.toString();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sources")
  void aQueueSmallerThanTheInputDelaysButLosesNothing(String what,
      Function<Path, Source> source) {
    ExitReport report = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
      try (DataflowHarness h = DataflowHarness.forSpec(BEFORE).options(o -> o.withIngressCapacity(2))
          .source(source.apply(dir)).build()) {
        ExitReport r = h.awaitTermination();
        List<Value> expected = new ArrayList<>();
        for (int i = 0; i < TICKS; i++) {
          expected.add(Value.of(i < SWITCH_AT ? i : 2 * i));
        }
        assertThat(h.values("z")).containsExactlyElementsOf(expected);
        assertThat(h.acknowledgements()).hasSize(1)
            .allMatch(io.dataflow.reconfig.ReconfigurationAck::accepted);
        return r;
      }
    });
    assertThat(report.outcome()).isEqualTo(ExitReport.Outcome.COMPLETED);
    assertThat(report.ticksIn()).isEqualTo(TICKS);
    assertThat(report.warnings()).noneMatch(w -> w.contains("refused"));
  }
}
