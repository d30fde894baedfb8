package io.dataflow.core;

import java.io.IOException;

/**
 * A {@link Retry} that ended without success: its attempts ran out, a stop function said
 * {@link RetryVerdict#failed(String) failed}, or it was cancelled. The message names how it
 * ended and how many attempts were made, then lists them ({@code gave up after 3 attempts:
 * attempt 1: ...; attempt 2: ...; attempt 3: ...}); the cause is the last attempt's failure
 * (none when the last attempt returned a value), and the earlier failures are attached as
 * suppressed.
 */
public class RetryFailedException extends IOException {
  private static final long serialVersionUID = 1L;

  private final int attempts;
  private final boolean cancelled;

  /**
   * A failed retry; {@link Retry} sets the cause (the last attempt's failure) with
   * {@link #initCause(Throwable)}.
   *
   * @param attempts the number of attempts made, the first included
   * @param cancelled whether the retry ended because it was cancelled
   */
  RetryFailedException(String message, int attempts, boolean cancelled) {
    super(message);
    this.attempts = attempts;
    this.cancelled = cancelled;
  }

  /** The number of attempts made, the first included (0 when cancelled before the first). */
  public int attempts() {
    return attempts;
  }

  /** True when the retry ended because it was cancelled (during a wait or before an attempt). */
  public boolean cancelled() {
    return cancelled;
  }
}
