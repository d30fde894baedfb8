/**
 * The core of dataflow: values, ticks, rows, the clock, the runtime handle and its reports
 * ({@code io.dataflow.core}); what an integration implements ({@code io.dataflow.core.spi}).
 * The owner loop and its machinery ({@code io.dataflow.core.internal}) are exported only to
 * the sibling modules that assemble or step a runtime.
 */
module io.dataflow.core {
  requires org.jctools.core;
  // JCTools' queues use sun.misc.Unsafe, which lives there on the module path.
  requires jdk.unsupported;
  requires org.slf4j;

  exports io.dataflow.core;
  exports io.dataflow.core.spi;
  exports io.dataflow.core.snapshot;
  exports io.dataflow.core.internal to
      io.dataflow.io, io.dataflow.reconfig, io.dataflow.pipeline, io.dataflow.testkit,
      io.dataflow.runs;
}
