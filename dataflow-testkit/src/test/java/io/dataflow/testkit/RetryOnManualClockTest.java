package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.Backoff;
import io.dataflow.core.spi.OutputWriter;
import io.dataflow.core.Retry;
import io.dataflow.core.RetryFailedException;
import io.dataflow.core.RetryVerdict;
import io.dataflow.core.RetryableException;
import io.dataflow.core.internal.RetryingOutputWriter;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.internal.TimerQueue;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * {@link Retry} on a {@link ManualClock}: the count includes the first call, the stop
 * function's verdict decides each attempt, the waits between attempts are exactly the
 * backoff's on the clock, and a cancel ends a wait early and says so. Nothing sleeps: a wait
 * on the manual clock moves it, firing the waiting thread's timers on the way.
 */
class RetryOnManualClockTest {
  /** 10 ms, 20 ms, 40 ms, 40 ms, ... between attempts. */
  private static Backoff backoff(int maxAttempts) {
    return new Backoff(Duration.ofMillis(10), Duration.ofMillis(40), 2.0, maxAttempts);
  }

  private final ManualClock clock = new ManualClock();
  /** The clock time of every call, in ms. */
  private final List<Long> calls = new ArrayList<>();

  private void called() {
    calls.add(clock.elapsed().toMillis());
  }

  @Test
  void zeroOrNegativeMaxAttemptsMakeExactlyOneCall() {
    for (int n : new int[] {0, -1, -100}) {
      calls.clear();
      Retry<String> retry = new Retry<>(backoff(n), clock, o -> RetryVerdict.RETRY);
      assertThatThrownBy(() -> retry.run(a -> {
        called();
        throw new RetryableException("busy");
      }, () -> false))
          .as("maxAttempts %d", n)
          .isInstanceOfSatisfying(RetryFailedException.class,
              e -> assertThat(e.attempts()).isEqualTo(1))
          .hasMessage("gave up after 1 attempt: attempt 1: busy");
      assertThat(calls).as("maxAttempts %d", n).containsExactly(0L);
    }
    assertThat(clock.elapsed()).as("no wait after the only attempt").isZero();
  }

  @Test
  void succeededStopsAtOnceWithTheAttemptsValue() throws IOException {
    List<Integer> judged = new ArrayList<>();
    Retry<String> retry = new Retry<>(backoff(5), clock, o -> {
      judged.add(o.attempt());
      return o.failed() ? RetryVerdict.RETRY : RetryVerdict.SUCCEEDED;
    });
    String result = retry.run(a -> {
      called();
      if (a < 3) {
        throw new RetryableException("busy " + a);
      }
      return "ok on " + a;
    }, () -> false);
    assertThat(result).isEqualTo("ok on 3");
    assertThat(judged).containsExactly(1, 2, 3);
    assertThat(calls).containsExactly(0L, 10L, 30L);
    assertThat(clock.elapsed()).isEqualTo(Duration.ofMillis(30));
    // A success starts the next sequence afresh.
    assertThat(retry.attempts()).isZero();
    assertThat(retry.history()).isEmpty();
  }

  @Test
  void theVerdictDecidesNotTheKindOfOutcome() throws IOException {
    // SUCCEEDED for a failure (the row was already there): stop at once, no retry.
    Retry<String> idempotent = new Retry<>(backoff(5), clock, o -> RetryVerdict.SUCCEEDED);
    assertThat(idempotent.run(a -> {
      called();
      throw new RetryableException("already exists");
    }, () -> false)).isNull();
    assertThat(calls).containsExactly(0L);

    // RETRY for a value (a poll that is not ready yet): retried like a failure.
    calls.clear();
    Retry<Integer> poll = new Retry<>(backoff(5), clock,
        o -> o.value() < 2 ? RetryVerdict.RETRY : RetryVerdict.SUCCEEDED);
    assertThat(poll.run(a -> {
      called();
      return a - 1;
    }, () -> false)).isEqualTo(2);
    assertThat(calls).containsExactly(0L, 10L, 30L);
  }

  @Test
  void failedStopsAtOnceWithItsContextInTheMessage() {
    IOException busy = new RetryableException("busy");
    IOException forbidden = new IOException("forbidden");
    Retry<Void> retry = new Retry<>(backoff(5), clock,
        o -> o.failure() instanceof RetryableException ? RetryVerdict.RETRY
            : RetryVerdict.failed("rejected by the destination (403)"));
    assertThatThrownBy(() -> retry.run(a -> {
      called();
      throw a == 1 ? busy : forbidden;
    }, () -> false))
        .isInstanceOfSatisfying(RetryFailedException.class, e -> {
          assertThat(e.attempts()).isEqualTo(2);
          assertThat(e.cancelled()).isFalse();
          assertThat(e.getSuppressed()).containsExactly(busy);
        })
        .hasMessage("failed after 2 attempts (rejected by the destination (403)): "
            + "attempt 1: busy; attempt 2: forbidden")
        .hasCause(forbidden);
    assertThat(calls).containsExactly(0L, 10L);
  }

  @Test
  void aFailureTheStopFunctionThrowsOnPassesUnchangedAndEndsTheSequence() throws IOException {
    IOException fatal = new IOException("disk full");
    Retry<Integer> retry = new Retry<>(backoff(5), clock,
        Retry.retryOn(RetryableException.class));
    assertThatThrownBy(() -> retry.run(a -> {
      called();
      throw a == 1 ? new RetryableException("busy") : fatal;
    }, () -> false)).isSameAs(fatal);
    assertThat(calls).containsExactly(0L, 10L);
    // The next run starts afresh: attempt 1, at once.
    assertThat(retry.run(a -> {
      called();
      return a;
    }, () -> false)).isEqualTo(1);
    assertThat(calls).containsExactly(0L, 10L, 10L);
  }

  @Test
  void retryGoesOnUntilTheAttemptsRunOutThenGivesUpWithTheLastCause() {
    List<IOException> thrown = new ArrayList<>();
    Retry<Void> retry = new Retry<>(backoff(4), clock,
        Retry.retryOn(RetryableException.class));
    assertThatThrownBy(() -> retry.run(a -> {
      called();
      IOException e = new RetryableException("busy " + a);
      thrown.add(e);
      throw e;
    }, () -> false))
        .isInstanceOfSatisfying(RetryFailedException.class, e -> {
          assertThat(e.attempts()).isEqualTo(4);
          assertThat(e.getCause()).isSameAs(thrown.get(3));
          assertThat(e.getSuppressed()).containsExactlyElementsOf(thrown.subList(0, 3));
        })
        .hasMessage("gave up after 4 attempts: attempt 1: busy 1; attempt 2: busy 2; "
            + "attempt 3: busy 3; attempt 4: busy 4");
    assertThat(calls).hasSize(4);
  }

  @Test
  void theWaitsBetweenAttemptsAreExactlyTheBackoffsOnTheClock() {
    Backoff b = backoff(6);
    Retry<Void> retry = new Retry<>(b, clock, Retry.retryOn(RetryableException.class));
    assertThatThrownBy(() -> retry.run(a -> {
      called();
      throw new RetryableException("busy");
    }, () -> false)).isInstanceOf(RetryFailedException.class);
    // 10, 20, 40 (the cap), 40, 40 ms between the six attempts; none after the last.
    assertThat(calls).containsExactly(0L, 10L, 30L, 70L, 110L, 150L);
    long total = 0;
    for (int n = 1; n < 6; n++) {
      total += b.delayNanos(n);
    }
    assertThat(clock.elapsed()).isEqualTo(Duration.ofNanos(total));
  }

  @Test
  void aCancelDuringAWaitEndsItBeforeTheDelayAndSaysSo() {
    TimerQueue timers = new TimerQueue();
    clock.attach(timers);
    AtomicBoolean cancel = new AtomicBoolean();
    // The first wait is 100 ms; the cancel comes 30 ms into it, from a timer on the clock.
    timers.schedule(clock.nanoTime() + Duration.ofMillis(30).toNanos(), () -> cancel.set(true));
    IOException busy = new RetryableException("busy");
    Retry<Void> retry = new Retry<>(
        new Backoff(Duration.ofMillis(100), Duration.ofMillis(100), 1.0, 5), clock,
        Retry.retryOn(RetryableException.class));
    assertThatThrownBy(() -> retry.run(a -> {
      called();
      throw busy;
    }, cancel::get))
        .isInstanceOfSatisfying(RetryFailedException.class, e -> {
          assertThat(e.cancelled()).isTrue();
          assertThat(e.attempts()).isEqualTo(1);
        })
        .hasMessage("cancelled after 1 attempt: attempt 1: busy")
        .hasCause(busy);
    assertThat(calls).containsExactly(0L);
    assertThat(clock.elapsed()).as("the wait ended at the cancel").isEqualTo(Duration.ofMillis(30));
    clock.detach(timers);
  }

  @Test
  void aWaitFiresOnlyTheTimersOfItsOwnThreadsQueues() throws Exception {
    TimerQueue other = new TimerQueue();
    List<String> fired = new ArrayList<>();
    Thread owner = new Thread(() -> clock.attach(other), "other-owner");
    owner.start();
    owner.join(10_000);
    assertThat(owner.isAlive()).isFalse();
    other.schedule(clock.nanoTime() + 5, () -> fired.add("other"));
    assertThat(clock.awaitUntil(clock.nanoTime() + Duration.ofMillis(10).toNanos(), () -> false))
        .isTrue();
    assertThat(clock.elapsed()).isEqualTo(Duration.ofMillis(10));
    assertThat(fired).as("left to its owner").isEmpty();
  }

  @Test
  void judgedAttemptsThenRunContinueOneSequence() throws IOException {
    // The owner loop's way (judge, then a timer) and the closing thread's (run) share a count.
    Retry<Void> retry = new Retry<>(backoff(5), clock, Retry.retryOn(RetryableException.class));
    assertThat(retry.judge(null, new RetryableException("busy 1"))).isTrue();
    assertThat(retry.delayNanos()).isEqualTo(Duration.ofMillis(10).toNanos());
    assertThat(retry.judge(null, new RetryableException("busy 2"))).isTrue();
    assertThat(retry.delayNanos()).isEqualTo(Duration.ofMillis(20).toNanos());
    List<Integer> numbers = new ArrayList<>();
    retry.run(a -> {
      called();
      numbers.add(a);
      return null;
    }, () -> false);
    assertThat(numbers).containsExactly(3);
    assertThat(calls).as("run waited the delay due after two attempts").containsExactly(20L);
  }

  @Test
  void aWriterClosingWithRowsAwaitingARetryWaitsTheBackoffOnTheClock() throws IOException {
    TimerQueue timers = new TimerQueue();
    clock.attach(timers);
    List<String> log = new ArrayList<>();
    OutputWriter flaky = new OutputWriter() {
      int feeds;

      @Override
      public void feed(long tick, RowLayout layout, Row row) throws IOException {
        feeds++;
        log.add("feed " + tick + " at " + clock.elapsed().toMillis());
        if (feeds <= 3) {
          throw new RetryableException("busy " + feeds);
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {
        log.add("close at " + clock.elapsed().toMillis());
      }
    };
    RetryingOutputWriter w = new RetryingOutputWriter("sink:flaky", flaky, backoff(5), clock,
        timers, 100);
    RowLayout layout = RowLayout.of("z");
    w.feed(0, layout, new Row(1)); // attempt 1 fails; attempt 2 is a timer at 10 ms
    w.feed(1, layout, new Row(1)); // queued behind
    clock.advance(Duration.ofMillis(10)); // attempt 2 fails; attempt 3 at 30 ms
    assertThat(w.attempts()).containsExactly("attempt 1: busy 1", "attempt 2: busy 2");
    w.stopTimers();
    w.close(); // attempt 3 at 30 ms fails, attempt 4 at 70 ms replays both rows
    assertThat(log).containsExactly("feed 0 at 0", "feed 0 at 10", "feed 0 at 30",
        "feed 0 at 70", "feed 1 at 70", "close at 70");
    assertThat(w.attempts()).isEmpty();
    clock.detach(timers);
  }

  @Test
  void aWriterWithZeroAttemptsGivesUpOnTheFirstRetryableFailure() {
    TimerQueue timers = new TimerQueue();
    OutputWriter busy = new OutputWriter() {
      @Override
      public void feed(long tick, RowLayout layout, Row row) throws IOException {
        throw new RetryableException("busy");
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    RetryingOutputWriter w = new RetryingOutputWriter("sink:busy", busy, backoff(0), clock,
        timers, 100);
    assertThatThrownBy(() -> w.feed(0, RowLayout.of("z"), new Row(1)))
        .isInstanceOf(RetryFailedException.class)
        .hasMessage("gave up after 1 attempt: attempt 1: busy");
    assertThat(timers.isEmpty()).as("no retry scheduled").isTrue();
  }
}
