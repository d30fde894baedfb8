package io.dataflow.cli;

import io.dataflow.core.Clock;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * Redraws a {@link ProgressLine} once per {@link #PERIOD_NANOS} of the clock while a run goes
 * on, from a daemon thread of its own; {@link #close()} stops it and clears the line. Waits are
 * the clock's {@link Clock#awaitUntil}, which a stop ends within a millisecond on the system
 * clock (at once: the stop also unparks the thread).
 */
final class ProgressReporter implements AutoCloseable {
  /** The interval between two redraws: one second. */
  static final long PERIOD_NANOS = 1_000_000_000L;

  private final ProgressLine line;
  private final Thread thread;
  private volatile boolean stopped;

  private ProgressReporter(ProgressLine line, LongSupplier ticks, Clock clock) {
    this.line = line;
    this.thread = new Thread(() -> report(line, ticks, clock, () -> stopped),
        "dataflow-progress");
    thread.setDaemon(true);
  }

  /** Starts redrawing {@code line} with the count {@code ticks} reads (from any thread). */
  static ProgressReporter start(ProgressLine line, LongSupplier ticks, Clock clock) {
    ProgressReporter r = new ProgressReporter(line, ticks, clock);
    r.thread.start();
    return r;
  }

  /**
   * The reporting loop: waits a period on the clock, updates the line, until {@code stopped}.
   * A period that the update overran is not made up: the next one starts from now.
   */
  static void report(ProgressLine line, LongSupplier ticks, Clock clock,
      BooleanSupplier stopped) {
    long next = clock.nanoTime() + PERIOD_NANOS;
    while (clock.awaitUntil(next, stopped)) {
      line.update(ticks.getAsLong());
      long now = clock.nanoTime();
      next += PERIOD_NANOS;
      if (next - now <= 0) {
        next = now + PERIOD_NANOS;
      }
    }
  }

  /** Stops the reporting thread, waits for it, and clears the line for good. */
  @Override
  public void close() {
    stopped = true;
    LockSupport.unpark(thread);
    boolean interrupted = false;
    while (thread.isAlive()) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    line.finish();
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
