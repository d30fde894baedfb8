package io.dataflow.testkit;

import static io.dataflow.testkit.OutputTraceAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Backoff;
import io.dataflow.core.ExitReport;
import io.dataflow.core.RuntimeState;
import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import io.dataflow.io.AsyncOutputWriter;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The owner loop's lifecycle and failure handling, stepped on a manual clock. */
class RuntimeLifecycleTest {
  private static final String ADD = "in x\nin y\nout z\nz = x + y";

  @Test
  void evaluatesSubmittedTicksWithSampleAndHoldAndCompletesAtEndOfInput() {
    try (DataflowHarness h = DataflowHarness.forSpec(ADD).build()) {
      h.tick("x", 1, "y", 10).tick("y", 20).emptyTick().tick("x", 4, "y", 40);
      assertThat(h.trace()).hasValues("z", 11, 21, 21, 44);
      ExitReport r = h.finish();
      assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.COMPLETED);
      assertThat(r.ticksIn()).isEqualTo(4);
      assertThat(r.ticksOut()).isEqualTo(4);
      assertThat(r.drain().complete()).isTrue();
    }
  }

  @Test
  void sinkFailingOnFeedFailsTheRunNamingTheSinkAndKeepsEarlierRows() {
    CallLog log = new CallLog();
    ScriptedSink sink = new ScriptedSink("out", log).failOn(ScriptedSink.Call.FEED, 3);
    try (DataflowHarness h = DataflowHarness.forSpec(ADD).destination("out", sink).build()) {
      h.tick("x", 1, "y", 1).tick("x", 2).tick("x", 3);
      // After the failure the runtime admits nothing more.
      assertThat(h.offer(Tick.of("x", Value.of(4)))).isFalse();
      ExitReport r = h.awaitTermination();
      assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.FAILED);
      assertThat(r.component()).isEqualTo("sink:out");
      assertThat(r.reason()).contains("injected feed failure");
      assertThat(sink.ticks()).containsExactly(0L, 1L);
      assertThat(r.ticksIn()).isEqualTo(3);
      assertThat(log.entries("sink:out")).endsWith("sink:out close");
    }
  }

  @Test
  void sinkFailingOnFlushFailsTheRun() {
    ScriptedSink sink = new ScriptedSink("out", new CallLog()).failOn(ScriptedSink.Call.FLUSH, 2);
    try (DataflowHarness h = DataflowHarness.forSpec(ADD).destination("out", sink).build()) {
      h.tick("x", 1, "y", 1).tick("x", 2);
      ExitReport r = h.awaitTermination();
      assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.FAILED);
      assertThat(r.component()).isEqualTo("sink:out");
      assertThat(r.reason()).contains("injected flush failure");
      assertThat(sink.ticks()).containsExactly(0L, 1L);
    }
  }

  @Test
  void sinkFailingOnCloseFailsAnOtherwiseCompleteRun() {
    ScriptedSink sink = new ScriptedSink("out", new CallLog()).failOn(ScriptedSink.Call.CLOSE, 1);
    try (DataflowHarness h = DataflowHarness.forSpec(ADD).destination("out", sink).build()) {
      h.tick("x", 1, "y", 1);
      ExitReport r = h.finish();
      assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.FAILED);
      assertThat(r.component()).isEqualTo("sink");
      assertThat(r.reason()).contains("injected close failure");
      assertThat(sink.ticks()).containsExactly(0L);
      assertThat(h.trace()).hasValues("z", 2);
    }
  }

  @Test
  void sourceFailingMidBatchFailsTheRunAfterEverythingItDeliveredBefore() {
    CallLog log = new CallLog();
    ScriptedSource source = new ScriptedSource("feed", log)
        .batch(Values.row("x", 1, "y", 1), Values.row("x", 2))
        .fail("connection reset")
        .batch(Values.row("x", 9));
    try (DataflowHarness h = DataflowHarness.forSpec(ADD).source(source).build()) {
      ExitReport r = h.awaitTermination();
      assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.FAILED);
      assertThat(r.component()).isEqualTo("source:feed");
      assertThat(r.reason()).isEqualTo("connection reset");
      assertThat(h.trace()).hasValues("z", 2, 3);
      assertThat(log.entries()).containsExactly("source:feed open", "source:feed batch 0",
          "source:feed fail", "source:feed close");
    }
  }

  @Test
  void shutdownWithASinkThatNeverCompletesEndsByTheDeadlineAndReportsAbandonedRows()
      throws Exception {
    ManualClock clock = new ManualClock();
    ScriptedSink slow = new ScriptedSink("slow", new CallLog()).blockFeedsFrom(2);
    AsyncOutputWriter async = new AsyncOutputWriter(slow, 64, Thread::new);
    try (DataflowHarness h = DataflowHarness.forSpec(ADD).clock(clock)
        .closeGrace(Duration.ofMillis(50)).destination("slow", async).build()) {
      h.tick("x", 1, "y", 1).tick("x", 2).tick("x", 3).tick("x", 4);
      assertThat(slow.awaitBlocked(Duration.ofSeconds(5))).isTrue();
      long before = clock.nanoTime();
      ExitReport r = h.stop(Duration.ofSeconds(3));
      assertThat(r.drain().complete()).isFalse();
      // Tick 1 is stuck in the sink, ticks 2 and 3 still queued in front of it.
      assertThat(r.drain().abandonedRows()).isEqualTo(3);
      assertThat(r.warnings()).anyMatch(w -> w.contains("3 rows abandoned"));
      // Lost rows are a failure, never COMPLETED.
      assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.FAILED);
      assertThat(r.isCompleted()).isFalse();
      assertThat(r.component()).isEqualTo("sink");
      assertThat(r.reason()).contains("3 rows abandoned");
      assertThat(clock.nanoTime() - before).isEqualTo(Duration.ofSeconds(3).toNanos());
      assertThat(slow.ticks()).containsExactly(0L);
    } finally {
      slow.release();
    }
  }

  @Test
  void fullIngressQueueRefusesOffersAndReportsThem() {
    try (DataflowHarness h = DataflowHarness.forSpec(ADD).options(o -> o.withIngressCapacity(4)).build()) {
      int accepted = 0;
      for (int i = 0; i < 10; i++) {
        if (h.offer(Tick.of("x", Value.of(i)))) {
          accepted++;
        }
      }
      assertThat(accepted).isEqualTo(4);
      h.runUntilIdle();
      assertThat(h.status().rejectedOffers()).isEqualTo(6);
      assertThat(h.status().ticksIn()).isEqualTo(4);
      ExitReport r = h.finish();
      assertThat(r.warnings()).contains("6 offers were refused because the ingress queue was full");
    }
  }

  @Test
  void operatorCancelIsDistinguishableFromAFailure() {
    try (DataflowHarness h = DataflowHarness.forSpec(ADD).build()) {
      h.tick("x", 1, "y", 1);
      ExitReport r = h.cancel("maintenance");
      assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.CANCELLED);
      assertThat(r.component()).isEqualTo("operator");
      assertThat(r.reason()).isEqualTo("cancelled: maintenance");
      assertThat(h.trace()).hasValues("z", 2);
    }
  }

  @Test
  void ticksStillQueuedWhenTheRunEndsAreReported() {
    try (DataflowHarness h = DataflowHarness.forSpec(ADD).build()) {
      h.tick("x", 1, "y", 1);
      for (int i = 0; i < 3; i++) {
        assertThat(h.offer(Tick.of("x", Value.of(i)))).isTrue(); // admitted, not yet evaluated
      }
      ExitReport r = h.cancel("maintenance");
      assertThat(r.ticksIn()).isEqualTo(1);
      assertThat(r.warnings()).contains("3 ticks and 0 control requests admitted to the "
          + "ingress queue were not evaluated (the run ended first)");
    }
  }

  @Test
  void gracefulStopEvaluatesAdmittedInputBeforeClosing() {
    try (DataflowHarness h = DataflowHarness.forSpec(ADD).build()) {
      h.tick("x", 1, "y", 1);
      h.offer(Tick.of("x", Value.of(5)));
      h.offer(Tick.of("x", Value.of(6)));
      ExitReport r = h.stop(Duration.ofSeconds(1));
      assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.COMPLETED);
      assertThat(h.trace()).hasValues("z", 2, 6, 7);
      assertThat(h.status().state()).isEqualTo(RuntimeState.TERMINATED);
    }
  }

  @Test
  void firstFatalErrorWinsAndLaterOnesAreAttached() {
    ScriptedSink a = new ScriptedSink("a", new CallLog()).failOn(ScriptedSink.Call.FEED, 1);
    ScriptedSink b = new ScriptedSink("b", new CallLog()).failOn(ScriptedSink.Call.CLOSE, 1);
    try (DataflowHarness h = DataflowHarness.forSpec(ADD).destination("a", a)
        .destination("b", b).build()) {
      h.tick("x", 1, "y", 1);
      ExitReport r = h.awaitTermination();
      assertThat(r.component()).isEqualTo("sink:a");
      assertThat(r.cause().getSuppressed()).isNotEmpty();
    }
  }

  @Test
  void retryableSinkIsRetriedWithBackoffOnTheClockAndLosesNothing() {
    ManualClock clock = new ManualClock();
    ScriptedSink flaky = new ScriptedSink("flaky", new CallLog())
        .failRetryably(ScriptedSink.Call.FEED, 2, 2);
    Backoff backoff = new Backoff(Duration.ofMillis(10), Duration.ofMillis(40), 2.0, 5);
    try (DataflowHarness h = DataflowHarness.forSpec(ADD).clock(clock)
        .destination("flaky", flaky, null, backoff).build()) {
      h.tick("x", 1, "y", 1).tick("x", 2).tick("x", 3);
      assertThat(flaky.ticks()).containsExactly(0L);
      h.advance(Duration.ofMillis(10)); // first retry fails again
      assertThat(flaky.ticks()).containsExactly(0L);
      h.advance(Duration.ofMillis(20)); // second retry succeeds and replays in order
      assertThat(flaky.ticks()).containsExactly(0L, 1L, 2L);
      assertThat(h.finish().outcome()).isEqualTo(ExitReport.Outcome.COMPLETED);
    }
  }

  @Test
  void rowsAwaitingARetryAtShutdownAreWrittenOnceByTheClose() {
    ScriptedSink flaky = new ScriptedSink("flaky", new CallLog())
        .failRetryably(ScriptedSink.Call.FEED, 1, 2);
    Backoff backoff = new Backoff(Duration.ofMillis(10), Duration.ofMillis(40), 2.0, 5);
    try (DataflowHarness h = DataflowHarness.forSpec(ADD)
        .destination("flaky", flaky, null, backoff).build()) {
      h.tick("x", 1, "y", 1).tick("x", 2);
      // The retry timer is pending; the shutdown takes the retries over (no timer runs them).
      ExitReport r = h.finish();
      assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.COMPLETED);
      assertThat(flaky.ticks()).containsExactly(0L, 1L);
    }
  }

  @Test
  void retryableSinkGivesUpAfterTheLastAttemptListingEveryAttempt() {
    CallLog log = new CallLog();
    ScriptedSink broken = new ScriptedSink("broken", log)
        .failRetryably(ScriptedSink.Call.FEED, 1, 100);
    Backoff backoff = new Backoff(Duration.ofMillis(10), Duration.ofMillis(40), 2.0, 3);
    try (DataflowHarness h = DataflowHarness.forSpec(ADD)
        .destination("broken", broken, Set.of("z"), backoff).build()) {
      h.tick("x", 1, "y", 1);
      h.advance(Duration.ofMillis(10)).advance(Duration.ofMillis(20));
      ExitReport r = h.awaitTermination();
      assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.FAILED);
      assertThat(r.reason()).contains("attempt 1: ", "attempt 2: ", "attempt 3: ");
      // A destination that gave up is still closed, to release what it holds.
      assertThat(log.entries()).contains("sink:broken close");
    }
  }

  @Test
  void abandonedRowsAreCountedThroughARetryWrapperToo() throws Exception {
    ManualClock clock = new ManualClock();
    ScriptedSink slow = new ScriptedSink("slow", new CallLog()).blockFeedsFrom(2);
    AsyncOutputWriter async = new AsyncOutputWriter(slow, 64, Thread::new);
    Backoff backoff = new Backoff(Duration.ofMillis(10), Duration.ofMillis(40), 2.0, 3);
    try (DataflowHarness h = DataflowHarness.forSpec(ADD).clock(clock)
        .closeGrace(Duration.ofMillis(50)).destination("slow", async, null, backoff).build()) {
      h.tick("x", 1, "y", 1).tick("x", 2).tick("x", 3).tick("x", 4);
      assertThat(slow.awaitBlocked(Duration.ofSeconds(5))).isTrue();
      ExitReport r = h.stop(Duration.ofSeconds(3));
      assertThat(r.drain().complete()).isFalse();
      assertThat(r.drain().abandonedRows()).isEqualTo(3);
      assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.FAILED);
    } finally {
      slow.release();
    }
  }

  @Test
  void aPeriodicStatusLineReportsOneConsistentStatusWithRatesOnTheClock() {
    try (DataflowHarness h = DataflowHarness.forSpec(ADD)
        .options(o -> o.withStatusEvery(Duration.ofSeconds(5))).build()) {
      for (int i = 0; i < 10; i++) {
        h.tick("x", i, "y", 1);
      }
      assertThat(h.statusLines()).isEmpty(); // nothing before the first period
      h.advance(Duration.ofSeconds(5));
      assertThat(h.statusLines()).containsExactly("status state=RUNNING ticks_in=10 (2/s) "
          + "ticks_out=10 (2/s) queue=0 rejected=0 monitor_revision=0 interface_revision=0");
      for (int i = 0; i < 5; i++) {
        h.tick("x", i, "y", 1);
      }
      h.reconfigure(ADD + "\n");
      h.advance(Duration.ofSeconds(5));
      assertThat(h.statusLines()).hasSize(2).last().isEqualTo("status state=RUNNING "
          + "ticks_in=15 (1/s) ticks_out=15 (1/s) queue=0 rejected=0 monitor_revision=1 "
          + "interface_revision=0");
      h.advance(Duration.ofSeconds(4));
      assertThat(h.statusLines()).hasSize(2); // the next one is due at 15 s
    }
  }

  @Test
  void noStatusLineUnlessAsked() {
    try (DataflowHarness h = DataflowHarness.forSpec(ADD).build()) {
      h.tick("x", 1, "y", 1).advance(Duration.ofMinutes(10));
      assertThat(h.statusLines()).isEmpty();
    }
  }

  @Test
  void theRuntimeCountsTheItemsItTookFromEachSourceForACheckpointsPositions() {
    ScriptedSource feed = new ScriptedSource("feed", new CallLog())
        .batch(Values.row("x", 1, "y", 1), Values.row("x", 2, "y", 2))
        .control(io.dataflow.reconfig.ReconfigurationRequest.of(ADD + "\n"))
        .batch(Values.row("x", 3, "y", 3)).neverEnd();
    try (DataflowHarness h = DataflowHarness.forSpec(ADD).source(feed).build()) {
      h.tick("x", 9, "y", 9);
      io.dataflow.core.internal.OwnerLoop loop = (io.dataflow.core.internal.OwnerLoop) h.runtime();
      // Three ticks and one control item from the source, one tick through the handle.
      assertThat(loop.consumedItems()).containsExactly(java.util.Map.entry("api", 1L),
          java.util.Map.entry("feed", 4L));
    }
  }

  /** A runtime on its own thread and a manual clock, fed {@code ticks} ticks. */
  private static io.dataflow.core.DataflowRuntime startedOnManualClock(ManualClock clock,
      io.dataflow.io.Sinks.Collecting out, int ticks) {
    io.dataflow.core.DataflowRuntime runtime = io.dataflow.reconfig
        .ReconfigurableDataflowRuntimeBuilder.create().specification("add.dsrv", ADD)
        .clock(clock).destination("out", out).build();
    runtime.start();
    for (int i = 0; i < ticks; i++) {
      runtime.submit(Tick.of(java.util.Map.of("x", Value.of(i), "y", Value.of(1))),
          Duration.ofSeconds(5));
    }
    return runtime;
  }

  @Test
  void waitingOnAThreadedRuntimeNeverMovesItsManualClock() throws Exception {
    ManualClock clock = new ManualClock();
    io.dataflow.io.Sinks.Collecting out = io.dataflow.io.Sinks.collecting();
    io.dataflow.core.DataflowRuntime runtime = startedOnManualClock(clock, out, 1000);
    runtime.endOfInput();
    ExitReport r = runtime.awaitTermination(Duration.ofSeconds(5));
    assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.COMPLETED);
    assertThat(r.ticksIn()).isEqualTo(1000);
    assertThat(out.rows()).hasSize(1000);
    assertThat(clock.nanoTime()).isZero(); // the waits read the clock; they did not move it
  }

  @Test
  void closingAThreadedRuntimeOnAManualClockStopsGracefully() {
    ManualClock clock = new ManualClock();
    io.dataflow.core.DataflowRuntime runtime = startedOnManualClock(clock,
        io.dataflow.io.Sinks.collecting(), 500);
    runtime.close();
    ExitReport r = runtime.exitReport();
    assertThat(r).isNotNull();
    assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.COMPLETED);
    assertThat(r.ticksIn()).isEqualTo(500);
    assertThat(clock.nanoTime()).isZero();
  }
}
