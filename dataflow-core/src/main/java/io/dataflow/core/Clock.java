package io.dataflow.core;

import java.time.Instant;
import java.util.function.BooleanSupplier;

/**
 * The only source of time in the library. Production code uses {@link SystemClock}; tests use
 * the testkit's {@code ManualClock}, which moves only when told to and fires due timers in
 * order, so no test ever sleeps.
 *
 * <p>Timers are kept in a {@link Timers} queue owned by the thread that fires them (the
 * runtime's owner loop). A clock that drives time itself (a manual clock) is told about the
 * queues whose timers it must fire through {@link #attach(Timers)}; the system clock ignores
 * that, because the owner loop polls its queue with real time.
 *
 * <p>Thread-safety: implementations are safe to read from any thread.
 */
public interface Clock {
  /** Monotonic time in nanoseconds; only differences are meaningful. */
  long nanoTime();

  /** Wall-clock time. */
  Instant instant();

  /**
   * Registers a timer queue that this clock fires when it moves time itself. The default does
   * nothing: the owner of the queue fires it from its own loop.
   */
  default void attach(Timers queue) {}

  /** Undoes {@link #attach(Timers)}. */
  default void detach(Timers queue) {}

  /**
   * A queue of timers as a clock that moves time itself sees it (the runtime's timer queue
   * implements it).
   */
  interface Timers {
    /** The earliest due time, or {@link Long#MAX_VALUE} when none is scheduled. */
    long nextDeadline();

    /**
     * Fires every timer due at or before {@code nowNanos}, in due order.
     *
     * @return the number of timers fired
     */
    int fireDue(long nowNanos);
  }

  /**
   * Parks the calling thread until {@code deadlineNanos} or until woken, whichever is first;
   * the idle strategy of a runtime on its own thread. A manual clock returns at once.
   */
  default void parkUntil(long deadlineNanos) {}

  /**
   * Backs off briefly while another thread is awaited (room in a full queue, a run to end),
   * between two checks of the condition and of a deadline on this clock. It never moves this
   * clock: on a real clock it parks for a few tens of microseconds; a clock that moves only when
   * told just lets other threads run.
   */
  default void backOff() {
    Thread.onSpinWait();
  }

  /**
   * Waits until this clock reaches {@code deadlineNanos}, unless cancelled first: the wait of a
   * retry's backoff ({@link Retry}). Unlike {@link #parkUntil}, it does not return early by
   * itself.
   *
   * <p>The wait ends early when {@code cancelled} turns true or the waiting thread is
   * interrupted (its interrupt status is kept). The signal is checked before waiting, so a
   * cancelled wait does not wait at all.
   *
   * <p>This default, which the {@link SystemClock} uses, waits with {@link #parkUntil} in
   * slices of at most 1 ms, so a cancel is seen within a millisecond, or at once when the
   * canceller also unparks (or interrupts) the waiting thread. A clock whose time does not move
   * by itself overrides it: the testkit's manual clock waits by moving its own time to the
   * deadline, firing the waiting thread's timers on the way.
   *
   * @param deadlineNanos a {@link #nanoTime()} value (compared by difference, so it may wrap)
   * @param cancelled the caller's cancel signal; read from the waiting thread
   * @return true when the deadline was reached, false when the wait was cancelled
   */
  default boolean awaitUntil(long deadlineNanos, BooleanSupplier cancelled) {
    while (true) {
      if (cancelled.getAsBoolean() || Thread.currentThread().isInterrupted()) {
        return false;
      }
      long now = nanoTime();
      long left = deadlineNanos - now;
      if (left <= 0) {
        return true;
      }
      parkUntil(now + Math.min(left, 1_000_000)); // checks the signal at least every 1 ms
    }
  }
}
