package io.dataflow.reconfig;

import io.dataflow.core.FatalReason;

import io.dataflow.core.DataflowException;

/** A request that failed to plan (the replacement does not compile, a binding is invalid). */
public final class ReconfigurationException extends DataflowException
    implements FatalReason.Explained {
  private static final long serialVersionUID = 1L;

  /** A planning failure. */
  public ReconfigurationException(String message, Throwable cause) {
    super(message, cause);
  }

  /** A planning failure. */
  public ReconfigurationException(String message) {
    super(message);
  }

  /** A refused request: nothing changed, the run ends ({@link FatalReason.Kind#REQUEST}). */
  @Override
  public FatalReason fatalReason(String component) {
    return FatalReason.refusedRequest(component, getMessage());
  }
}
