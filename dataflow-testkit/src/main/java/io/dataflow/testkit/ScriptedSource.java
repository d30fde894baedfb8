package io.dataflow.testkit;

import io.dataflow.core.spi.ControlRequest;
import io.dataflow.core.spi.Source;
import io.dataflow.core.spi.SourceContext;
import io.dataflow.core.Tick;
import io.dataflow.core.TickBatch;
import io.dataflow.core.Value;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A pull-style source that plays a script: batches of ticks, control items, and faults (fail
 * after the n-th batch, fail on open or close, never end). Records its effects in a
 * {@link CallLog}.
 *
 * <p>Thread-safety: owner thread only.
 */
public final class ScriptedSource implements Source {
  private final String name;
  private final CallLog log;
  private final List<Object> script = new ArrayList<>();
  private SourceContext context;
  private int next;
  private boolean ended;
  private boolean failOnOpen;
  private boolean failOnClose;
  private boolean neverEnd;

  private record Failure(String message) {}

  /** A source recording into {@code log} under {@code source:<name>}. */
  public ScriptedSource(String name, CallLog log) {
    this.name = name;
    this.log = log;
  }

  /** Appends a batch of ticks (each a name-to-value map). */
  @SafeVarargs
  public final ScriptedSource batch(Map<String, Value>... ticks) {
    List<Tick> list = new ArrayList<>();
    for (Map<String, Value> t : ticks) {
      list.add(Tick.of(t));
    }
    script.add(TickBatch.of(list));
    return this;
  }

  /** Appends one batch of one tick per row, {@code n} times: x = start, start + 1, ... */
  public ScriptedSource counting(String input, int start, int n) {
    for (int i = 0; i < n; i++) {
      script.add(TickBatch.of(Tick.of(input, Value.of(start + i))));
    }
    return this;
  }

  /** Appends a control item. */
  public ScriptedSource control(ControlRequest request) {
    script.add(request);
    return this;
  }

  /** Appends a failure: the source fails here, after everything before it was delivered. */
  public ScriptedSource fail(String message) {
    script.add(new Failure(message));
    return this;
  }

  /** Fails when opened. */
  public ScriptedSource failOnOpen() {
    this.failOnOpen = true;
    return this;
  }

  /** Fails when closed. */
  public ScriptedSource failOnClose() {
    this.failOnClose = true;
    return this;
  }

  /** Does not signal the end after the script (a live source that stays open). */
  public ScriptedSource neverEnd() {
    this.neverEnd = true;
    return this;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void open(SourceContext ctx) throws IOException {
    log.record("source:" + name + " open");
    if (failOnOpen) {
      throw new IOException("injected open failure of source " + name);
    }
    this.context = ctx;
  }

  @Override
  public int poll(long nowNanos) {
    if (ended || context == null) {
      return 0;
    }
    int work = 0;
    while (next < script.size() && work < 16) {
      Object item = script.get(next);
      if (item instanceof TickBatch b) {
        if (!context.offer(b)) {
          return work;
        }
        log.record("source:" + name + " batch " + next);
      } else if (item instanceof ControlRequest c) {
        if (!context.offerControl(c)) {
          return work; // a pull source never waits on the owner thread: retry next poll
        }
        log.record("source:" + name + " control " + next);
      } else {
        if (!context.tryFail(new IOException(((Failure) item).message()))) {
          return work;
        }
        log.record("source:" + name + " fail");
        ended = true;
        return work + 1;
      }
      next++;
      work++;
    }
    if (next >= script.size() && !neverEnd && context.tryComplete()) {
      log.record("source:" + name + " end");
      ended = true;
      work++;
    }
    return work;
  }

  @Override
  public void close() throws IOException {
    log.record("source:" + name + " close");
    ended = true;
    if (failOnClose) {
      throw new IOException("injected close failure of source " + name);
    }
  }
}
