package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import io.dataflow.pipeline.DataflowPipeline;
import io.dataflow.pipeline.PipelineExitReport;
import io.dataflow.pipeline.io.FileCheckpointer;
import io.dataflow.pipeline.io.InMemoryPartitionedSource;
import io.dataflow.pipeline.io.KeyedSinks;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples of docs/pipeline.md. Each snippet between the "// doc:" markers appears in the
 * page verbatim (DocsSnippetsTest checks that), so the page only shows code that compiles and
 * does what the page says.
 */
class PipelineGuideTest {
  @TempDir
  Path checkpointDir;

  @Test
  void gettingStarted() throws Exception {
    // doc:getting-started
    String spec = "in x: Int\nout n: Int\nout total: Int\n"
        + "n = default(n[1], 0) + 1\ntotal = default(total[1], 0) + x";
    InMemoryPartitionedSource source = InMemoryPartitionedSource.builder(4)
        .add("robot-1", Tick.of("x", Value.of(5)))
        .add("robot-2", Tick.of("x", Value.of(7)))
        .add("robot-1", Tick.of("x", Value.of(1)))
        .build();
    List<String> lines = new CopyOnWriteArrayList<>();
    DataflowPipeline pipeline = DataflowPipeline.builder()
        .specification("fleet.dsrv", spec)
        .source(source)
        .sink(KeyedSinks.callback(o -> lines.add(o.key() + " " + o.tick() + " " + o.values())))
        .checkpointer(new FileCheckpointer(checkpointDir, 3))
        .options(o -> o.withDrivers(2))
        .build();
    PipelineExitReport report = pipeline.run();
    // end
    assertThat(report.ok()).as("%s", report).isTrue();
    assertThat(report.exitCode()).isZero();
    assertThat(lines).containsExactlyInAnyOrder("robot-1 0 {n=Int(1), total=Int(5)}",
        "robot-1 1 {n=Int(2), total=Int(6)}", "robot-2 0 {n=Int(1), total=Int(7)}");
    assertThat(lines.indexOf("robot-1 0 {n=Int(1), total=Int(5)}"))
        .isLessThan(lines.indexOf("robot-1 1 {n=Int(2), total=Int(6)}"));
  }

  @Test
  void testing() {
    // doc:testing
    ScriptedPartitionedSource source = new ScriptedPartitionedSource(2)
        .add(0, "a", Tick.of("x", Value.of(1)))
        .add(1, "b", Tick.of("x", Value.of(2)));
    ScriptedKeyedSink sink = ScriptedKeyedSink.acknowledging();
    PipelineHarness h = PipelineHarness.of(DataflowPipeline.builder()
        .specification("sum.dsrv", "in x: Int\nout s: Int\ns = default(s[1], 0) + x")
        .source(source).sink(sink).options(o -> o.withDrivers(2)));
    PipelineExitReport report = h.runToEnd(42);
    assertThat(report.ok()).isTrue();
    assertThat(sink.acknowledged()).hasSize(2);
    // end
  }
}
