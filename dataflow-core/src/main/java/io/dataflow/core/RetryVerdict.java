package io.dataflow.core;

import java.util.Objects;

/**
 * What a {@link Retry}'s stop function decides about one attempt: {@link #RETRY} (try again
 * after the backoff, if attempts are left), {@link #SUCCEEDED} (stop, the attempt's value is
 * the result) or {@link #failed(String) failed} (stop now, with a context that goes into the
 * thrown {@link RetryFailedException}'s message).
 *
 * <p>Thread-safety: immutable.
 */
public final class RetryVerdict {
  /** The three verdicts. */
  public enum Kind {
    /** Try again after the backoff; when no attempt is left, the retry gives up. */
    RETRY,
    /** Stop: the attempt succeeded (its value, possibly null, is the result). */
    SUCCEEDED,
    /** Stop: the attempt failed for good; its {@link #context()} explains why. */
    FAILED
  }

  /** Try again. */
  public static final RetryVerdict RETRY = new RetryVerdict(Kind.RETRY, null);

  /** Stop with the attempt's value. */
  public static final RetryVerdict SUCCEEDED = new RetryVerdict(Kind.SUCCEEDED, null);

  private final Kind kind;
  private final String context;

  private RetryVerdict(Kind kind, String context) {
    this.kind = kind;
    this.context = context;
  }

  /**
   * Stop now: the retry fails with {@code context} in the message (say why the failure is not
   * worth retrying: {@code "rejected by the destination (403)"}).
   */
  public static RetryVerdict failed(String context) {
    return new RetryVerdict(Kind.FAILED, Objects.requireNonNull(context, "context"));
  }

  /** Which verdict this is. */
  public Kind kind() {
    return kind;
  }

  /** The context of a {@link Kind#FAILED} verdict; null for the others. */
  public String context() {
    return context;
  }

  @Override
  public String toString() {
    return context == null ? kind.name() : kind + "(" + context + ")";
  }
}
