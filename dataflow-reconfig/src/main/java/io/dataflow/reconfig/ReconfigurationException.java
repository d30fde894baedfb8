package io.dataflow.reconfig;

import io.dataflow.core.DataflowException;

/** A request that failed to plan (the replacement does not compile, a binding is invalid). */
public final class ReconfigurationException extends DataflowException {
  private static final long serialVersionUID = 1L;

  /** A planning failure. */
  public ReconfigurationException(String message, Throwable cause) {
    super(message, cause);
  }

  /** A planning failure. */
  public ReconfigurationException(String message) {
    super(message);
  }
}
