package io.dataflow.core.internal;

import java.util.ArrayList;
import java.util.PriorityQueue;
import io.dataflow.core.Clock;

/**
 * Deadline-ordered timers owned by one thread (the runtime's owner loop). Timers fire from
 * {@link #fireDue(long)} in deadline order, ties in scheduling order; a periodic timer is
 * rescheduled from its due time, and fires at most once per call (a clock that jumps far ahead
 * does not replay the periods it skipped). Times are {@link Clock#nanoTime()} values: only
 * differences count, so deadlines may wrap past {@link Long#MAX_VALUE}.
 *
 * <p>Thread-safety: owner thread only.
 */
public final class TimerQueue implements Clock.Timers {
  // Deadlines are compared by difference, like the due check in fireDue: clock time is a
  // monotonic nanosecond reading (only differences count), so a queue near Long.MAX_VALUE
  // stays ordered when deadlines wrap around.
  private final PriorityQueue<Timer> queue =
      new PriorityQueue<>(
          (a, b) -> a.deadline != b.deadline ? Long.signum(a.deadline - b.deadline)
              : Long.compare(a.sequence, b.sequence));
  private long sequence;
  private final java.util.ArrayDeque<RuntimeException> failures = new java.util.ArrayDeque<>();

  /** A scheduled timer; {@link #cancel()} stops it. */
  public final class Timer {
    private final Runnable action;
    private final long period;
    private long sequence;
    private long deadline;
    private boolean cancelled;

    private Timer(long deadline, long period, Runnable action) {
      this.deadline = deadline;
      this.period = period;
      this.action = action;
      this.sequence = TimerQueue.this.sequence++;
    }

    /** Stops the timer; it will not fire again. */
    public void cancel() {
      cancelled = true;
      queue.remove(this);
    }

    /** The next deadline in clock nanoseconds. */
    public long deadline() {
      return deadline;
    }

    /** True until the timer was cancelled or a one-shot timer fired. */
    public boolean isActive() {
      return !cancelled;
    }
  }

  /** Schedules {@code action} once at {@code deadlineNanos}. */
  public Timer schedule(long deadlineNanos, Runnable action) {
    Timer t = new Timer(deadlineNanos, 0, action);
    queue.add(t);
    return t;
  }

  /** Schedules {@code action} at {@code firstNanos} and then every {@code periodNanos}. */
  public Timer schedulePeriodic(long firstNanos, long periodNanos, Runnable action) {
    if (periodNanos <= 0) {
      throw new IllegalArgumentException("period must be positive: " + periodNanos);
    }
    Timer t = new Timer(firstNanos, periodNanos, action);
    queue.add(t);
    return t;
  }

  /** The earliest deadline, or {@link Long#MAX_VALUE} when no timer is scheduled. */
  @Override
  public long nextDeadline() {
    Timer t = queue.peek();
    return t == null ? Long.MAX_VALUE : t.deadline;
  }

  /** True when no timer is scheduled. */
  public boolean isEmpty() {
    return queue.isEmpty();
  }

  /**
   * Runs one action; what it throws is kept for the owner (see {@link #pollFailure()}) rather
   * than thrown at whoever fired it (a manual clock in a test, say).
   */
  private void run(Timer t) {
    try {
      t.action.run();
    } catch (RuntimeException e) {
      failures.add(e);
    }
  }

  /** The oldest error a timer action threw and nobody collected yet, or null. */
  public RuntimeException pollFailure() {
    return failures.poll();
  }

  /**
   * Fires every timer whose deadline is at or before {@code nowNanos}, in deadline order. A
   * timer scheduled by an action during the call fires on a later call.
   *
   * @return the number of timers fired
   */
  @Override
  public int fireDue(long nowNanos) {
    int fired = 0;
    // Each periodic timer fires at most once per call, however far behind it is.
    long limit = sequence;
    // Timers scheduled by an action during this call wait for the next call; they are set aside
    // rather than ending the loop, which would hold back older due timers behind them.
    ArrayList<Timer> scheduledMeanwhile = null;
    Timer t;
    while ((t = queue.peek()) != null && t.deadline - nowNanos <= 0) {
      queue.poll();
      if (t.sequence >= limit) {
        if (scheduledMeanwhile == null) {
          scheduledMeanwhile = new ArrayList<>();
        }
        scheduledMeanwhile.add(t);
        continue;
      }
      if (t.period > 0) {
        long next = t.deadline + t.period;
        if (next - nowNanos <= 0) {
          next = nowNanos + t.period; // skip the periods that were jumped over
        }
        t.deadline = next;
        t.sequence = sequence++;
        queue.add(t);
        fired++;
        run(t);
      } else {
        t.cancelled = true;
        fired++;
        run(t);
      }
    }
    if (scheduledMeanwhile != null) {
      for (Timer later : scheduledMeanwhile) {
        if (!later.cancelled) {
          queue.add(later);
        }
      }
    }
    return fired;
  }
}
