package io.dataflow.core;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Retries a writer that fails with a {@link RetryableException}, with capped exponential
 * backoff on the owner loop's timers. While a retry is pending, later rows queue behind the
 * failed one (copied, so order is kept and nothing is lost); when the attempts run out the
 * writer fails for good with every attempt listed: {@code attempt 1: ...; attempt 2: ...}.
 *
 * <p>Thread-safety: owner thread only.
 */
public final class RetryingOutputWriter implements OutputWriter {
  private final String component;
  private final OutputWriter delegate;
  private final Backoff backoff;
  private final Clock clock;
  private final TimerQueue timers;
  private final int bufferLimit;
  private final ArrayDeque<Object> pending = new ArrayDeque<>();
  private final List<String> attempts = new ArrayList<>();
  private TimerQueue.Timer retryTimer;
  private volatile boolean closing;
  private IOException failure;

  private record PendingFeed(long tick, RowLayout layout, Row row) {}

  private static final Object FLUSH = new Object();

  /**
   * Wraps {@code delegate}.
   *
   * @param component the name reported when the retries run out ({@code sink:alerts})
   * @param bufferLimit how many rows may wait behind a pending retry before feeding fails
   */
  public RetryingOutputWriter(String component, OutputWriter delegate, Backoff backoff,
      Clock clock, TimerQueue timers, int bufferLimit) {
    this.component = Objects.requireNonNull(component, "component");
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.timers = Objects.requireNonNull(timers, "timers");
    this.bufferLimit = bufferLimit;
  }

  @Override
  public void feed(long tick, RowLayout layout, Row row) throws IOException {
    checkFailed();
    if (!pending.isEmpty()) {
      if (pending.size() >= bufferLimit) {
        throw new IOException("retry buffer full (" + bufferLimit + " rows) while waiting to "
            + "retry: " + String.join("; ", attempts));
      }
      pending.add(new PendingFeed(tick, layout, copy(row)));
      return;
    }
    try {
      delegate.feed(tick, layout, row);
    } catch (RetryableException e) {
      pending.add(new PendingFeed(tick, layout, copy(row)));
      failed(e);
    }
  }

  @Override
  public void flush() throws IOException {
    checkFailed();
    if (!pending.isEmpty()) {
      pending.add(FLUSH);
      return;
    }
    try {
      delegate.flush();
    } catch (RetryableException e) {
      pending.add(FLUSH);
      failed(e);
    }
  }

  /**
   * Stops scheduling retries on the owner's timers: from now on, retries happen inside
   * {@link #close()}. Owner thread only; the runtime calls it before closing the output on its
   * closer thread, so no timer and no close replay the same rows at the same time.
   */
  public void stopTimers() {
    closing = true;
    if (retryTimer != null) {
      retryTimer.cancel();
      retryTimer = null;
    }
  }

  /**
   * Replays the pending operations, waiting out the backoff on the clock, then closes. Call
   * {@link #stopTimers()} on the owner thread first when closing from another thread.
   */
  @Override
  public void close() throws IOException {
    stopTimersIfOwner();
    try {
      while (failure == null && !pending.isEmpty()) {
        clock.parkUntil(clock.nanoTime() + backoff.delayNanos(attempts.size()));
        replay();
      }
      checkFailed();
    } catch (IOException | RuntimeException e) {
      // The destination is released all the same; its own close error stays secondary.
      try {
        delegate.close();
      } catch (IOException | RuntimeException closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
    delegate.close();
  }

  private void stopTimersIfOwner() {
    if (!closing) {
      stopTimers(); // closed on the owner thread itself (no closer thread)
    }
  }

  private void failed(RetryableException e) throws IOException {
    attempts.add("attempt " + (attempts.size() + 1) + ": " + Teardown.describe(e));
    if (attempts.size() >= backoff.maxAttempts()) {
      failure = new IOException("gave up after " + attempts.size() + " attempts: "
          + String.join("; ", attempts), e);
      pending.clear();
      throw failure;
    }
    if (!closing) {
      long due = clock.nanoTime() + backoff.delayNanos(attempts.size());
      retryTimer = timers.schedule(due, this::retryFromTimer);
    }
  }

  private void retryFromTimer() {
    retryTimer = null;
    try {
      replay();
    } catch (IOException e) {
      // Sticky for later calls, and fatal now: the owner loop fails the run from the timer.
      failure = failure == null ? e : failure;
      throw new ComponentException(component, failure);
    }
  }

  private void replay() throws IOException {
    while (!pending.isEmpty()) {
      Object op = pending.peek();
      try {
        if (op == FLUSH) {
          delegate.flush();
        } else {
          PendingFeed f = (PendingFeed) op;
          delegate.feed(f.tick, f.layout, f.row);
        }
      } catch (RetryableException e) {
        failed(e);
        return;
      }
      pending.poll();
    }
    attempts.clear();
  }

  private void checkFailed() throws IOException {
    if (failure != null) {
      throw failure;
    }
  }

  /** Every failed attempt so far (cleared after a successful retry). */
  public List<String> attempts() {
    return List.copyOf(attempts);
  }

  private static Row copy(Row row) {
    Row r = new Row(row.width());
    r.copyFrom(row);
    return r;
  }
}
