package io.dataflow.runs;

import io.dataflow.core.DataflowException;

/**
 * An error of a durable run that the caller can act on: the message says what and which run
 * ({@code run 7f3c...: ...}). Subclasses name the cases a caller tells apart.
 */
public class RunException extends DataflowException {
  private static final long serialVersionUID = 1L;

  /** An error with a message. */
  public RunException(String message) {
    super(message);
  }

  /** An error with a message and a cause. */
  public RunException(String message, Throwable cause) {
    super(message, cause);
  }
}
