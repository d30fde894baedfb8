package io.dataflow.testkit;

import static io.dataflow.testkit.OutputTraceAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.ExitReport;
import io.dataflow.core.InputWindow;
import io.dataflow.reconfig.ReconfigurationAck;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The examples of docs/testing.md. Each snippet between the "// doc:" markers appears in the
 * page verbatim (DocsSnippetsTest checks that), so the guide only shows code that compiles and
 * passes.
 */
class TestingGuideTest {
  @Test
  void firstTest() {
    // doc:first-test
    try (DataflowHarness h = DataflowHarness.forSpec("in x\nout z\nz = default(z[1], 0) + x")
        .build()) {
      h.tick("x", 1).tick("x", 2).emptyTick().tick("x", 10);
      assertThat(h.trace()).hasValues("z", 1, 3, 5, 15);
      assertThat(h.trace()).hasLines(
          "z[0] = Int(1)", "z[1] = Int(3)", "z[2] = Int(5)", "z[3] = Int(15)");
    }
    // end
  }

  @Test
  void reconfiguration() {
    // doc:reconfiguration
    try (DataflowHarness h = DataflowHarness.forSpec("in x\nout z\nz = default(z[1], 0) + x")
        .build()) {
      h.tick("x", 1).tick("x", 2);
      ReconfigurationAck ack = h.reconfigure("in x\nout z\nz = default(z[1], 0) + 10 * x");
      h.tick("x", 3);
      assertThat(ack.plan()).isEqualTo(ReconfigurationAck.Plan.TRANSFER);
      assertThat(ack.monitorRevision().root()).isEqualTo(1);
      assertThat(h.trace()).hasValues("z", 1, 3, 33);
    }
    // end
  }

  @Test
  void time() {
    // doc:time
    try (DataflowHarness h = DataflowHarness.forSpec("in x\nout z\nz = x")
        .options(o -> o.withWindow(InputWindow.batch(100, Duration.ofMillis(50)))).build()) {
      h.tick("x", 1).tick("x", 2);
      assertThat(h.trace()).isEmpty();          // still in the window
      h.advance(Duration.ofMillis(50));         // the window's timer fires, no sleeping
      assertThat(h.trace()).hasValues("z", 1, 2);
    }
    // end
  }

  @Test
  void faults() {
    // doc:faults
    CallLog log = new CallLog();
    ScriptedSink sink = new ScriptedSink("out", log).failOn(ScriptedSink.Call.FEED, 2);
    try (DataflowHarness h = DataflowHarness.forSpec("in x\nout z\nz = x")
        .destination("out", sink).build()) {
      h.tick("x", 1).tick("x", 2);
      ExitReport report = h.awaitTermination();
      assertThat(report.outcome()).isEqualTo(ExitReport.Outcome.FAILED);
      assertThat(report.component()).isEqualTo("sink:out");
      assertThat(log.entries()).containsExactly("sink:out feed 0", "sink:out flush",
          "sink:out feed 1", "sink:out feed failed", "sink:out close");
    }
    // end
  }

  // doc:golden
  @TestFactory
  Stream<DynamicTest> myGoldenTraces() {
    return GoldenTraces.tests(ProjectFiles.root().resolve("conformance"),
        GoldenTraces::runWithMonitor);
  }
  // end
}
