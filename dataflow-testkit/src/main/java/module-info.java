/**
 * Testing monitors from unit tests: {@code ManualClock}, {@code DataflowHarness},
 * {@code PipelineHarness}, scripted
 * sources and sinks, golden traces, seeded generators ({@code io.dataflow.testkit}).
 */
module io.dataflow.testkit {
  requires transitive io.dataflow.core;
  requires transitive io.dataflow.monitor;
  requires transitive io.dataflow.io;
  requires transitive io.dataflow.reconfig;
  requires transitive io.dataflow.pipeline;
  requires transitive org.junit.jupiter.api;
  requires transitive org.opentest4j;
  requires transitive org.assertj.core;

  exports io.dataflow.testkit;
}
