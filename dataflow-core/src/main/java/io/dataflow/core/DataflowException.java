package io.dataflow.core;

/**
 * The base of every error a user of the library can cause: a bad specification, trace,
 * request or value, or a runtime error in a tick. The message is one line that says what and
 * where ({@code spec.dsrv:3:9: unknown stream 'y'}).
 */
public class DataflowException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An error with a message. */
  public DataflowException(String message) {
    super(message);
  }

  /** An error with a message and a cause. */
  public DataflowException(String message, Throwable cause) {
    super(message, cause);
  }

  /** The message of an error, or its class name when it has none (for one-line reports). */
  public static String describe(Throwable e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
