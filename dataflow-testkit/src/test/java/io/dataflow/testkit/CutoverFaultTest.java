package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.ExitReport;
import io.dataflow.core.Monitor;
import io.dataflow.reconfig.Bindings;
import io.dataflow.reconfig.CutoverStep;
import io.dataflow.reconfig.IoSpec;
import io.dataflow.reconfig.ReconfigurationRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
        .cutoverObserver((step, plan) -> log.record("step " + step)).build()) {
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
        .cutoverObserver((step, plan) -> {
          if (step == CutoverStep.APPLY_MONITOR) {
            throw new IllegalStateException("injected transfer failure");
          }
        }).build()) {
      Monitor before = h.runtime().activeMonitor();
      ExitReport r = failingCutover(h, out, new ReconfigurationRequest(NEXT,
          new Bindings(endpoints("added", scripted("added")), null),
          new Bindings(endpoints("collected", IoSpec.KEEP, "out", IoSpec.KEEP,
              "extra", scripted("extra")), null), "test"));
      assertThat(log.entries("source:added")).startsWith("source:added open");
      assertThat(log.entries("sink:extra")).endsWith("sink:extra close");
      assertThat(h.runtime().activeMonitor()).isSameAs(before);
      assertThat(r.reason()).contains("injected transfer failure");
    }
  }

  @Test
  void everythingIsAppliedWhenAcknowledgementDeliveryFails() {
    ScriptedSink out = new ScriptedSink("out", log);
    try (DataflowHarness h = DataflowHarness.forSpec(SPEC).destination("out", out)
        .cutoverObserver((step, plan) -> {
          if (step == CutoverStep.ACKNOWLEDGE) {
            throw new IllegalStateException("injected acknowledgement failure");
          }
        }).build()) {
      Monitor before = h.runtime().activeMonitor();
      ExitReport r = failingCutover(h, out, new ReconfigurationRequest(
          "in x\nin y\nout z\nz = default(z[1], 0) + 2 * x", null, null, "test"));
      assertThat(h.runtime().activeMonitor()).isNotSameAs(before);
      assertThat(h.runtime().activeMonitor().inputs().names()).containsExactly("x", "y");
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
      Monitor before = h.runtime().activeMonitor();
      ExitReport r = failingCutover(h, out, new ReconfigurationRequest(SPEC,
          new Bindings(endpoints("new", IoSpec.of("nonsense", Map.of())), null), null, "test"));
      assertThat(r.reason()).contains("unknown type 'nonsense'");
      assertThat(h.runtime().activeMonitor()).isSameAs(before);
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
}
