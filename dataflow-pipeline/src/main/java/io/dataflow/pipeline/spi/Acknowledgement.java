package io.dataflow.pipeline.spi;

/**
 * How a sink reports a batch's fate: exactly once, from any thread, either way. A second
 * report of the same batch is ignored and warned about. A batch never acknowledged keeps its
 * records uncommitted: the shutdown deadline then reports them abandoned.
 */
public interface Acknowledgement {
  /** Every output of the batch was written. */
  void succeeded();

  /** The batch could not be written: fatal for the pipeline, nothing past it is committed. */
  void failed(Throwable error);
}
