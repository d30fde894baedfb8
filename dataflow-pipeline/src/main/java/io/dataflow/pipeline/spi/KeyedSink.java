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

  /**
   * Hands on a batch of outputs as columns: what the pipeline calls. The columns are the
   * sink's only until it reports {@code ack} (the pipeline then reuses them): read them before,
   * and copy what you keep. Otherwise the contract of {@link #send(List, Acknowledgement)}.
   * The default hands that method a list of {@link KeyedOutput}s made from the columns; a sink
   * that reads the columns in place ({@link KeyedOutputs#key}, {@link KeyedOutputs#bits}, ...)
   * overrides this and costs no object per output.
   */
  default void send(KeyedOutputs outputs, Acknowledgement ack) {
    send(List.copyOf(outputs), ack);
  }

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
