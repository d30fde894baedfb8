package io.dataflow.core;

import java.time.Duration;
import java.util.Objects;

/**
 * Capped exponential backoff: after attempt {@code n} (from 1) fails, the next one waits
 * {@code min(max, initial * multiplier^(n-1))}; at most {@code maxAttempts} attempts in all.
 *
 * <p>{@code maxAttempts} counts every call, the first one included: 1 means a single call and
 * no retry, 5 means the first call and up to 4 retries. A count below 1 (0 or negative) means
 * one attempt: a backoff never makes zero calls, and {@link #maxAttempts()} then reads 1.
 * {@link Retry} runs the attempts.
 *
 * @param initial the first delay
 * @param max the cap
 * @param multiplier the growth factor (at least 1)
 * @param maxAttempts the number of attempts, the first call included; below 1 means 1
 */
public record Backoff(Duration initial, Duration max, double multiplier, int maxAttempts) {
  /** 5 attempts: 10 ms, 20 ms, 40 ms, 80 ms between them, capped at 1 s. */
  public static final Backoff DEFAULT =
      new Backoff(Duration.ofMillis(10), Duration.ofSeconds(1), 2.0, 5);

  /** Validates the backoff; a {@code maxAttempts} below 1 becomes 1 (a single call). */
  public Backoff {
    Objects.requireNonNull(initial, "initial");
    Objects.requireNonNull(max, "max");
    if (initial.isNegative() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("need 0 <= initial <= max: " + initial + ", " + max);
    }
    if (multiplier < 1.0) {
      throw new IllegalArgumentException("multiplier must be at least 1: " + multiplier);
    }
    if (maxAttempts < 1) {
      maxAttempts = 1; // fewer than one attempt means one: the first call always happens
    }
  }

  /** The delay before attempt {@code attempt + 1}, after {@code attempt} failures. */
  public long delayNanos(int attempt) {
    double d = initial.toNanos() * Math.pow(multiplier, Math.max(0, attempt - 1));
    return (long) Math.min(d, (double) max.toNanos());
  }
}
