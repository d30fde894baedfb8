package io.dataflow.testkit;

import io.dataflow.core.spi.OutputWriter;
import io.dataflow.core.RetryableException;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.io.OutputRow;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * An output writer with scripted faults that records every call: fail on the n-th feed,
 * flush or close (fatally or retryably), never complete a close (until released), or take
 * clock time per call. Rows it accepted are kept, so a test can check nothing was lost or
 * written twice.
 *
 * <p>Thread-safety: calls come from the owner (or closer) thread; reads from any thread.
 */
public final class ScriptedSink implements OutputWriter {
  /** The calls a fault can target. */
  public enum Call {
    /** {@link #feed}. */
    FEED,
    /** {@link #flush}. */
    FLUSH,
    /** {@link #close}. */
    CLOSE
  }

  private final String name;
  private final CallLog log;
  private final Map<Call, Integer> counts = new LinkedHashMap<>();
  private final Map<Call, Fault> faults = new LinkedHashMap<>();
  private final List<OutputRow> rows = new ArrayList<>();
  private final CountDownLatch released = new CountDownLatch(1);
  private final CountDownLatch blocked = new CountDownLatch(1);
  private boolean neverComplete;
  private int blockFeedFrom = Integer.MAX_VALUE;
  private ManualClock clock;
  private Duration perCall = Duration.ZERO;

  private record Fault(int onCall, int times, boolean retryable, String message) {}

  /** A sink recording into {@code log} under {@code sink:<name>}. */
  public ScriptedSink(String name, CallLog log) {
    this.name = name;
    this.log = log;
  }

  /** Fails the {@code n}-th (from 1) call of a kind with an IOException. */
  public ScriptedSink failOn(Call call, int n) {
    faults.put(call, new Fault(n, 1, false, "injected " + call.name().toLowerCase() + " failure"));
    return this;
  }

  /** Fails {@code times} calls of a kind retryably, starting at the {@code n}-th. */
  public ScriptedSink failRetryably(Call call, int n, int times) {
    faults.put(call, new Fault(n, times, true, "injected transient "
        + call.name().toLowerCase() + " failure"));
    return this;
  }

  /** Makes {@link #close()} block until {@link #release()} (a sink that never completes). */
  public ScriptedSink neverCompleteClose() {
    this.neverComplete = true;
    return this;
  }

  /** Each call takes {@code d} of clock time (the clock moves; timers fire later). */
  public ScriptedSink slow(ManualClock clock, Duration d) {
    this.clock = clock;
    this.perCall = d;
    return this;
  }

  /** Makes the {@code n}-th feed and every later one block until {@link #release()}. */
  public ScriptedSink blockFeedsFrom(int n) {
    this.blockFeedFrom = n;
    return this;
  }

  /** Lets a blocked close finish. */
  public void release() {
    released.countDown();
  }

  /** Waits (bounded, real time) until a call is blocked. */
  public boolean awaitBlocked(Duration timeout) throws InterruptedException {
    return blocked.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  @Override
  public void feed(long tick, RowLayout layout, Row row) throws IOException {
    int n = enter(Call.FEED, "feed " + tick);
    if (n >= blockFeedFrom) {
      block();
    }
    fault(Call.FEED, n);
    OutputRow r = io.dataflow.testkit.Rows.box(tick, layout, row);
    synchronized (this) {
      rows.add(r);
    }
  }

  @Override
  public void flush() throws IOException {
    int n = enter(Call.FLUSH, "flush");
    fault(Call.FLUSH, n);
  }

  @Override
  public void close() throws IOException {
    int n = enter(Call.CLOSE, "close");
    if (neverComplete) {
      block();
    }
    fault(Call.CLOSE, n);
  }

  private void block() throws IOException {
    blocked.countDown();
    try {
      released.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while blocked", e);
    }
  }

  private synchronized int enter(Call call, String what) {
    int n = counts.merge(call, 1, Integer::sum);
    log.record("sink:" + name + " " + what);
    if (clock != null && !perCall.isZero()) {
      clock.elapse(perCall);
    }
    return n;
  }

  private void fault(Call call, int n) throws IOException {
    Fault f = faults.get(call);
    if (f != null && n >= f.onCall && n < f.onCall + f.times) {
      log.record("sink:" + name + " " + call.name().toLowerCase() + " failed");
      throw f.retryable ? new RetryableException(f.message + " (call " + n + ")")
          : new IOException(f.message + " (call " + n + ")");
    }
  }

  /** The rows accepted so far (a failed feed is not accepted). */
  public synchronized List<OutputRow> rows() {
    return List.copyOf(rows);
  }

  /** The ticks of the rows accepted so far, in order. */
  public synchronized List<Long> ticks() {
    List<Long> out = new ArrayList<>();
    for (OutputRow r : rows) {
      out.add(r.tick());
    }
    return out;
  }
}
