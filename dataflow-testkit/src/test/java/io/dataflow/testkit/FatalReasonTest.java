package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.Backoff;
import io.dataflow.core.DataflowException;
import io.dataflow.core.ExitReport;
import io.dataflow.core.FatalReason;
import io.dataflow.core.internal.FailureGate;
import io.dataflow.reconfig.CutoverStep;
import io.dataflow.reconfig.ReconfigurationRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Every fatal cause becomes one reason: what failed, the advice, and what a restart can do. */
class FatalReasonTest {
  private static final String COUNTER = "in x\nout z\nz = default(z[1], 0) + x";

  @Test
  void aRuntimeErrorInATickIsResumableAndSaysTheSameInputFailsAgain() {
    try (DataflowHarness h = DataflowHarness.forSpec("in x\nout z\nz = 10 / x").build()) {
      h.tick("x", 1).tick("x", 0);
      ExitReport r = h.awaitTermination();
      assertThat(r.fatal().kind()).isEqualTo(FatalReason.Kind.TICK);
      assertThat(r.fatal().component()).isEqualTo("monitor");
      assertThat(r.fatal().message()).contains("division by zero");
      assertThat(r.fatal().resumable()).isTrue();
      assertThat(r.fatal().advice()).contains("same input fails again");
    }
  }

  @Test
  void aSinkUnreachablePastItsRetriesIsResumableAndCountsTheAttempts() {
    ScriptedSink broken = new ScriptedSink("broken", new CallLog())
        .failRetryably(ScriptedSink.Call.FEED, 1, 100);
    Backoff backoff = new Backoff(Duration.ofMillis(10), Duration.ofMillis(40), 2.0, 3);
    try (DataflowHarness h = DataflowHarness.forSpec(COUNTER)
        .destination("broken", broken, null, backoff).build()) {
      h.tick("x", 1).advance(Duration.ofMillis(10)).advance(Duration.ofMillis(20));
      ExitReport r = h.awaitTermination();
      assertThat(r.fatal().kind()).isEqualTo(FatalReason.Kind.SINK);
      assertThat(r.fatal().component()).isEqualTo("sink:broken");
      assertThat(r.fatal().resumable()).isTrue();
      assertThat(r.fatal().advice()).contains("unreachable after 3 attempts");
    }
  }

  @Test
  void aFailingSourceIsResumable() {
    ScriptedSource source = new ScriptedSource("feed", new CallLog())
        .batch(Values.row("x", 1)).fail("disk gone");
    try (DataflowHarness h = DataflowHarness.forSpec(COUNTER).source(source).build()) {
      ExitReport r = h.awaitTermination();
      assertThat(r.fatal().kind()).isEqualTo(FatalReason.Kind.SOURCE);
      assertThat(r.fatal().component()).isEqualTo("source:feed");
      assertThat(r.fatal().message()).isEqualTo("disk gone");
      assertThat(r.fatal().resumable()).isTrue();
    }
  }

  @Test
  void aRefusedRequestChangedNothingAndStaysResumable() {
    try (DataflowHarness h = DataflowHarness.forSpec(COUNTER).build()) {
      h.tick("x", 1);
      assertThatThrownBy(() -> h.reconfigure("in x\nout z\nz = y"))
          .isInstanceOf(IllegalStateException.class);
      FatalReason f = h.exitReport().fatal();
      assertThat(f.kind()).isEqualTo(FatalReason.Kind.REQUEST);
      assertThat(f.component()).isEqualTo("control");
      assertThat(f.resumable()).isTrue();
      assertThat(f.advice()).contains("before anything changed");
    }
  }

  @Test
  void aCutoverThatFailsPartWayNamesTheStepsThatStayApplied() {
    try (DataflowHarness h = DataflowHarness.forSpec(COUNTER).cutoverObserver(step -> {
      if (step == CutoverStep.APPLY_MONITOR) {
        throw new IllegalStateException("injected");
      }
    }).build()) {
      h.tick("x", 1);
      assertThatThrownBy(() -> h.reconfigure(new ReconfigurationRequest(
          "in x\nout z\nz = 2 * x", null, null, "ops"))).isInstanceOf(IllegalStateException.class);
      FatalReason f = h.exitReport().fatal();
      assertThat(f.kind()).isEqualTo(FatalReason.Kind.CUTOVER);
      assertThat(f.component()).isEqualTo("control");
      assertThat(f.message()).isEqualTo("injected");
      assertThat(f.resumable()).isTrue();
      assertThat(f.advice()).contains("from ops")
          .contains("[REBIND_INPUT, FLUSH_ENGINE, REBIND_OUTPUT] stay applied");
    }
  }

  @Test
  void aSourceThatCannotOpenIsAStartupFailure() {
    ScriptedSource source = new ScriptedSource("feed", new CallLog()).failOnOpen();
    try (DataflowHarness h = DataflowHarness.forSpec(COUNTER).source(source).build()) {
      ExitReport r = h.awaitTermination();
      assertThat(r.fatal().kind()).isEqualTo(FatalReason.Kind.STARTUP);
      assertThat(r.fatal().resumable()).isTrue();
    }
  }

  @Test
  void anErrorInsideTheLibrarySetsTheCheckpointAside() {
    FatalReason f = FatalReason.of("runtime", new IllegalStateException("bug"));
    assertThat(f.kind()).isEqualTo(FatalReason.Kind.INTERNAL);
    assertThat(f.resumable()).isFalse();
    assertThat(f.line()).isEqualTo("runtime failed: bug. " + f.advice());
  }

  @Test
  void anOperatorCancelIsNoFatalReason() {
    try (DataflowHarness h = DataflowHarness.forSpec(COUNTER).build()) {
      ExitReport r = h.tick("x", 1).cancel("maintenance");
      assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.CANCELLED);
      assertThat(r.fatal()).isNull();
    }
  }

  @Test
  void theReasonIsReportedOnceWhenManyThreadsFailTogether() throws Exception {
    for (int round = 0; round < 50; round++) {
      List<FatalReason> reported = new CopyOnWriteArrayList<>();
      FailureGate gate = new FailureGate(reported::add);
      int threads = 8;
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> all = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int id = t;
        Thread th = new Thread(() -> {
          try {
            if (start.await(10, TimeUnit.SECONDS)) {
              gate.fail("sink:s" + id, new DataflowException("down " + id));
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
        all.add(th);
        th.start();
      }
      start.countDown();
      for (Thread th : all) {
        th.join(10_000);
        assertThat(th.isAlive()).isFalse();
      }
      assertThat(reported).hasSize(1);
      assertThat(gate.get().fatal()).isSameAs(reported.get(0));
      // The others are attached to the first, never lost.
      assertThat(gate.get().cause().getSuppressed()).hasSize(threads - 1);
    }
  }

  /**
   * Catches: a runtime that forgets its point of no return in the exit report (an operator
   * could then restart a run whose publication had started), and an operator cancel past it
   * reported as anything but a cancel.
   */
  @Test
  void theExitReportSaysWhenTheRunPassedItsPointOfNoReturn() {
    try (DataflowHarness h = DataflowHarness.forSpec("in x\nout z\nz = x").build()) {
      h.tick("x", 1);
      assertThat(h.finish().durableMutation()).isFalse();
    }
    try (DataflowHarness h = DataflowHarness.forSpec("in x\nout z\nz = x").build()) {
      h.tick("x", 1);
      ((io.dataflow.core.internal.OwnerLoop) h.runtime()).pointOfNoReturn();
      io.dataflow.core.ExitReport r = h.cancel("maintenance");
      assertThat(r.durableMutation()).isTrue();
      assertThat(r.outcome()).isEqualTo(io.dataflow.core.ExitReport.Outcome.CANCELLED);
    }
  }
}
