package io.dataflow.core;

import java.time.Instant;
import java.util.concurrent.locks.LockSupport;

/**
 * The clock of the running system: {@link System#nanoTime()} and {@link Instant#now()}. The
 * only place in the library that reads or waits on real time.
 *
 * <p>Thread-safety: stateless and safe from any thread.
 */
public final class SystemClock implements Clock {
  /** The shared instance. */
  public static final SystemClock INSTANCE = new SystemClock();

  private SystemClock() {}

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public Instant instant() {
    return Instant.now();
  }

  @Override
  public void backOff() {
    LockSupport.parkNanos(50_000);
  }

  @Override
  public void parkUntil(long deadlineNanos) {
    long wait = deadlineNanos - System.nanoTime();
    if (wait > 0) {
      LockSupport.parkNanos(wait);
    }
  }

  @Override
  public String toString() {
    return "SystemClock";
  }
}
