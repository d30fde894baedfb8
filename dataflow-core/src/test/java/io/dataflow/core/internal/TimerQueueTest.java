package io.dataflow.core.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Timers fire in deadline order, ties in scheduling order; periodic timers fire at most once per
 * {@link TimerQueue#fireDue} call. Times are compared as monotonic nanosecond values (only
 * differences count), so queues near {@link Long#MAX_VALUE} keep working across the wrap. Each test
 * asserts the exact log of fired events.
 */
class TimerQueueTest {
  private final TimerQueue timers = new TimerQueue();
  private final List<String> log = new ArrayList<>();

  private Runnable record(String name) {
    return () -> log.add(name);
  }

  @Test
  void isEmptyWithTheMaximumAsNextDeadline() {
    assertThat(timers.isEmpty()).isTrue();
    assertThat(timers.nextDeadline()).isEqualTo(Long.MAX_VALUE);
    assertThat(timers.fireDue(0)).isZero();
    assertThat(log).isEmpty();
  }

  @Test
  void firesDueTimersInDeadlineOrderWhateverTheSchedulingOrder() {
    timers.schedule(30, record("c@30"));
    timers.schedule(10, record("a@10"));
    timers.schedule(20, record("b@20"));
    timers.schedule(40, record("d@40"));
    assertThat(timers.nextDeadline()).isEqualTo(10);

    assertThat(timers.fireDue(30)).isEqualTo(3);

    assertThat(log).containsExactly("a@10", "b@20", "c@30");
    assertThat(timers.nextDeadline()).isEqualTo(40);
  }

  @Test
  void firesTimersWithEqualDeadlinesInSchedulingOrder() {
    for (String name : List.of("first", "second", "third", "fourth", "fifth")) {
      timers.schedule(5, record(name));
    }
    timers.fireDue(5);
    assertThat(log).containsExactly("first", "second", "third", "fourth", "fifth");
  }

  @Test
  void firesNothingBeforeTheDeadlineAndFiresAtExactlyTheDeadline() {
    TimerQueue.Timer t = timers.schedule(100, record("t"));
    assertThat(timers.fireDue(99)).isZero();
    assertThat(t.isActive()).isTrue();
    assertThat(timers.fireDue(100)).isEqualTo(1);
    assertThat(log).containsExactly("t");
    assertThat(t.isActive()).as("a fired one-shot timer is inactive").isFalse();
    assertThat(timers.isEmpty()).isTrue();
    assertThat(timers.fireDue(1_000)).isZero();
  }

  @Test
  void firesAPeriodicTimerOncePerPeriod() {
    TimerQueue.Timer t = timers.schedulePeriodic(10, 10, record("tick"));
    assertThat(timers.fireDue(9)).isZero();
    assertThat(timers.fireDue(10)).isEqualTo(1);
    assertThat(t.deadline()).isEqualTo(20);
    assertThat(timers.fireDue(19)).isZero();
    assertThat(timers.fireDue(25)).isEqualTo(1);
    assertThat(t.deadline()).as("rescheduled from its due time, not from now").isEqualTo(30);
    assertThat(log).containsExactly("tick", "tick");
    assertThat(t.isActive()).isTrue();
  }

  @Test
  void firesAPeriodicTimerAtMostOnceAfterABigJumpAndSkipsTheMissedPeriods() {
    TimerQueue.Timer t = timers.schedulePeriodic(0, 10, record("tick"));
    assertThat(timers.fireDue(1_000_000)).isEqualTo(1);
    assertThat(log).containsExactly("tick");
    assertThat(t.deadline()).isEqualTo(1_000_010);
    assertThat(timers.fireDue(1_000_009)).isZero();
    assertThat(timers.fireDue(1_000_010)).isEqualTo(1);
  }

  @Test
  void firesAPeriodicTimerBetweenOneShotsInDeadlineOrder() {
    timers.schedulePeriodic(10, 10, record("p"));
    timers.schedule(15, record("o@15"));
    timers.schedule(20, record("o@20"));
    timers.fireDue(10);
    timers.fireDue(20);
    // The periodic timer was rescheduled to 20 after o@20 was scheduled.
    assertThat(log).containsExactly("p", "o@15", "o@20", "p");
  }

  @Test
  void cancelStopsAOneShotTimer() {
    TimerQueue.Timer a = timers.schedule(10, record("a"));
    timers.schedule(20, record("b"));
    a.cancel();
    assertThat(a.isActive()).isFalse();
    assertThat(timers.nextDeadline()).isEqualTo(20);
    assertThat(timers.fireDue(100)).isEqualTo(1);
    assertThat(log).containsExactly("b");
  }

  @Test
  void cancelStopsAPeriodicTimerEvenFromItsOwnAction() {
    TimerQueue.Timer[] self = new TimerQueue.Timer[1];
    self[0] =
        timers.schedulePeriodic(
            0,
            5,
            () -> {
              log.add("p");
              self[0].cancel();
            });
    timers.fireDue(0);
    timers.fireDue(100);
    assertThat(log).containsExactly("p");
    assertThat(self[0].isActive()).isFalse();
    assertThat(timers.isEmpty()).isTrue();
  }

  @Test
  void cancelIsIdempotentAndHarmlessAfterFiring() {
    TimerQueue.Timer t = timers.schedule(1, record("t"));
    timers.fireDue(1);
    t.cancel();
    t.cancel();
    assertThat(t.isActive()).isFalse();
    assertThat(log).containsExactly("t");
  }

  @Test
  void anActionCanCancelALaterDueTimer() {
    TimerQueue.Timer[] later = new TimerQueue.Timer[1];
    timers.schedule(
        1,
        () -> {
          log.add("first");
          later[0].cancel();
        });
    later[0] = timers.schedule(2, record("later"));
    assertThat(timers.fireDue(10)).isEqualTo(1);
    assertThat(log).containsExactly("first");
  }

  @Test
  void firesATimerScheduledByAnActionOnTheNextCallWithoutHoldingBackOtherDueTimers() {
    timers.schedule(
        5,
        () -> {
          log.add("a@5");
          timers.schedule(0, record("new@0"));
        });
    timers.schedule(7, record("b@7"));

    assertThat(timers.fireDue(10)).isEqualTo(2);
    assertThat(log).containsExactly("a@5", "b@7");
    assertThat(timers.nextDeadline()).isEqualTo(0);

    assertThat(timers.fireDue(10)).isEqualTo(1);
    assertThat(log).containsExactly("a@5", "b@7", "new@0");
  }

  @Test
  void doesNotFireATimerScheduledAndCancelledWithinOneCall() {
    TimerQueue.Timer[] created = new TimerQueue.Timer[1];
    timers.schedule(1, () -> created[0] = timers.schedule(0, record("never")));
    timers.schedule(2, () -> created[0].cancel());
    timers.fireDue(5);
    timers.fireDue(5);
    assertThat(log).isEmpty();
    assertThat(timers.isEmpty()).isTrue();
  }

  @Test
  void anActionReschedulingItselfIntoThePastDoesNotLoopForever() {
    Runnable[] again = new Runnable[1];
    again[0] =
        () -> {
          log.add("again");
          timers.schedule(0, again[0]);
        };
    timers.schedule(0, again[0]);
    assertThat(timers.fireDue(0)).isEqualTo(1);
    assertThat(timers.fireDue(0)).isEqualTo(1);
    assertThat(log).containsExactly("again", "again");
  }

  @Test
  void rejectsANonPositivePeriod() {
    assertThatThrownBy(() -> timers.schedulePeriodic(0, 0, record("x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("period must be positive: 0");
    assertThatThrownBy(() -> timers.schedulePeriodic(0, -1, record("x")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(timers.isEmpty()).isTrue();
  }

  @Test
  void worksFromTimeZero() {
    timers.schedule(0, record("zero"));
    timers.schedulePeriodic(0, 1, record("p"));
    assertThat(timers.nextDeadline()).isZero();
    assertThat(timers.fireDue(0)).isEqualTo(2);
    assertThat(timers.fireDue(1)).isEqualTo(1);
    assertThat(log).containsExactly("zero", "p", "p");
  }

  @Test
  void ordersAndFiresDeadlinesAcrossTheWrapAtLongMaxValue() {
    long nearMax = Long.MAX_VALUE - 5;
    timers.schedule(nearMax + 10, record("after-wrap")); // Long.MIN_VALUE + 4
    timers.schedule(nearMax, record("before-wrap"));
    timers.schedule(Long.MAX_VALUE, record("at-max"));

    assertThat(timers.nextDeadline()).isEqualTo(nearMax);
    assertThat(timers.fireDue(nearMax)).isEqualTo(1);
    assertThat(timers.nextDeadline()).isEqualTo(Long.MAX_VALUE);
    assertThat(timers.fireDue(Long.MAX_VALUE)).isEqualTo(1);
    assertThat(timers.nextDeadline()).isEqualTo(Long.MIN_VALUE + 4);
    assertThat(timers.fireDue(Long.MIN_VALUE + 3)).isZero();
    assertThat(timers.fireDue(Long.MIN_VALUE + 4)).isEqualTo(1);
    assertThat(log).containsExactly("before-wrap", "at-max", "after-wrap");
  }

  @Test
  void keepsAPeriodicTimerRunningAcrossTheWrapAtLongMaxValue() {
    long start = Long.MAX_VALUE - 15;
    TimerQueue.Timer t = timers.schedulePeriodic(start, 10, record("p"));
    timers.schedule(Long.MAX_VALUE, record("one-shot"));

    assertThat(timers.fireDue(start)).isEqualTo(1);
    assertThat(t.deadline()).isEqualTo(Long.MAX_VALUE - 5);
    assertThat(timers.fireDue(Long.MAX_VALUE)).isEqualTo(2);
    assertThat(t.deadline()).isEqualTo(Long.MIN_VALUE + 4);
    assertThat(timers.nextDeadline()).isEqualTo(Long.MIN_VALUE + 4);
    assertThat(timers.fireDue(Long.MIN_VALUE + 4)).isEqualTo(1);
    assertThat(log).containsExactly("p", "p", "one-shot", "p");
  }

  @Test
  void skipsMissedPeriodsAcrossTheWrap() {
    TimerQueue.Timer t = timers.schedulePeriodic(Long.MAX_VALUE - 1, 3, record("p"));
    assertThat(timers.fireDue(Long.MIN_VALUE + 100)).isEqualTo(1);
    assertThat(t.deadline()).isEqualTo(Long.MIN_VALUE + 103);
  }
}
