package io.dataflow.core;

import java.io.IOException;

/**
 * A failure a sink declares worth retrying (a transient network error, a busy destination).
 * The runtime retries such a writer with {@link Backoff}; any other exception is fatal at once.
 */
public class RetryableException extends IOException {
  private static final long serialVersionUID = 1L;

  /** A retryable failure. */
  public RetryableException(String message) {
    super(message);
  }

  /** A retryable failure with a cause. */
  public RetryableException(String message, Throwable cause) {
    super(message, cause);
  }
}
