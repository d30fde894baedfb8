package io.dataflow.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.SourceLocation;
import org.junit.jupiter.api.Test;

/** {@code @reconfigure {JSON5}} lines: items between ticks, with their location; bad JSON5. */
class TraceReconfigureTest {

  @Test
  void deliversARequestBetweenTheTicksAroundIt() {
    TraceRun run =
        TraceRun.of(
            "0: x = 1\n   y = 2\n"
                + "@reconfigure {specification: \"in x\\nout z\\nz = x\"}\n1: x = 3\n");
    assertThat(run.error).isNull();
    assertThat(run.all())
        .containsExactly(
            "0: x=Int(1), y=Int(2)",
            "@{specification: \"in x\\nout z\\nz = x\"} at 3:14",
            "1: x=Int(3)");
  }

  @Test
  void locatesTheRequestAtItsJsonText() {
    TraceRun run = TraceRun.of("// c\n  @reconfigure{a: 1}\n");
    TraceReader.Reconfigure r = (TraceReader.Reconfigure) run.items.get(0);
    assertThat(r.location()).isEqualTo(new SourceLocation("trace.input", 2, 15));
    assertThat(r.json()).isEqualTo("{a: 1}");
  }

  @Test
  void deliversRequestsBeforeTheFirstTickAndBackToBack() {
    TraceRun run =
        TraceRun.of("@reconfigure {a: 1}\n@reconfigure {b: 2}\n0: x = 1\n@reconfigure {c: 3}\n");
    assertThat(run.all())
        .containsExactly("@{a: 1} at 1:14", "@{b: 2} at 2:14", "0: x=Int(1)", "@{c: 3} at 4:14");
  }

  @Test
  void continuesTickNumbersAcrossARequestAndFillsTheGapAfterIt() {
    TraceRun run = TraceRun.of("0: x = 1\n@reconfigure {}\n3: x = 2\n");
    assertThat(run.all()).containsExactly("0: x=Int(1)", "@{} at 2:14", "1:", "2:", "3: x=Int(2)");
  }

  @Test
  void rejectsATickNotGreaterThanTheOneBeforeTheRequest() {
    TraceRun run = TraceRun.of("5: x = 1\n@reconfigure {}\n5: x = 2\n");
    assertThat(run.all()).endsWith("5: x=Int(1)", "@{} at 2:14");
    assertThat(run.error)
        .hasMessage("trace.input:3:1: tick 5 is not greater than the previous tick 5");
  }

  @Test
  void acceptsJson5InTheRequest() {
    TraceRun run =
        TraceRun.of("@reconfigure {a: 'x', b: [1, +2, .5,], /* c */ 'd': NaN,} // why\n");
    assertThat(run.error).isNull();
    assertThat(run.all())
        .containsExactly("@{a: 'x', b: [1, +2, .5,], /* c */ 'd': NaN,} // why at 1:14");
  }

  @Test
  void reportsMalformedJson5WhereTheParserStopped() {
    TraceRun run = TraceRun.of("0: x = 1\n@reconfigure {a: }\n1: x = 2\n");
    assertThat(run.ticks()).containsExactly("0: x=Int(1)");
    assertThat(run.error.location()).isEqualTo(new SourceLocation("trace.input", 2, 18));
    assertThat(run.error.getMessage())
        .startsWith("trace.input:2:18: malformed @reconfigure request: Unexpected character ('}'");
  }

  @Test
  void reportsAnUnterminatedRequestJustAfterTheLine() {
    TraceRun run = TraceRun.of("@reconfigure {a: 1,\n");
    assertThat(run.error)
        .hasMessage(
            "trace.input:1:20: malformed @reconfigure request:"
                + " Unexpected end-of-input within/between Object entries");
  }

  @Test
  void rejectsARequestThatIsNotOneObject() {
    assertThat(TraceRun.of("@reconfigure\n").error)
        .hasMessage(
            "trace.input:1:13: malformed @reconfigure request:"
                + " expected a JSON object, found nothing");
    assertThat(TraceRun.of("@reconfigure   [1]\n").error)
        .hasMessage(
            "trace.input:1:16: malformed @reconfigure request:"
                + " expected a JSON object, found array");
    assertThat(TraceRun.of("@reconfigure {} {}\n").error.location().column()).isEqualTo(17);
    assertThat(TraceRun.of("@reconfigure {a: 1} x\n").error.location().column()).isEqualTo(21);
  }

  @Test
  void rejectsAnAssignmentRightAfterARequest() {
    TraceRun run = TraceRun.of("0: x = 1\n@reconfigure {}\n   y = 2\n");
    assertThat(run.all()).containsExactly("0: x=Int(1)", "@{} at 2:14");
    assertThat(run.error)
        .hasMessage(
            "trace.input:3:4: assignment after @reconfigure, outside a tick"
                + " (start a tick with 'N: name = value')");
  }

  @Test
  void acceptsARequestWithCrlfLineEnding() {
    assertThat(TraceRun.of("@reconfigure {a: 1}\r\n0: x = 1\r\n").all())
        .containsExactly("@{a: 1} at 1:14", "0: x=Int(1)");
  }
}
