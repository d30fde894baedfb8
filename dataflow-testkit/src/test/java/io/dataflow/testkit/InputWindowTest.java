package io.dataflow.testkit;

import static io.dataflow.testkit.OutputTraceAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.InputWindow;
import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Input windows flush on size, on clock time, and before a control item; no test sleeps. */
class InputWindowTest {
  private static final String COPY = "in x\nin y\nout a\nout b\na = x\nb = y";

  @Test
  void batchWindowHoldsTicksUntilItsDelayPassesOnTheClock() {
    try (DataflowHarness h = DataflowHarness.forSpec(COPY)
        .options(o -> o.withWindow(InputWindow.batch(100, Duration.ofMillis(50)))).build()) {
      h.tick("x", 1).tick("x", 2);
      assertThat(h.trace()).isEmpty();
      h.advance(Duration.ofMillis(49));
      assertThat(h.trace()).isEmpty();
      h.advance(Duration.ofMillis(1));
      assertThat(h.trace()).hasLines("a[0] = Int(1)", "a[1] = Int(2)");
    }
  }

  @Test
  void batchWindowFlushesAtOnceWhenItIsFull() {
    try (DataflowHarness h = DataflowHarness.forSpec(COPY)
        .options(o -> o.withWindow(InputWindow.batch(3, Duration.ofSeconds(10)))).build()) {
      h.tick("x", 1).tick("x", 2);
      assertThat(h.trace()).isEmpty();
      h.tick("x", 3);
      assertThat(h.trace()).hasValues("a", 1, 2, 3);
    }
  }

  @Test
  void atomicStepReducesAWindowToOneTickWhereTheLastUpdateWins() {
    try (DataflowHarness h = DataflowHarness.forSpec(COPY)
        .options(o -> o.withWindow(InputWindow.atomicStep(Duration.ofMillis(10)))).build()) {
      h.tick("x", 1).tick("y", 7).tick("x", 2);
      assertThat(h.trace()).isEmpty();
      h.advance(Duration.ofMillis(10));
      assertThat(h.trace()).hasLines("a[0] = Int(2)", "b[0] = Int(7)");
      h.tick("y", 8).advance(Duration.ofMillis(10));
      assertThat(h.trace()).hasLines("a[0] = Int(2)", "b[0] = Int(7)", "b[1] = Int(8)");
    }
  }

  @Test
  void aControlItemFlushesThePendingWindowFirst() {
    try (DataflowHarness h = DataflowHarness.forSpec(COPY)
        .options(o -> o.withWindow(InputWindow.batch(100, Duration.ofSeconds(10)))).build()) {
      h.tick("x", 1).tick("x", 2);
      h.reconfigure("in x\nin y\nout a\na = x * 10");
      h.tick("x", 3).advance(Duration.ofSeconds(10));
      assertThat(h.trace()).hasLines("a[0] = Int(1)", "a[1] = Int(2)", "a[2] = Int(30)");
    }
  }

  @Test
  void endOfInputFlushesThePendingWindow() {
    try (DataflowHarness h = DataflowHarness.forSpec(COPY)
        .options(o -> o.withWindow(InputWindow.batch(100, Duration.ofSeconds(10)))).build()) {
      h.offer(Tick.of("x", Value.of(1)));
      h.runUntilIdle();
      assertThat(h.trace()).isEmpty();
      h.finish();
      assertThat(h.trace()).hasValues("a", 1);
    }
  }

  @Test
  void aRuntimeErrorInAWindowFlushedByItsTimerIsReportedAsTheMonitors() {
    try (DataflowHarness h = DataflowHarness.forSpec("in x\nout z\nz = 1 / x")
        .options(o -> o.withWindow(InputWindow.batch(10, Duration.ofSeconds(1)))).build()) {
      h.tick("x", 1).tick("x", 0).advance(Duration.ofSeconds(1));
      io.dataflow.core.ExitReport r = h.awaitTermination();
      assertThat(r.component()).isEqualTo("monitor");
      assertThat(r.reason()).isEqualTo("tick 1: stream 'z': division by zero");
      assertThat(h.trace()).hasValues("z", 1);
    }
  }

  @Test
  void aRuntimeErrorInAWindowFlushedAtTheEndOfInputIsReportedAsTheMonitors() {
    try (DataflowHarness h = DataflowHarness.forSpec("in x\nout z\nz = 1 / x")
        .options(o -> o.withWindow(InputWindow.atomicStep(Duration.ofHours(1)))).build()) {
      h.tick("x", 0);
      io.dataflow.core.ExitReport r = h.finish();
      assertThat(r.component()).isEqualTo("monitor");
    }
  }

  @Test
  void periodicTimersFireAtTheirOwnDueTimesWhenTheClockAdvances() {
    ManualClock clock = new ManualClock(Long.MAX_VALUE - 1_000_000, java.time.Instant.EPOCH);
    io.dataflow.core.internal.TimerQueue q = new io.dataflow.core.internal.TimerQueue();
    clock.attach(q);
    java.util.List<Long> fired = new java.util.ArrayList<>();
    long start = clock.nanoTime();
    q.schedulePeriodic(start + 100, 100, () -> fired.add(clock.nanoTime() - start));
    clock.advance(Duration.ofNanos(350));
    assertThat(fired).containsExactly(100L, 200L, 300L);
    clock.jumpTo(clock.instant().plusNanos(1000));
    assertThat(fired).containsExactly(100L, 200L, 300L, 1350L);
  }
}
