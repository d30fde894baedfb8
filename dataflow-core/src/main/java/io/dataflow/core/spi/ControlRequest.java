package io.dataflow.core.spi;

/**
 * A control item: travels in the ingress queue in the same order as data, so it is a barrier
 * (every batch admitted before it is evaluated before it takes effect). The runtime hands it to
 * its control handler; a reconfiguration request is the main kind.
 *
 * <p>Thread-safety: implementations are immutable.
 */
public interface ControlRequest {
  /** A short description for logs and errors. */
  String describe();
}
