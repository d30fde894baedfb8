/**
 * Sources, sinks and codecs: trace files, JSON Lines, in-memory sources, text and JSON Lines
 * writers ({@code io.dataflow.io}). The pipeline sessions and the JSON5 reader
 * ({@code io.dataflow.io.internal}) are exported only to the modules that assemble a runtime.
 */
module io.dataflow.io {
  requires transitive io.dataflow.core;
  requires com.fasterxml.jackson.core;
  requires com.fasterxml.jackson.databind;
  requires org.slf4j;

  exports io.dataflow.io;
  exports io.dataflow.io.internal to io.dataflow.reconfig, io.dataflow.pipeline, io.dataflow.testkit,
      io.dataflow.mqtt;
}
