/**
 * Kafka integrations: the keyed pipeline on Kafka ({@code KafkaSource}, {@code KafkaSink}, the
 * state checkpointer and the control topic) and the Kafka Streams {@code DataflowProcessor}
 * ({@code io.dataflow.kafka}); their mechanisms ({@code io.dataflow.kafka.internal}) are not
 * exported.
 */
module io.dataflow.kafka {
  requires transitive io.dataflow.pipeline;
  requires transitive kafka.clients;
  requires transitive kafka.streams;
  requires com.fasterxml.jackson.core;
  requires com.fasterxml.jackson.databind;
  requires org.slf4j;

  exports io.dataflow.kafka;
}
