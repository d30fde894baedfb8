/**
 * Mechanisms of the Kafka integrations, not an API: the record codecs (JSON Lines ticks,
 * output lines, acknowledgement lines), the encoding of a lane's and a key's stored state, and
 * the per-key revision history of the Kafka Streams processor.
 */
package io.dataflow.kafka.internal;
