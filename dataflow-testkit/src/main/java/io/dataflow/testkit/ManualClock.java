package io.dataflow.testkit;

import io.dataflow.core.Clock;
import io.dataflow.core.TimerQueue;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A clock that moves only when told to, for deterministic tests: reading it never moves it,
 * and time never goes back.
 *
 * <p>{@link #advance(Duration)} fires every timer that falls due in the attached timer queues,
 * in time order, each at its own due time (a periodic timer fires once per period passed).
 * {@link #jumpTo(Instant)} moves straight to a point in time and fires what is due there once,
 * so a periodic timer does not replay the periods that were jumped over.
 *
 * <p>A runtime stepped by the test attaches its timer queue when it starts, so timers fire in
 * the test's thread. Waiting ({@link #parkUntil}) returns at once: a test never sleeps.
 *
 * <p>Thread-safety: reading is safe from any thread; {@code advance}/{@code jumpTo} must be
 * called by the thread that owns the attached queues (the test thread stepping the runtime).
 */
public final class ManualClock implements Clock {
  private final long startNanos;
  private final Instant startInstant;
  private final List<TimerQueue> queues = new CopyOnWriteArrayList<>();
  private volatile long nanos;

  /** A clock at 0 ns, whose wall time starts at 2026-01-01T00:00:00Z. */
  public ManualClock() {
    this(0, Instant.parse("2026-01-01T00:00:00Z"));
  }

  /** A clock starting at {@code startNanos} (any value, {@code Long.MAX_VALUE} included). */
  public ManualClock(long startNanos, Instant startInstant) {
    this.startNanos = startNanos;
    this.startInstant = Objects.requireNonNull(startInstant, "startInstant");
    this.nanos = startNanos;
  }

  @Override
  public long nanoTime() {
    return nanos;
  }

  @Override
  public Instant instant() {
    return startInstant.plusNanos(nanos - startNanos);
  }

  @Override
  public void attach(TimerQueue queue) {
    queues.add(queue);
  }

  @Override
  public void detach(TimerQueue queue) {
    queues.remove(queue);
  }

  @Override
  public void parkUntil(long deadlineNanos) {
    Thread.onSpinWait();
  }

  /**
   * Moves time forward by {@code d}, firing every due timer at its own due time, in order.
   *
   * @throws IllegalArgumentException for a negative duration
   */
  public void advance(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("time never goes back: " + d);
    }
    long target = nanos + d.toNanos();
    while (true) {
      TimerQueue next = null;
      long due = 0;
      for (TimerQueue q : queues) {
        long t = q.nextDeadline();
        if (t != Long.MAX_VALUE && t - target <= 0 && (next == null || t - due < 0)) {
          next = q;
          due = t;
        }
      }
      if (next == null) {
        break;
      }
      if (due - nanos > 0) {
        nanos = due;
      }
      next.fireDue(nanos);
    }
    nanos = target;
  }

  /**
   * Moves time to {@code instant} and fires what is due there once (periodic timers do not
   * replay skipped periods).
   *
   * @throws IllegalArgumentException when {@code instant} is before the current time
   */
  public void jumpTo(Instant instant) {
    Duration d = Duration.between(instant(), instant);
    if (d.isNegative()) {
      throw new IllegalArgumentException("time never goes back: " + instant + " is before "
          + instant());
    }
    nanos = nanos + d.toNanos();
    for (TimerQueue q : queues) {
      q.fireDue(nanos);
    }
  }

  /**
   * Moves time forward without firing timers: as if work took that long. Whoever owns the
   * timer queues fires what became due on its next cycle (once per periodic timer).
   */
  public void elapse(Duration d) {
    if (d.isNegative()) {
      throw new IllegalArgumentException("time never goes back: " + d);
    }
    nanos = nanos + d.toNanos();
  }

  /** The time elapsed since the clock started. */
  public Duration elapsed() {
    return Duration.ofNanos(nanos - startNanos);
  }

  @Override
  public String toString() {
    return "ManualClock[" + elapsed() + "]";
  }
}
