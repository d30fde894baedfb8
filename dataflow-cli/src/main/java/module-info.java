/**
 * The command line {@code bin/dataflow} (an application: it exports nothing). picocli reads
 * the annotated command classes reflectively, so the package is open to it.
 */
module io.dataflow.cli {
  requires io.dataflow.reconfig;
  requires io.dataflow.pipeline;
  requires io.dataflow.mqtt;
  requires io.dataflow.kafka;
  requires io.dataflow.runs;
  requires info.picocli;

  opens io.dataflow.cli to info.picocli;
}
