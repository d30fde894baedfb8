package io.dataflow.core.internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import io.dataflow.core.InputWindow;
import io.dataflow.core.ComponentException;

/**
 * Applies an {@link InputWindow} in front of the engine: passes ticks straight through, batches
 * whole ticks, or reduces a window to one tick. Time triggers are timers on the owner loop.
 *
 * <p>Thread-safety: owner thread only.
 */
final class InputWindowBuffer {
  private final InputWindow window;
  private final DirectDataflowEngine engine;
  private final TimerQueue timers;
  private final List<Tick> batch = new ArrayList<>();
  private final Map<String, Value> merged = new LinkedHashMap<>();
  private boolean pending;
  private TimerQueue.Timer timer;

  InputWindowBuffer(InputWindow window, DirectDataflowEngine engine, TimerQueue timers) {
    this.window = window;
    this.engine = engine;
    this.timers = timers;
  }

  void accept(Tick tick, long nowNanos) throws IOException {
    switch (window.kind()) {
      case NONE:
        engine.process(tick);
        return;
      case BATCH:
        batch.add(tick);
        break;
      case ATOMIC_STEP:
        for (int i = 0; i < tick.size(); i++) {
          merged.remove(tick.shape().name(i)); // the last update wins and moves to the end
          merged.put(tick.shape().name(i), tick.value(i));
        }
        break;
      default:
        throw new IllegalStateException(window.kind().name());
    }
    if (!pending) {
      pending = true;
      timer = timers.schedule(nowNanos + window.maxDelay().toNanos(), this::flushFromTimer);
    }
    if (batch.size() >= window.maxTicks()) {
      flush();
    }
  }

  /** True when ticks go straight to the engine (no window): batches may skip the buffer. */
  boolean passesThrough() {
    return window.kind() == InputWindow.Kind.NONE;
  }

  /** True while ticks wait in the window. */
  boolean hasPending() {
    return pending;
  }

  /** Evaluates whatever is pending (a control item, a time trigger, the end of input). */
  void flush() throws IOException {
    if (!pending) {
      return;
    }
    pending = false;
    if (timer != null) {
      timer.cancel();
      timer = null;
    }
    if (window.kind() == InputWindow.Kind.ATOMIC_STEP) {
      Tick t = Tick.of(merged);
      merged.clear();
      engine.process(t);
    } else {
      List<Tick> ticks = new ArrayList<>(batch);
      batch.clear();
      for (Tick t : ticks) {
        engine.process(t);
      }
    }
  }

  private void flushFromTimer() {
    timer = null;
    try {
      flush();
    } catch (IOException e) {
      throw new ComponentException("sink", e);
    }
  }

  /** Drops pending ticks (a cancelled or failed run) and returns how many were dropped. */
  int discard() {
    int n = window.kind() == InputWindow.Kind.ATOMIC_STEP ? (pending ? 1 : 0) : batch.size();
    batch.clear();
    merged.clear();
    pending = false;
    if (timer != null) {
      timer.cancel();
      timer = null;
    }
    return n;
  }
}
