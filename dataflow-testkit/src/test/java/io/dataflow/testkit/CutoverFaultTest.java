package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.ExitReport;
import io.dataflow.core.spi.Monitor;
import io.dataflow.core.RuntimeState;
import io.dataflow.reconfig.AckQueue;
import io.dataflow.reconfig.ReconfigurationAck;
import io.dataflow.reconfig.Bindings;
import io.dataflow.reconfig.CutoverStep;
import io.dataflow.reconfig.IoSpec;
import io.dataflow.reconfig.ReconfigurationRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Each reachable partial state of a cutover, produced by an injected fault. The cutover has no
 * rollback: earlier steps stay applied, the run ends after draining its output, and no row is
 * lost or written twice.
 */
class CutoverFaultTest {
  private static final String SPEC = "in x\nout z\nz = default(z[1], 0) + x";
  private static final String NEXT = "in x\nout z\nz = default(z[1], 0) + 2 * x";

  private final CallLog log = new CallLog();

  private static Map<String, IoSpec> endpoints(Object... namesAndSpecs) {
    Map<String, IoSpec> m = new LinkedHashMap<>();
    for (int i = 0; i < namesAndSpecs.length; i += 2) {
      m.put((String) namesAndSpecs[i], (IoSpec) namesAndSpecs[i + 1]);
    }
    return m;
  }

  private static IoSpec scripted(String ref) {
    return IoSpec.of("scripted", Map.of("ref", ref));
  }

  /** Runs two ticks, applies {@code request}, expects it to fail, and checks the drain. */
  private ExitReport failingCutover(DataflowHarness h, ScriptedSink out,
      ReconfigurationRequest request) {
    h.tick("x", 1).tick("x", 2);
    assertThatThrownBy(() -> h.reconfigure(request)).isInstanceOf(IllegalStateException.class);
    ExitReport r = h.awaitTermination();
    assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.FAILED);
    assertThat(r.component()).isEqualTo("control");
    // Nothing lost, nothing twice: exactly the two ticks before the request, then closed.
    assertThat(out.ticks()).containsExactly(0L, 1L);
    assertThat(h.trace().lines()).containsExactly("z[0] = Int(1)", "z[1] = Int(3)");
    assertThat(log.entries("sink:out")).last().isEqualTo("sink:out close");
    return r;
  }

  @Test
  void removedInputsAreDetachedWhenAnAdditionFails() {
    ScriptedSink out = new ScriptedSink("out", log);
    ScriptedSource old = new ScriptedSource("old", log).neverEnd();
    try (DataflowHarness h = DataflowHarness.forSpec(SPEC).source(old).destination("out", out)
        .ioFactory(new ScriptedIoFactory().failCreating("new"))
        .cutoverObserver(step -> log.record("step " + step)).build()) {
      ExitReport r = failingCutover(h, out, new ReconfigurationRequest(SPEC,
          new Bindings(endpoints("new", scripted("new")), null), null, "test"));
      // Detached during the cutover (once), before the shutdown closed the output.
      assertThat(log.entries()).containsSubsequence("step REBIND_INPUT", "source:old close",
          "sink:out close");
      assertThat(log.entries("source:")).containsExactly("source:old open",
          "source:old close");
      assertThat(r.reason()).contains("injected failure creating source new");
    }
  }

  @Test
  void inputIsCommittedWhenAnOutputUpdateFails() {
    ScriptedSink out = new ScriptedSink("out", log);
    ScriptedSource added = new ScriptedSource("added", log).neverEnd();
    ScriptedIoFactory io = new ScriptedIoFactory().source("added", added).failCreating("sink2");
    try (DataflowHarness h = DataflowHarness.forSpec(SPEC).destination("out", out).ioFactory(io)
        .build()) {
      failingCutover(h, out, new ReconfigurationRequest(SPEC,
          new Bindings(endpoints("added", scripted("added")), null),
          new Bindings(endpoints("collected", IoSpec.KEEP, "out", IoSpec.KEEP,
              "second", scripted("sink2")), null), "test"));
      assertThat(log.entries("source:added")).startsWith("source:added open")
          .endsWith("source:added close");
    }
  }

  @Test
  void anEarlierDestinationIsUpdatedWhenALaterOneFails() {
    ScriptedSink out = new ScriptedSink("out", log);
    ScriptedSink first = new ScriptedSink("first", log);
    ScriptedIoFactory io = new ScriptedIoFactory().writer("first", first).failCreating("last");
    try (DataflowHarness h = DataflowHarness.forSpec(SPEC).destination("out", out).ioFactory(io)
        .build()) {
      failingCutover(h, out, new ReconfigurationRequest(SPEC, null,
          new Bindings(endpoints("collected", IoSpec.KEEP, "out", IoSpec.KEEP,
              "first", scripted("first"), "last", scripted("last")), null), "test"));
      // The first destination was added (and is closed with the rest at shutdown).
      assertThat(log.entries("sink:first")).containsExactly("sink:first flush",
          "sink:first close");
      assertThat(first.ticks()).isEmpty();
    }
  }

  @Test
  void inputAndOutputAreChangedWhenTheMonitorTransferFails() {
    ScriptedSink out = new ScriptedSink("out", log);
    ScriptedSink extra = new ScriptedSink("extra", log);
    ScriptedSource added = new ScriptedSource("added", log).neverEnd();
    ScriptedIoFactory io = new ScriptedIoFactory().source("added", added).writer("extra", extra);
    try (DataflowHarness h = DataflowHarness.forSpec(SPEC).destination("out", out).ioFactory(io)
        .cutoverObserver(step -> {
          if (step == CutoverStep.APPLY_MONITOR) {
            throw new IllegalStateException("injected transfer failure");
          }
        }).build()) {
      Monitor before = h.activeMonitor();
      ExitReport r = failingCutover(h, out, new ReconfigurationRequest(NEXT,
          new Bindings(endpoints("added", scripted("added")), null),
          new Bindings(endpoints("collected", IoSpec.KEEP, "out", IoSpec.KEEP,
              "extra", scripted("extra")), null), "test"));
      assertThat(log.entries("source:added")).startsWith("source:added open");
      assertThat(log.entries("sink:extra")).endsWith("sink:extra close");
      assertThat(h.activeMonitor()).isSameAs(before);
      assertThat(r.reason()).contains("injected transfer failure");
    }
  }

  @Test
  void everythingIsAppliedWhenAcknowledgementDeliveryFails() {
    ScriptedSink out = new ScriptedSink("out", log);
    try (DataflowHarness h = DataflowHarness.forSpec(SPEC).destination("out", out)
        .cutoverObserver(step -> {
          if (step == CutoverStep.ACKNOWLEDGE) {
            throw new IllegalStateException("injected acknowledgement failure");
          }
        }).build()) {
      Monitor before = h.activeMonitor();
      ExitReport r = failingCutover(h, out, new ReconfigurationRequest(
          "in x\nin y\nout z\nz = default(z[1], 0) + 2 * x", null, null, "test"));
      assertThat(h.activeMonitor()).isNotSameAs(before);
      assertThat(h.activeMonitor().inputs().names()).containsExactly("x", "y");
      assertThat(r.monitorRevision().root()).isEqualTo(1);
      assertThat(r.interfaceRevision()).isEqualTo(1);
      assertThat(r.reason()).contains("injected acknowledgement failure");
    }
  }

  @Test
  void aFailedPlanLeavesEveryActiveStructureAsItWas() {
    ScriptedSink out = new ScriptedSink("out", log);
    ScriptedSource old = new ScriptedSource("old", log).neverEnd();
    ScriptedIoFactory io = new ScriptedIoFactory();
    try (DataflowHarness h = DataflowHarness.forSpec(SPEC).source(old).destination("out", out)
        .ioFactory(io).build()) {
      Monitor before = h.activeMonitor();
      ExitReport r = failingCutover(h, out, new ReconfigurationRequest(SPEC,
          new Bindings(endpoints("new", IoSpec.of("nonsense", Map.of())), null), null, "test"));
      assertThat(r.reason()).contains("unknown type 'nonsense'");
      assertThat(h.activeMonitor()).isSameAs(before);
      // Planning opened nothing and detached nothing: the old source is closed only at shutdown.
      assertThat(log.entries()).containsSubsequence("sink:out flush", "source:old close",
          "sink:out close");
      assertThat(log.entries("source:")).containsExactly("source:old open",
          "source:old close");
      assertThat(r.monitorRevision().root()).isZero();
      assertThat(r.interfaceRevision()).isZero();
      assertThat(List.of(log.entries("sink:out").get(0))).containsExactly("sink:out feed 0");
    }
  }

  @Test
  void theSevenApplicationStepsRunOnceEachInTheirFixedOrder() {
    List<CutoverStep> steps = new ArrayList<>();
    try (DataflowHarness h = DataflowHarness.forSpec(SPEC)
        .cutoverObserver(step -> steps.add(step)).build()) {
      h.tick("x", 1);
      h.reconfigure(NEXT);
      assertThat(steps).containsExactly(CutoverStep.REBIND_INPUT, CutoverStep.FLUSH_ENGINE,
          CutoverStep.REBIND_OUTPUT, CutoverStep.APPLY_MONITOR, CutoverStep.COMMIT_REVISIONS,
          CutoverStep.REBUILD_LAYOUTS, CutoverStep.ACKNOWLEDGE);
      steps.clear();
      h.reconfigure(NEXT); // RetainExact goes through the same seven steps
      assertThat(steps).hasSize(7).startsWith(CutoverStep.REBIND_INPUT)
          .endsWith(CutoverStep.ACKNOWLEDGE);
    }
  }

  @Test
  void ticksARemovedSourceAdmittedBehindTheBarrierAreEvaluatedByTheOldMonitor() {
    ScriptedSource old = new ScriptedSource("old", log).neverEnd();
    ScriptedSource kept = new ScriptedSource("kept", log).neverEnd();
    try (DataflowHarness h = DataflowHarness.forSpec(SPEC).source(old).source(kept)
        .cutoverObserver(step -> log.record("step " + step)).build()) {
      h.tick("x", 1);
      // The barrier is queued first; the removed source then admits two ticks behind it.
      h.runtime().submitControl(new ReconfigurationRequest(NEXT,
          new Bindings(endpoints("kept", IoSpec.KEEP), null), null, "test"), Duration.ZERO);
      old.batch(Values.row("x", 2)).batch(Values.row("x", 3));
      h.runUntilIdle();
      assertThat(log.entries("source:old")).containsExactly("source:old open",
          "source:old batch 0", "source:old batch 1", "source:old close");
      // The old monitor (z + x) evaluated both, then the candidate (z + 2x) took over.
      h.tick("x", 4);
      assertThat(h.trace().lines()).containsExactly("z[0] = Int(1)", "z[1] = Int(3)",
          "z[2] = Int(6)", "z[3] = Int(14)");
      List<ReconfigurationAck> acks = h.acknowledgements();
      assertThat(acks).hasSize(1);
      assertThat(acks.get(0).effectiveTick()).isEqualTo(3);
      // The source was closed before its admitted ticks were evaluated, and only once.
      assertThat(log.entries()).containsSubsequence("step REBIND_INPUT", "source:old close",
          "step FLUSH_ENGINE");
    }
  }

  @Test
  void ticksASourceWhoseStreamsChangeAdmittedBehindTheBarrierUseTheOldBindings() {
    ScriptedSource a = new ScriptedSource("a", log).neverEnd();
    ScriptedSource b = new ScriptedSource("b", log).neverEnd();
    String both = "in x\nin y\nout a\nout b\na = x\nb = y";
    String next = "in x\nin y\nout a\nout b\na = 2 * x\nb = 2 * y";
    try (DataflowHarness h = DataflowHarness.forSpec(both).source(a, Set.of("x"))
        .source(b, Set.of("y")).build()) {
      // y moves from b to a; b admitted y = 5 behind the request.
      h.runtime().submitControl(new ReconfigurationRequest(next,
          new Bindings(endpoints("a", IoSpec.KEEP, "b", IoSpec.KEEP), Map.of("y", "a")), null,
          "test"), Duration.ZERO);
      b.batch(Values.row("y", 5));
      h.runUntilIdle();
      a.batch(Values.row("x", 1));
      h.runUntilIdle();
      // y = 5 was b's to deliver when admitted: the old monitor echoes it; under the new
      // bindings it would have been dropped. Then the new monitor doubles a's x.
      assertThat(h.trace().lines()).containsExactly("b[0] = Int(5)", "a[1] = Int(2)");
      assertThat(h.warnings()).noneMatch(w -> w.contains("'y'"));
    }
  }

  @Test
  void aFaultInsideTheMonitorStepLeavesTheNewMonitorActiveWithoutCommittedRevisions() {
    // The transfer report is handed over inside the monitor step, after the swap.
    List<String> seen = new ArrayList<>();
    io.dataflow.core.DataflowRuntime runtime = io.dataflow.reconfig
        .ReconfigurableDataflowRuntimeBuilder.create().specification("spec.dsrv", SPEC)
        .clock(new ManualClock()).options(o -> o.withPolicy(io.dataflow.core.ExecutionPolicy.SYNCHRONOUS))
        .destination("out", io.dataflow.io.Sinks.callback(r -> seen.add(r.toString())))
        .acknowledgements(ack -> seen.add("ack"))
        .transferReports(r -> {
          throw new IllegalStateException("injected failure inside the transfer");
        }).build();
    runtime.offer(io.dataflow.core.Tick.of("x", io.dataflow.core.Value.of(1)));
    runtime.submitControl(new ReconfigurationRequest(
        "in x\nin y\nout z\nz = default(z[1], 0) + 2 * x", null, null, "test"), Duration.ZERO);
    runtime.offer(io.dataflow.core.Tick.of("x", io.dataflow.core.Value.of(2)));
    runtime.endOfInput();
    ExitReport r = runtime.runInCallerThread();
    assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.FAILED);
    assertThat(r.component()).isEqualTo("control");
    assertThat(r.reason()).contains("injected failure inside the transfer");
    // The candidate is active with its revision; the interface revision was not committed, no
    // acknowledgement went out, and the tick behind the request was not evaluated.
    assertThat(((io.dataflow.core.internal.OwnerLoop) runtime).activeMonitor().inputs().names())
        .containsExactly("x", "y");
    assertThat(r.monitorRevision().root()).isEqualTo(1);
    assertThat(r.interfaceRevision()).isZero();
    assertThat(seen).hasSize(1).noneMatch(e -> e.equals("ack"));
    assertThat(r.ticksIn()).isEqualTo(1);
  }

  @Test
  void aFullAcknowledgementQueueEndsTheRunWithEverythingElseApplied() {
    AckQueue full = new AckQueue(1);
    ScriptedSink out = new ScriptedSink("out", log);
    try (DataflowHarness h = DataflowHarness.forSpec(SPEC).destination("out", out)
        .acknowledgements(full).build()) {
      h.tick("x", 1);
      h.runtime().submitControl(ReconfigurationRequest.of(NEXT), Duration.ZERO);
      h.runUntilIdle();
      assertThat(h.status().state()).isEqualTo(RuntimeState.RUNNING);
      h.tick("x", 2);
      // Nobody reads the queue: the second acknowledgement does not fit.
      h.runtime().submitControl(ReconfigurationRequest.of(SPEC), Duration.ZERO);
      h.runUntilIdle();
      ExitReport r = h.exitReport();
      assertThat(r).isNotNull();
      assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.FAILED);
      assertThat(r.component()).isEqualTo("control");
      assertThat(r.reason()).isEqualTo("the acknowledgement queue is full (1)");
      assertThat(r.monitorRevision().root()).isEqualTo(2); // the monitor step was applied
      assertThat(full.poll().monitorRevision().root()).isEqualTo(1);
      assertThat(full.poll()).isNull();
      assertThat(h.trace().lines()).containsExactly("z[0] = Int(1)", "z[1] = Int(5)");
      assertThat(log.entries("sink:out")).last().isEqualTo("sink:out close");
    }
  }

  @Test
  void aClosedAcknowledgementQueueEndsTheRunWithEverythingElseApplied() {
    AckQueue closed = new AckQueue(8);
    closed.close();
    try (DataflowHarness h = DataflowHarness.forSpec(SPEC).acknowledgements(closed).build()) {
      h.tick("x", 1);
      h.runtime().submitControl(ReconfigurationRequest.of(NEXT), Duration.ZERO);
      h.tick("x", 2); // behind the request: never evaluated
      ExitReport r = h.exitReport();
      assertThat(r).isNotNull();
      assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.FAILED);
      assertThat(r.reason()).isEqualTo("the acknowledgement queue is closed");
      assertThat(r.monitorRevision().root()).isEqualTo(1);
      assertThat(h.trace().lines()).containsExactly("z[0] = Int(1)");
      assertThat(r.ticksIn()).isEqualTo(1);
    }
  }

  /** A push source whose context the test holds, to deliver after the source was removed. */
  private static final class HeldSource implements io.dataflow.core.spi.Source {
    io.dataflow.core.spi.SourceContext context;

    @Override
    public String name() {
      return "held";
    }

    @Override
    public void open(io.dataflow.core.spi.SourceContext ctx) {
      context = ctx;
    }

    @Override
    public void close() {}
  }

  @Test
  void whatARemovedSourceStillDeliversIsDroppedWithAWarningNotEvaluatedByTheNewMonitor() {
    HeldSource held = new HeldSource();
    ScriptedSource kept = new ScriptedSource("kept", log).neverEnd();
    try (DataflowHarness h = DataflowHarness.forSpec(SPEC).source(held).source(kept).build()) {
      h.tick("x", 1);
      h.reconfigure(new ReconfigurationRequest(NEXT,
          new Bindings(endpoints("kept", IoSpec.KEEP), null), null, "test"));
      // The removed source's thread was mid-offer when it was closed.
      assertThat(held.context.offer(io.dataflow.core.TickBatch.of(
          io.dataflow.core.Tick.of("x", io.dataflow.core.Value.of(100))))).isTrue();
      h.runUntilIdle();
      h.tick("x", 2);
      assertThat(h.trace().lines()).containsExactly("z[0] = Int(1)", "z[1] = Int(5)");
      assertThat(h.runtime().status().state()).isEqualTo(RuntimeState.RUNNING);
      ExitReport r = h.stop(Duration.ofSeconds(1));
      assertThat(r.warnings()).contains("source 'held' was removed by a reconfiguration; 1 ticks"
          + " it delivered after that were dropped");
    }
  }
}
