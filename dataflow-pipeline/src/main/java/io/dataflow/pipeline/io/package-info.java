/**
 * Shipped sources, sinks and checkpointers of the keyed pipeline: in-memory and JSON Lines
 * partitioned sources, text, JSON Lines and callback sinks, in-memory and file checkpointers.
 * Transports with their own dependencies (Kafka, MQTT) live in their own modules.
 */
package io.dataflow.pipeline.io;
