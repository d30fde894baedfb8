/**
 * Kafka for dataflow monitors, two ways (docs/kafka.md).
 *
 * <p>The keyed pipeline on Kafka: {@link io.dataflow.kafka.KafkaSource} (topic partitions are
 * lanes, the consumer lives on the controller thread, a revoked partition is stopped,
 * acknowledged and committed before the rebalance completes), {@link
 * io.dataflow.kafka.KafkaSink} (an idempotent producer whose send callbacks acknowledge), {@link
 * io.dataflow.kafka.KafkaCheckpointer} (lane state in a compacted topic, offsets in the
 * consumer group) and {@link io.dataflow.kafka.KafkaControl} (reconfiguration requests from a
 * control topic, acknowledgements to {@code <control>.ack}); {@link
 * io.dataflow.kafka.KafkaPipelines} assembles them.
 *
 * <p>Kafka Streams: {@link io.dataflow.kafka.DataflowProcessor}, a Processor API processor
 * whose per-key monitor state lives in a {@code KeyValueStore}, and {@link
 * io.dataflow.kafka.DataflowTopology}, which wires it with its stores and the control topic.
 *
 * <p>Not here: the pipeline runtime ({@code io.dataflow.pipeline}), the monitor
 * ({@code io.dataflow.monitor}); the small mechanisms of this module are in
 * {@code io.dataflow.kafka.internal}.
 */
package io.dataflow.kafka;
