package io.dataflow.pipeline;

import io.dataflow.core.Clock;
import io.dataflow.reconfig.ReconfigurationRequest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

/**
 * A keyed pipeline: one logical monitor per key of one specification, spread over driver
 * threads by source partition (lane), fed by a controller thread that owns the
 * {@link io.dataflow.pipeline.spi.PartitionedSource} and commits a partition's position only
 * once every output before it was acknowledged by the sink (at-least-once: a crash replays,
 * outputs may repeat, never go missing). See docs/pipeline.md.
 *
 * <pre>{@code
 * DataflowPipeline pipeline = DataflowPipeline.builder()
 *     .specification("counter.dsrv", "in x: Int\nout n: Int\nn = default(n[1], 0) + 1")
 *     .source(InMemoryPartitionedSource.of(records))
 *     .sink(sink)
 *     .build();
 * PipelineExitReport report = pipeline.run();
 * }</pre>
 *
 * <p>Every timeout is measured on the pipeline's {@link Clock}. Thread-safety: every method is
 * safe from any thread.
 */
public interface DataflowPipeline extends AutoCloseable {
  /** A builder. */
  static DataflowPipelineBuilder builder() {
    return new DataflowPipelineBuilder();
  }

  /** Starts the controller and the driver threads. */
  void start();

  /**
   * Starts the pipeline (unless started) and waits, without a bound, for it to end: a bounded
   * source's end, {@link #shutdown}, {@link #cancel} or a fatal error.
   */
  PipelineExitReport run() throws InterruptedException;

  /**
   * Waits up to {@code timeout} for the pipeline to end.
   *
   * @throws TimeoutException when it has not ended in time
   */
  PipelineExitReport awaitTermination(Duration timeout)
      throws InterruptedException, TimeoutException;

  /**
   * Stops on one deadline: no more polling, every driver evaluates what it was handed, flushes
   * and checkpoints its lanes, the sink drains under what is left of {@code timeout} (abandoned
   * loudly when late), then the final commit. Returns at once.
   */
  void shutdown(Duration timeout);

  /** Cancels: records not yet evaluated are not; the outcome is {@code CANCELLED}. */
  void cancel(String reason);

  /**
   * Replaces the specification of every key: planned once, applied by every driver at the same
   * position of every lane, acknowledged once every driver applied it. A refused request
   * completes exceptionally with a {@code ReconfigurationException} and changes nothing.
   */
  CompletableFuture<PipelineAck> reconfigure(ReconfigurationRequest request);

  /** The latest status. */
  PipelineStatus status();

  /** True when partitions are assigned and the sink's probe passes. */
  boolean isReady();

  /** The exit report, or null while running. */
  PipelineExitReport exitReport();

  /** The clock. */
  Clock clock();

  /** Shuts down with the close timeout and waits for the end (bounded). */
  @Override
  void close();
}
