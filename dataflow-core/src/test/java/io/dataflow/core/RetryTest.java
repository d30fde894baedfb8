package io.dataflow.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * {@link Backoff}'s attempt count and {@link Retry} on the system clock: the cases that need no
 * manual clock (no wait happens, or a wait of an hour that only a cancel can end). The waits on
 * a manual clock are in the testkit's {@code RetryOnManualClockTest}.
 */
class RetryTest {
  private static final Duration MS = Duration.ofMillis(1);

  @Test
  void aBackoffOfZeroOrNegativeAttemptsMeansOneAttempt() {
    for (int n : new int[] {0, -1, Integer.MIN_VALUE}) {
      Backoff b = new Backoff(MS, MS, 2.0, n);
      assertThat(b.maxAttempts()).as("maxAttempts %d", n).isEqualTo(1);
      assertThat(b).isEqualTo(new Backoff(MS, MS, 2.0, 1));
    }
    assertThat(new Backoff(MS, MS, 2.0, 3).maxAttempts()).isEqualTo(3);
    assertThatThrownBy(() -> new Backoff(MS, MS, 0.5, 3))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aBackoffOfZeroAttemptsMakesExactlyOneCallAndNoWait() {
    AtomicInteger calls = new AtomicInteger();
    // An hour between attempts; should a second attempt be due, the signal cancels its wait at
    // once (the retry then says it was cancelled), so the test never waits.
    Backoff once = new Backoff(Duration.ofHours(1), Duration.ofHours(1), 2.0, 0);
    Retry<String> retry = new Retry<>(once, SystemClock.INSTANCE, o -> RetryVerdict.RETRY);
    assertThatThrownBy(() -> retry.run(n -> {
      calls.incrementAndGet();
      throw new RetryableException("busy");
    }, () -> calls.get() > 0))
        .isInstanceOfSatisfying(RetryFailedException.class, e -> {
          assertThat(e.attempts()).isEqualTo(1);
          assertThat(e.cancelled()).isFalse();
        })
        .hasMessage("gave up after 1 attempt: attempt 1: busy");
    assertThat(calls).hasValue(1);
  }

  @Test
  void aCancelFromAnotherThreadEndsAWaitOnTheSystemClock() throws Exception {
    Backoff hourly = new Backoff(Duration.ofHours(1), Duration.ofHours(1), 2.0, 3);
    AtomicBoolean cancel = new AtomicBoolean();
    AtomicInteger calls = new AtomicInteger();
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    CountDownLatch attempted = new CountDownLatch(1);
    Thread worker = new Thread(() -> {
      Retry<Void> retry = new Retry<>(hourly, SystemClock.INSTANCE,
          Retry.retryOn(RetryableException.class));
      try {
        retry.run(n -> {
          calls.incrementAndGet();
          attempted.countDown();
          throw new RetryableException("busy");
        }, cancel::get);
      } catch (Throwable e) {
        thrown.set(e);
      }
    }, "retry-worker");
    worker.setDaemon(true); // a wait that missed the cancel cannot keep the JVM alive
    worker.start();
    try {
      assertThat(attempted.await(10, TimeUnit.SECONDS)).isTrue();
      long start = SystemClock.INSTANCE.nanoTime();
      cancel.set(true);
      worker.join(10_000);
      assertThat(worker.isAlive()).as("the wait ended on cancel").isFalse();
      assertThat(SystemClock.INSTANCE.nanoTime() - start)
          .isLessThan(Duration.ofSeconds(10).toNanos());
    } finally {
      cancel.set(true);
      LockSupport.unpark(worker);
      worker.join(10_000);
    }
    assertThat(calls).hasValue(1);
    assertThat(thrown.get()).isInstanceOfSatisfying(RetryFailedException.class, e -> {
      assertThat(e.cancelled()).isTrue();
      assertThat(e.attempts()).isEqualTo(1);
      assertThat(e).hasMessage("cancelled after 1 attempt: attempt 1: busy");
      assertThat(e.getCause()).hasMessage("busy");
    });
  }

  @Test
  void anInterruptEndsAWaitOnTheSystemClockAsACancelAndKeepsTheInterruptStatus()
      throws Exception {
    Backoff hourly = new Backoff(Duration.ofHours(1), Duration.ofHours(1), 2.0, 3);
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    AtomicBoolean stillInterrupted = new AtomicBoolean();
    CountDownLatch attempted = new CountDownLatch(1);
    Thread worker = new Thread(() -> {
      Retry<Void> retry = new Retry<>(hourly, SystemClock.INSTANCE, o -> RetryVerdict.RETRY);
      try {
        retry.run(n -> {
          attempted.countDown();
          return null;
        }, () -> false);
      } catch (Throwable e) {
        thrown.set(e);
      }
      stillInterrupted.set(Thread.currentThread().isInterrupted());
    }, "retry-worker");
    worker.setDaemon(true); // a wait that missed the cancel cannot keep the JVM alive
    worker.start();
    try {
      assertThat(attempted.await(10, TimeUnit.SECONDS)).isTrue();
      worker.interrupt();
      worker.join(10_000);
      assertThat(worker.isAlive()).as("the wait ended on interrupt").isFalse();
    } finally {
      worker.interrupt();
      worker.join(10_000);
    }
    assertThat(stillInterrupted).isTrue();
    assertThat(thrown.get()).isInstanceOfSatisfying(RetryFailedException.class, e -> {
      assertThat(e.cancelled()).isTrue();
      assertThat(e.attempts()).isEqualTo(1);
      // The attempt returned (a poll that is not ready yet): no cause, the value is listed.
      assertThat(e).hasMessage("cancelled after 1 attempt: attempt 1: returned null")
          .hasNoCause();
    });
  }

  @Test
  void aFailureTheStopFunctionDoesNotRetryPassesOnUnchanged() {
    IOException fatal = new IOException("disk full");
    AtomicInteger calls = new AtomicInteger();
    Retry<Void> retry = new Retry<>(Backoff.DEFAULT, SystemClock.INSTANCE,
        Retry.retryOn(RetryableException.class));
    assertThatThrownBy(() -> retry.run(n -> {
      calls.incrementAndGet();
      throw fatal;
    }, () -> false)).isSameAs(fatal);
    assertThat(calls).hasValue(1);
  }

  @Test
  void aRetryCancelledBeforeItsFirstAttemptMakesNoCallAndSaysSo() {
    AtomicInteger calls = new AtomicInteger();
    Retry<Void> retry = new Retry<>(Backoff.DEFAULT, SystemClock.INSTANCE,
        Retry.retryOn(RetryableException.class));
    assertThatThrownBy(() -> retry.run(n -> {
      calls.incrementAndGet();
      return null;
    }, () -> true))
        .isInstanceOfSatisfying(RetryFailedException.class, e -> {
          assertThat(e.cancelled()).isTrue();
          assertThat(e.attempts()).isZero();
        })
        .hasMessage("cancelled after 0 attempts");
    assertThat(calls).hasValue(0);
  }
}
