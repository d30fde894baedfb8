package io.dataflow.pipeline.spi;

import java.util.List;

/**
 * Where a pipeline's outputs go. {@link #send} is called from the driver threads, possibly
 * concurrently, and must not block for long: it hands the batch on and acknowledges later.
 * A source position is committed only once every output before it was acknowledged.
 */
public interface KeyedSink extends AutoCloseable {
  /**
   * Hands on a batch of outputs (never empty); {@code ack} is called exactly once, from any
   * thread, when the batch was written or failed.
   */
  void send(List<KeyedOutput> outputs, Acknowledgement ack);

  /** Readiness: true when the destination can take output now (the default). */
  default boolean probe() {
    return true;
  }

  /**
   * Flushes what was sent and releases the destination, acknowledging every batch sent; the
   * pipeline calls it once, after the drivers stopped, on a thread of its own so that its
   * shutdown deadline holds even if this blocks.
   */
  @Override
  void close() throws Exception;
}
