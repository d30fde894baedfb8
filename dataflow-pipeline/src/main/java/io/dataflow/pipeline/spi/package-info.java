/**
 * What an integration implements to plug into the keyed pipeline: a {@link
 * io.dataflow.pipeline.spi.PartitionedSource} of {@link io.dataflow.pipeline.spi.SourceRecord}s,
 * a {@link io.dataflow.pipeline.spi.KeyedSink} that acknowledges batches asynchronously, and a
 * {@link io.dataflow.pipeline.spi.Checkpointer} that persists positions with the keys' state.
 * The shipped implementations are in {@code io.dataflow.pipeline.io}; the runtime is not here.
 */
package io.dataflow.pipeline.spi;
