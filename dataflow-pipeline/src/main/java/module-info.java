/**
 * The keyed pipeline: {@code DataflowPipeline}, its builder, options, status, acknowledgement
 * and exit report ({@code io.dataflow.pipeline}); what an integration implements
 * ({@code io.dataflow.pipeline.spi}); shipped sources, sinks and checkpointers
 * ({@code io.dataflow.pipeline.io}). The controller and driver agents
 * ({@code io.dataflow.pipeline.internal}) are exported only to the testkit, which steps them,
 * and to the Kafka module, whose source completes a revocation inside the consumer's rebalance
 * callback ({@code SynchronousRevocation}).
 */
module io.dataflow.pipeline {
  requires transitive io.dataflow.core;
  requires transitive io.dataflow.monitor;
  requires transitive io.dataflow.io;
  requires transitive io.dataflow.reconfig;
  requires org.jctools.core;
  requires com.fasterxml.jackson.core;
  requires com.fasterxml.jackson.databind;
  requires org.slf4j;
  requires static micrometer.core;

  exports io.dataflow.pipeline;
  exports io.dataflow.pipeline.spi;
  exports io.dataflow.pipeline.io;
  exports io.dataflow.pipeline.micrometer;
  exports io.dataflow.pipeline.internal to io.dataflow.testkit, io.dataflow.kafka;
}
