/**
 * The keyed pipeline's API: {@link io.dataflow.pipeline.DataflowPipeline} (built by
 * {@link io.dataflow.pipeline.DataflowPipelineBuilder}), {@link io.dataflow.pipeline.PipelineOptions},
 * {@link io.dataflow.pipeline.PipelineStatus}, {@link io.dataflow.pipeline.PipelineAck} and
 * {@link io.dataflow.pipeline.PipelineExitReport}. What an integration implements is in
 * {@code spi}, the shipped sources, sinks and checkpointers in {@code io}; the controller and
 * driver threads are internal. See docs/pipeline.md.
 */
package io.dataflow.pipeline;
