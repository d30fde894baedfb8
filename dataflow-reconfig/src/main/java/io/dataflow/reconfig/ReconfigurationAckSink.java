package io.dataflow.reconfig;

/**
 * Receives acknowledgements on the owner thread, as the last step of a cutover.
 *
 * <p>Thread-safety: called on the owner thread; must not block for long. Throwing fails the
 * run (everything before the acknowledgement stays applied).
 */
@FunctionalInterface
public interface ReconfigurationAckSink {
  /** Delivers one acknowledgement. */
  void deliver(ReconfigurationAck ack) throws Exception;
}
