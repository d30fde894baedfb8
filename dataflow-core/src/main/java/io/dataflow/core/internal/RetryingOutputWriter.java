package io.dataflow.core.internal;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import io.dataflow.core.spi.OutputWriter;
import io.dataflow.core.Backoff;
import io.dataflow.core.RetryFailedException;
import io.dataflow.core.RetryableException;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Row;
import io.dataflow.core.Clock;
import io.dataflow.core.Retry;
import io.dataflow.core.ComponentException;

/**
 * Retries a writer that fails with a {@link RetryableException}, with capped exponential
 * backoff on the owner loop's timers. While a retry is pending, later rows queue behind the
 * failed one (copied, so order is kept and nothing is lost); when the attempts run out the
 * writer fails for good with every attempt listed: {@code attempt 1: ...; attempt 2: ...}.
 * Any other failure is fatal at once, as it is.
 *
 * <p>The counting, the verdicts and the messages are a {@link Retry}'s: the failed call is
 * attempt 1, each replay of the pending rows one more attempt. On the owner loop each replay
 * runs from a timer ({@link Retry#judge}); once the writer closes, {@link Retry#run} takes the
 * sequence over and waits the remaining backoff on the clock in the closing thread. An
 * interrupt of that thread cancels the wait, and the close fails saying so.
 *
 * <p>Thread-safety: owner thread only.
 */
public final class RetryingOutputWriter implements OutputWriter {
  private final String component;
  private final OutputWriter delegate;
  private final Clock clock;
  private final TimerQueue timers;
  private final int bufferLimit;
  private final ArrayDeque<Object> pending = new ArrayDeque<>();
  private final Retry<Void> retry;
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
    this.clock = Objects.requireNonNull(clock, "clock");
    this.timers = Objects.requireNonNull(timers, "timers");
    this.bufferLimit = bufferLimit;
    this.retry = new Retry<>(backoff, clock, Retry.retryOn(RetryableException.class));
  }

  @Override
  public void feed(long tick, RowLayout layout, Row row) throws IOException {
    checkFailed();
    if (!pending.isEmpty()) {
      if (pending.size() >= bufferLimit) {
        throw new IOException("retry buffer full (" + bufferLimit + " rows) while waiting to "
            + "retry: " + String.join("; ", retry.history()));
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
      if (failure == null && !pending.isEmpty()) {
        try {
          // Continues the sequence the timers began: waits the backoff due, then replays.
          retry.run(attempt -> {
            replay();
            return null;
          }, () -> false);
        } catch (RetryFailedException e) {
          gaveUp(e);
        }
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

  /** An attempt failed retryably: schedules the next one, or gives up. */
  private void failed(RetryableException e) throws IOException {
    try {
      retry.judge(null, e); // RETRY: another attempt is due (retryOn gives no other verdict)
    } catch (RetryFailedException gaveUp) {
      gaveUp(gaveUp);
    }
    if (!closing) {
      retryTimer = timers.schedule(clock.nanoTime() + retry.delayNanos(), this::retryFromTimer);
    }
  }

  private void gaveUp(RetryFailedException e) throws IOException {
    failure = e;
    pending.clear(); // not silent: the failure says how many attempts were made, and why
    throw e;
  }

  private void retryFromTimer() {
    retryTimer = null;
    try {
      try {
        replay();
      } catch (RetryableException e) {
        failed(e);
        return;
      }
      retry.judge(null, null); // SUCCEEDED: the sequence is over
    } catch (IOException e) {
      // Sticky for later calls, and fatal now: the owner loop fails the run from the timer.
      failure = failure == null ? e : failure;
      throw new ComponentException(component, failure);
    }
  }

  /**
   * One attempt: replays the pending operations in order, each removed once it went through;
   * a failure leaves the failed one first.
   */
  private void replay() throws IOException {
    while (!pending.isEmpty()) {
      Object op = pending.peek();
      if (op == FLUSH) {
        delegate.flush();
      } else {
        PendingFeed f = (PendingFeed) op;
        delegate.feed(f.tick, f.layout, f.row);
      }
      pending.poll();
    }
  }

  private void checkFailed() throws IOException {
    if (failure != null) {
      throw failure;
    }
  }

  /** Every failed attempt so far (cleared after a successful retry). */
  public List<String> attempts() {
    return retry.history();
  }

  private static Row copy(Row row) {
    Row r = new Row(row.width());
    r.copyFrom(row);
    return r;
  }
}
