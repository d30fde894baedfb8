package io.dataflow.core;

import java.time.Instant;

/**
 * The only source of time in the library. Production code uses {@link SystemClock}; tests use
 * the testkit's {@code ManualClock}, which moves only when told to and fires due timers in
 * order, so no test ever sleeps.
 *
 * <p>Timers are kept in a {@link TimerQueue} owned by the thread that fires them (the runtime's
 * owner loop). A clock that drives time itself (a manual clock) is told about the queues whose
 * timers it must fire through {@link #attach(TimerQueue)}; the system clock ignores that,
 * because the owner loop polls its queue with real time.
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
  default void attach(TimerQueue queue) {}

  /** Undoes {@link #attach(TimerQueue)}. */
  default void detach(TimerQueue queue) {}

  /**
   * Parks the calling thread until {@code deadlineNanos} or until woken, whichever is first;
   * the idle strategy of a runtime on its own thread. A manual clock returns at once.
   */
  default void parkUntil(long deadlineNanos) {}
}
