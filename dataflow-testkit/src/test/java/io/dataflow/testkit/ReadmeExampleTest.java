package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.DataflowRuntime;
import io.dataflow.core.ExitReport;
import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import io.dataflow.io.Sinks;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder;
import io.dataflow.reconfig.ReconfigurationRequest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The README's Java quick start, compiled and run (with System.out swapped for a buffer). */
class ReadmeExampleTest {
  @Test
  void quickStartWorksAsDocumented() throws Exception {
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    DataflowProgram program = DataflowProgram.compile("counter.dsrv",
        "in x\nout z\nz = default(z[1], 0) + x");

    DataflowMonitor monitor = DataflowMonitor.create(program);
    assertThat(monitor.evaluate(Map.of("x", Value.of(1)))).isEqualTo(Map.of("z", Value.of(1)));
    assertThat(monitor.evaluate(Map.of("x", Value.of(2)))).isEqualTo(Map.of("z", Value.of(3)));

    DataflowRuntime runtime = ReconfigurableDataflowRuntimeBuilder.create()
        .program(program)
        .destination("stdout", Sinks.text(stdout))
        .build();
    runtime.start();
    runtime.offer(Tick.of("x", Value.of(5)));
    runtime.submitControl(ReconfigurationRequest.of("in x\nout z\nz = default(z[1], 0) + 2 * x"),
        Duration.ofSeconds(1));
    runtime.offer(Tick.of("x", Value.of(1)));
    runtime.endOfInput();
    ExitReport report = runtime.awaitTermination(Duration.ofSeconds(5));

    assertThat(report.isCompleted()).isTrue();
    assertThat(stdout.toString(StandardCharsets.UTF_8))
        .isEqualTo("z[0] = Int(5)\nz[1] = Int(7)\n");
  }
}
