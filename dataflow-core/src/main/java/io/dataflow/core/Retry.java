package io.dataflow.core;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * The library's one retry loop: runs an attempt, asks a stop function for a
 * {@link RetryVerdict} on its outcome, and waits the {@link Backoff} on the {@link Clock}
 * between attempts.
 *
 * <ul>
 *   <li>Attempts are counted from 1 and the count includes the first call: with
 *       {@code maxAttempts} 3 there is the first call and at most two retries; a backoff of 0
 *       or fewer attempts makes exactly one call.
 *   <li>Every attempt's outcome (its value, or the {@link IOException} it threw) goes to the
 *       stop function. {@link RetryVerdict#SUCCEEDED} ends the retry with the attempt's value;
 *       {@link RetryVerdict#failed(String)} ends it at once with a {@link RetryFailedException}
 *       whose message carries the verdict's context; {@link RetryVerdict#RETRY} waits
 *       {@code backoff.delayNanos(n)} after attempt {@code n} and tries again, or, after the
 *       last attempt, gives up with a {@link RetryFailedException} ({@code gave up after 3
 *       attempts: attempt 1: ...}). The stop function may also throw, to end the retry with an
 *       exception of its own, unchanged (a failure that is not retryable passes on as is). An
 *       unchecked exception from an attempt or the stop function ends the retry at once,
 *       unchanged, and is not counted.
 *   <li>The wait between attempts is {@link Clock#awaitUntil}: on a manual clock the time
 *       moves by exactly the backoff's delays. The caller's cancel signal ends a wait early;
 *       a cancelled retry is never silent: it throws a {@link RetryFailedException} that says
 *       it was cancelled and after how many attempts ({@link RetryFailedException#cancelled()}).
 *       An interrupt of the waiting thread cancels too (the interrupt status is kept).
 * </ul>
 *
 * <p>A {@link Retry} is one sequence of attempts; it starts afresh after it ended (succeeded,
 * failed or was cancelled). It is driven in one of two ways, or both in turn:
 * {@link #run(Attempt, BooleanSupplier)} blocks the calling thread through the whole sequence;
 * a caller that must not block (the runtime's owner loop) makes each attempt itself, reports it
 * to {@link #judge(Object, IOException)}, and schedules the next attempt on its timers after
 * {@link #delayNanos()}. A later {@code run} continues a sequence begun that way: it first
 * waits the delay due after the attempts already made.
 *
 * <pre>{@code
 * Retry<Receipt> retry = new Retry<>(backoff, clock, outcome -> {
 *   if (!outcome.failed()) return RetryVerdict.SUCCEEDED;
 *   if (outcome.failure() instanceof RetryableException) return RetryVerdict.RETRY;
 *   return RetryVerdict.failed("not retryable");
 * });
 * Receipt r = retry.run(attempt -> upload(batch), stopping::get);
 * }</pre>
 *
 * <p>Thread-safety: one thread at a time (the owner of the sequence).
 *
 * @param <T> the value of a successful attempt
 */
public final class Retry<T> {
  /** One attempt. */
  @FunctionalInterface
  public interface Attempt<T> {
    /**
     * Makes attempt number {@code attempt} (from 1).
     *
     * @throws IOException a failure, which the stop function judges
     */
    T call(int attempt) throws IOException;
  }

  /** Decides what an attempt's outcome means. */
  @FunctionalInterface
  public interface StopFunction<T> {
    /**
     * The verdict on one attempt's outcome.
     *
     * @throws IOException to end the retry with this exception as it is
     */
    RetryVerdict verdict(Outcome<? extends T> outcome) throws IOException;
  }

  /**
   * What one attempt did: returned {@code value} or threw {@code failure} (then the value is
   * null).
   *
   * @param attempt the attempt's number, from 1
   * @param value what the attempt returned
   * @param failure what the attempt threw, or null
   */
  public record Outcome<T>(int attempt, T value, IOException failure) {
    /** True when the attempt threw. */
    public boolean failed() {
      return failure != null;
    }
  }

  private final Backoff backoff;
  private final Clock clock;
  private final StopFunction<? super T> stop;
  private final List<String> history = new ArrayList<>();
  private final List<IOException> failures = new ArrayList<>();
  private int made;
  private boolean ended;

  /**
   * A retry with {@code backoff} on {@code clock}, judged by {@code stop}.
   *
   * @see #retryOn(Class)
   */
  public Retry(Backoff backoff, Clock clock, StopFunction<? super T> stop) {
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.stop = Objects.requireNonNull(stop, "stop");
  }

  /**
   * The usual stop function: {@link RetryVerdict#SUCCEEDED} when the attempt returned,
   * {@link RetryVerdict#RETRY} when it threw a {@code retryable}, and any other failure thrown
   * on unchanged.
   */
  public static <T> StopFunction<T> retryOn(Class<? extends IOException> retryable) {
    Objects.requireNonNull(retryable, "retryable");
    return outcome -> {
      if (!outcome.failed()) {
        return RetryVerdict.SUCCEEDED;
      }
      if (retryable.isInstance(outcome.failure())) {
        return RetryVerdict.RETRY;
      }
      throw outcome.failure();
    };
  }

  /**
   * Runs attempts until the stop function stops them or they run out, waiting the backoff on
   * the clock between them; blocks the calling thread (never call it on a runtime's owner
   * loop: use {@link #judge} and timers there).
   *
   * @param attempt the attempt
   * @param cancelled the caller's cancel signal, checked before every attempt and during every
   *     wait
   * @return the value of the attempt judged {@link RetryVerdict#SUCCEEDED}
   * @throws RetryFailedException when the attempts ran out, a verdict said failed, or the
   *     retry was cancelled
   * @throws IOException what the stop function threw
   */
  public T run(Attempt<? extends T> attempt, BooleanSupplier cancelled) throws IOException {
    Objects.requireNonNull(attempt, "attempt");
    Objects.requireNonNull(cancelled, "cancelled");
    startAfresh();
    while (true) {
      boolean go = made == 0
          ? !cancelled.getAsBoolean() && !Thread.currentThread().isInterrupted()
          : clock.awaitUntil(clock.nanoTime() + delayNanos(), cancelled);
      if (!go) {
        throw end(new RetryFailedException("cancelled after " + attempts(made) + summary(),
            made, true));
      }
      T value = null;
      IOException failure = null;
      try {
        value = attempt.call(made + 1);
      } catch (IOException e) {
        failure = e;
      } catch (RuntimeException | Error e) {
        ended = true; // not judged, not counted: passes on as it is
        throw e;
      }
      if (!judge(value, failure)) {
        return value;
      }
    }
  }

  /**
   * Reports an attempt the caller made itself (the next one, number {@link #attempts()} + 1)
   * and returns what the stop function decided. On {@code true}, make the next attempt after
   * {@link #delayNanos()}; on {@code false} the attempt succeeded and the retry is over.
   *
   * @param value what the attempt returned (null when it threw)
   * @param failure what the attempt threw, or null
   * @return true when another attempt is due, false when the retry succeeded
   * @throws RetryFailedException when the attempts ran out or the verdict said failed
   * @throws IOException what the stop function threw
   */
  public boolean judge(T value, IOException failure) throws IOException {
    startAfresh();
    int n = made + 1;
    RetryVerdict verdict;
    try {
      verdict = Objects.requireNonNull(stop.verdict(new Outcome<>(n, value, failure)),
          "the stop function's verdict");
    } catch (IOException | RuntimeException | Error e) {
      ended = true; // the stop function ended the retry with its own exception
      throw e;
    }
    if (verdict.kind() == RetryVerdict.Kind.SUCCEEDED) {
      ended = true;
      startAfresh(); // nothing to report: the next attempt begins a new sequence
      return false;
    }
    made = n;
    history.add("attempt " + n + ": "
        + (failure != null ? DataflowException.describe(failure) : "returned " + value));
    failures.add(failure);
    if (verdict.kind() == RetryVerdict.Kind.FAILED) {
      throw end(new RetryFailedException("failed after " + attempts(made) + " ("
          + verdict.context() + ")" + summary(), made, false));
    }
    if (made >= backoff.maxAttempts()) {
      throw end(new RetryFailedException("gave up after " + attempts(made) + summary(), made,
          false));
    }
    return true;
  }

  /** The wait due before the next attempt: the backoff's delay after {@link #attempts()}. */
  public long delayNanos() {
    return backoff.delayNanos(made);
  }

  /**
   * The unsuccessful attempts of the current sequence, or of the one that just failed; 0 after
   * a success, which starts the next sequence afresh.
   */
  public int attempts() {
    return made;
  }

  /**
   * The unsuccessful attempts of the current sequence, or of the one that just failed, as
   * {@code attempt n: reason}: what the failure messages list; empty after a success.
   */
  public List<String> history() {
    return List.copyOf(history);
  }

  private void startAfresh() {
    if (ended) {
      ended = false;
      made = 0;
      history.clear();
      failures.clear();
    }
  }

  /**
   * Ends the sequence with {@code e}: the last attempt's failure becomes its cause, the earlier
   * failures its suppressed exceptions.
   */
  private RetryFailedException end(RetryFailedException e) {
    ended = true;
    IOException last = failures.isEmpty() ? null : failures.get(failures.size() - 1);
    if (last != null) {
      e.initCause(last);
    }
    Set<Throwable> attached = Collections.newSetFromMap(new IdentityHashMap<>());
    attached.add(e);
    if (last != null) {
      attached.add(last);
    }
    for (IOException earlier : failures) {
      if (earlier != null && attached.add(earlier)) {
        e.addSuppressed(earlier);
      }
    }
    return e;
  }

  private String summary() {
    return history.isEmpty() ? "" : ": " + String.join("; ", history);
  }

  private static String attempts(int n) {
    return n == 1 ? "1 attempt" : n + " attempts";
  }
}
