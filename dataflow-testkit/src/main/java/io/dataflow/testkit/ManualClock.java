package io.dataflow.testkit;

import io.dataflow.core.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

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
 * the test's thread. Idling ({@link #parkUntil}) returns at once: a test never sleeps. A
 * backoff wait ({@link #awaitUntil}) does not sleep either: it moves the clock to its deadline,
 * as if the time had passed, firing on the way the timers of the queues the waiting thread
 * attached (each at its own due time), and stops right after a timer that cancelled it.
 *
 * <p>Thread-safety: reading is safe from any thread; {@code advance}/{@code jumpTo} must be
 * called by the thread that owns the attached queues (the test thread stepping the runtime).
 * {@code elapse} and {@code awaitUntil} may be called from any thread (they fire only the
 * calling thread's own queues); concurrent moves never take time back.
 */
public final class ManualClock implements Clock {
  private final long startNanos;
  private final Instant startInstant;
  private final List<Attached> queues = new CopyOnWriteArrayList<>();
  private final AtomicLong nanos = new AtomicLong();

  /** A queue and the thread that attached it (its owner, which alone may fire it). */
  private record Attached(Clock.Timers queue, Thread owner) {}

  /** A clock at 0 ns, whose wall time starts at 2026-01-01T00:00:00Z. */
  public ManualClock() {
    this(0, Instant.parse("2026-01-01T00:00:00Z"));
  }

  /** A clock starting at {@code startNanos} (any value, {@code Long.MAX_VALUE} included). */
  public ManualClock(long startNanos, Instant startInstant) {
    this.startNanos = startNanos;
    this.startInstant = Objects.requireNonNull(startInstant, "startInstant");
    this.nanos.set(startNanos);
  }

  @Override
  public long nanoTime() {
    return nanos.get();
  }

  @Override
  public Instant instant() {
    return startInstant.plusNanos(nanos.get() - startNanos);
  }

  @Override
  public void attach(Clock.Timers queue) {
    queues.add(new Attached(queue, Thread.currentThread()));
  }

  @Override
  public void detach(Clock.Timers queue) {
    queues.removeIf(a -> a.queue == queue);
  }

  @Override
  public void parkUntil(long deadlineNanos) {
    Thread.onSpinWait();
  }

  /** Lets other threads run; never moves the clock, never sleeps. */
  @Override
  public void backOff() {
    Thread.yield();
  }

  /**
   * Waits without sleeping: moves the clock to {@code deadlineNanos} as {@link #advance} would,
   * firing the due timers of the queues that the calling thread attached, in order, each at its
   * own due time (other threads' queues are left to their owners, as after {@link #elapse}).
   * {@code cancelled} (and the thread's interrupt status) is checked first and after every
   * timer: a timer that cancels ends the wait at its own due time, before the deadline.
   *
   * @return true when the clock reached the deadline, false when the wait was cancelled
   */
  @Override
  public boolean awaitUntil(long deadlineNanos, BooleanSupplier cancelled) {
    Thread me = Thread.currentThread();
    while (true) {
      if (cancelled.getAsBoolean() || me.isInterrupted()) {
        return false;
      }
      if (nanos.get() - deadlineNanos >= 0) {
        return true;
      }
      Attached next = null;
      long due = 0;
      for (Attached a : queues) {
        long t = a.queue.nextDeadline();
        if (a.owner == me && t != Long.MAX_VALUE && t - deadlineNanos <= 0
            && (next == null || t - due < 0)) {
          next = a;
          due = t;
        }
      }
      if (next == null) {
        moveTo(deadlineNanos);
        return true;
      }
      moveTo(due);
      next.queue.fireDue(nanos.get());
    }
  }

  /** Moves time to {@code target} unless it is already later: time never goes back. */
  private void moveTo(long target) {
    nanos.accumulateAndGet(target, (now, t) -> t - now > 0 ? t : now);
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
    long target = nanos.get() + d.toNanos();
    while (true) {
      Clock.Timers next = null;
      long due = 0;
      for (Attached a : queues) {
        long t = a.queue.nextDeadline();
        if (t != Long.MAX_VALUE && t - target <= 0 && (next == null || t - due < 0)) {
          next = a.queue;
          due = t;
        }
      }
      if (next == null) {
        break;
      }
      moveTo(due);
      next.fireDue(nanos.get());
    }
    moveTo(target);
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
    long now = nanos.addAndGet(d.toNanos());
    for (Attached a : queues) {
      a.queue.fireDue(now);
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
    nanos.addAndGet(d.toNanos());
  }

  /** The time elapsed since the clock started. */
  public Duration elapsed() {
    return Duration.ofNanos(nanos.get() - startNanos);
  }

  @Override
  public String toString() {
    return "ManualClock[" + elapsed() + "]";
  }
}
