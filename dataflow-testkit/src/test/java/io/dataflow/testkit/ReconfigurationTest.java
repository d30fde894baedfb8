package io.dataflow.testkit;

import static io.dataflow.testkit.OutputTraceAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.ExitReport;
import io.dataflow.core.spi.Monitor;
import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import io.dataflow.reconfig.Bindings;
import io.dataflow.reconfig.IoSpec;
import io.dataflow.reconfig.ReconfigurationAck;
import io.dataflow.reconfig.ReconfigurationRequest;
import io.dataflow.reconfig.RejectPolicy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Live reconfiguration: plans, state transfer, revisions and acknowledgements. */
class ReconfigurationTest {
  private static final String COUNTER = "in x\nout z\nz = default(z[1], 0) + x";
  private static final String COUNTER_PLUS =
      "in x\nout z\nz = default(z[1], 0) + 1 + x - x";

  @Test
  void transferKeepsTheCounterRunningThroughAChangedDefinition() {
    try (DataflowHarness h = DataflowHarness.forSpec(COUNTER).build()) {
      h.tick("x", 1).tick("x", 2);
      ReconfigurationAck ack = h.reconfigure(COUNTER_PLUS);
      h.tick("x", 3).tick("x", 4);
      assertThat(h.trace()).hasValues("z", 1, 3, 4, 5);
      assertThat(ack.accepted()).isTrue();
      assertThat(ack.plan()).isEqualTo(ReconfigurationAck.Plan.TRANSFER);
      assertThat(ack.monitorRevision().root()).isEqualTo(1);
      assertThat(ack.interfaceRevision()).isZero();
      assertThat(ack.monitorChanged()).isTrue();
      assertThat(ack.interfaceChanged()).isFalse();
      assertThat(ack.effectiveTick()).isEqualTo(2);
      assertThat(h.lastTransferReport().initialized()).containsExactly("z");
      assertThat(h.lastTransferReport().transferred()).isEmpty();
      assertThat(h.lastTransferReport().historiesRetained()).containsExactly("z");
      assertThat(ack.toLine()).isEqualTo("ack monitor_revision=1 interface_revision=0 "
          + "monitor_changed=true interface_changed=false");
    }
  }

  @Test
  void withoutContextTransferTheReplacementStartsCold() {
    try (DataflowHarness h = DataflowHarness.forSpec(COUNTER).options(o -> o.withContextTransfer(false)).build()) {
      h.tick("x", 1).tick("x", 2);
      ReconfigurationAck ack = h.reconfigure(COUNTER_PLUS);
      h.tick("x", 3).tick("x", 4);
      assertThat(h.trace()).hasValues("z", 1, 3, 1, 2);
      assertThat(ack.plan()).isEqualTo(ReconfigurationAck.Plan.INSTALL_COLD);
      assertThat(ack.monitorRevision().root()).isEqualTo(1);
    }
  }

  @Test
  void retainExactRebuildsNothingKeepsAllStateAndAdvancesTheRevision() {
    String spec = "in x\nout z\nout seen\nz = default(z[1], 0) + x\nseen = when(x)";
    try (DataflowHarness h = DataflowHarness.forSpec(spec).build()) {
      h.tick("x", 5);
      Monitor before = h.activeMonitor();
      ReconfigurationAck ack = h.reconfigure("// same definitions, other layout\n"
          + "in x\nout z\nout seen\nseen = when(x)\nz = default(z[1], 0) + x\n");
      assertThat(h.activeMonitor()).isSameAs(before);
      assertThat(ack.plan()).isEqualTo(ReconfigurationAck.Plan.RETAIN_EXACT);
      assertThat(ack.monitorChanged()).isFalse();
      assertThat(ack.monitorRevision().root()).isEqualTo(1);
      h.emptyTick().tick("x", 1);
      // x is held through the empty tick (sample-and-hold), the sum keeps its history.
      assertThat(h.trace()).hasValues("z", 5, 10, 11);
      assertThat(h.trace()).hasValues("seen", true, true, true);
      assertThat(h.reconfigure(spec).monitorRevision().root()).isEqualTo(2);
    }
  }

  @Test
  void retainExactWithReorderedOutputsPrintsInTheNewDeclarationOrder() {
    try (DataflowHarness h = DataflowHarness.forSpec("in x\nout a\nout b\na = x\nb = x + 1")
        .build()) {
      h.tick("x", 1);
      ReconfigurationAck ack = h.reconfigure("in x\nout b\nout a\na = x\nb = x + 1");
      h.tick("x", 2);
      assertThat(ack.plan()).isEqualTo(ReconfigurationAck.Plan.RETAIN_EXACT);
      assertThat(h.trace()).hasLines("a[0] = Int(1)", "b[0] = Int(2)", "b[1] = Int(3)",
          "a[1] = Int(2)");
    }
  }

  @Test
  void aChangedStreamStartsColdWhileTheHistoryOfItsInputsSurvives() {
    String before = "in x\nout d\nout same\nd = x - default(x[1], 0)\n"
        + "same = default(same[1], 0) + x";
    String after = "in x\nout d\nout same\nd = x - default(x[1], 100)\n"
        + "same = default(same[1], 0) + x";
    try (DataflowHarness h = DataflowHarness.forSpec(before).build()) {
      h.tick("x", 10).tick("x", 15);
      ReconfigurationAck ack = h.reconfigure(after);
      h.tick("x", 17);
      // x[1] survived: d = 17 - 15, not 17 - 100; same kept its state as an exact match.
      assertThat(h.trace()).hasValues("d", 10, 5, 2);
      assertThat(h.trace()).hasValues("same", 10, 25, 42);
      assertThat(h.lastTransferReport().transferred()).containsExactly("same");
      assertThat(h.lastTransferReport().initialized()).containsExactly("d");
      assertThat(h.lastTransferReport().historiesRetained()).containsExactlyInAnyOrder("x", "same");
    }
  }

  @Test
  void aStreamWithoutOldHistoryHasNoneToGive() {
    try (DataflowHarness h = DataflowHarness.forSpec("in x\nout z\nz = x").build()) {
      h.tick("x", 1).tick("x", 2);
      h.reconfigure("in x\nout z\nz = x[1]");
      h.tick("x", 3).tick("x", 4);
      assertThat(h.trace()).hasLines("z[0] = Int(1)", "z[1] = Int(2)", "z[2] = Deferred",
          "z[3] = Int(3)");
    }
  }

  @Test
  void addingAndRemovingStreamsChangesTheInterfaceRevision() {
    try (DataflowHarness h = DataflowHarness.forSpec("in x\nout a\nout b\na = x\nb = x * 2")
        .build()) {
      h.tick("x", 1);
      ReconfigurationAck ack = h.reconfigure("in x\nin y\nout a\nout w\na = x\nw = y * 10");
      h.tick("x", 2, "y", 3);
      assertThat(ack.interfaceChanged()).isTrue();
      assertThat(ack.interfaceRevision()).isEqualTo(1);
      assertThat(h.lastTransferReport().transferred()).containsExactly("a");
      assertThat(h.trace()).hasLines("a[0] = Int(1)", "b[0] = Int(2)", "a[1] = Int(2)",
          "w[1] = Int(30)");
      assertThat(h.status().interfaceRevision()).isEqualTo(1);
      ReconfigurationAck same = h.reconfigure("in x\nin y\nout a\nout w\na = x\nw = y * 11");
      assertThat(same.interfaceChanged()).isFalse();
      assertThat(same.interfaceRevision()).isEqualTo(1);
      assertThat(same.monitorRevision().root()).isEqualTo(2);
    }
  }

  @Test
  void aDynamicBodyKeepsItsStateWhenItsStreamIsAnExactMatch() {
    String spec = "in x\nin e\nout z\nout other\nz = dynamic(e)\nother = x";
    try (DataflowHarness h = DataflowHarness.forSpec(spec).build()) {
      h.tick("x", 1, "e", "default(x[1], 0) + x").tick("x", 2);
      h.reconfigure("in x\nin e\nout z\nout other\nz = dynamic(e)\nother = x + 1");
      h.tick("x", 5);
      // The body's x[1] history started at activation and survived the request.
      assertThat(h.trace()).hasValues("z", 1, 3, 7);
    }
  }

  @Test
  void aRequestThatFailsToPlanEndsTheRunAfterEarlierRowsAndEvaluatesNothingAfter() {
    try (DataflowHarness h = DataflowHarness.forSpec(COUNTER).build()) {
      h.tick("x", 1);
      assertThatThrownBy(() -> h.reconfigure("in x\nout z\nz = y"))
          .hasMessageContaining("unknown stream 'y'");
      assertThat(h.offer(Tick.of("x", Value.of(2)))).isFalse();
      ExitReport r = h.awaitTermination();
      assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.FAILED);
      assertThat(r.component()).isEqualTo("control");
      assertThat(h.trace()).hasValues("z", 1);
    }
  }

  @Test
  void aRejectedRequestCanLeaveTheActiveConfigurationRunningUntouched() {
    try (DataflowHarness h = DataflowHarness.forSpec(COUNTER)
        .options(o -> o.withRejectPolicy(RejectPolicy.KEEP_RUNNING)).build()) {
      h.tick("x", 1);
      Monitor before = h.activeMonitor();
      ReconfigurationAck ack = h.reconfigure("in x\nout z\nz = y");
      assertThat(ack.accepted()).isFalse();
      assertThat(ack.reason()).contains("unknown stream 'y'");
      assertThat(ack.monitorRevision().root()).isZero();
      assertThat(h.activeMonitor()).isSameAs(before);
      h.tick("x", 2);
      assertThat(h.trace()).hasValues("z", 1, 3);
    }
  }

  @Test
  void aRequestThatEndsTheRunLeavesAFinalReportWhenReconfigureReturnsEveryTime() {
    // The closer thread finishes at its own pace; the harness must not return before it did.
    for (int run = 0; run < 1000; run++) {
      try (DataflowHarness h = DataflowHarness.forSpec(COUNTER).build()) {
        h.tick("x", 1);
        assertThatThrownBy(() -> h.reconfigure("in x\nout z\nz = y"))
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("the run ended: FAILED, control: ")
            .hasMessageContaining("unknown stream 'y'");
        ExitReport r = h.exitReport();
        assertThat(r).as("exit report after run %d", run).isNotNull();
        assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.FAILED);
        assertThat(r.component()).isEqualTo("control");
        assertThat(r.ticksOut()).isEqualTo(1);
        assertThat(h.status().state()).isEqualTo(io.dataflow.core.RuntimeState.TERMINATED);
      }
    }
  }

  @Test
  void requestsAreDecodedLeniently() {
    ReconfigurationRequest r = io.dataflow.reconfig.RequestDecoder.decode(
        "{ // a comment\n specification: 'in x\\nout z\\nz = x', output: {streams: {z: 'out',},},}",
        "test");
    assertThat(r.specification()).isEqualTo("in x\nout z\nz = x");
    assertThat(r.output().streams()).containsEntry("z", "out");
    assertThatThrownBy(() -> io.dataflow.reconfig.RequestDecoder.decode(
        "{specification: 'x', extra: 1}", "test")).hasMessageContaining("unknown field 'extra'");
    assertThatThrownBy(() -> io.dataflow.reconfig.RequestDecoder.decode(
        "{specification: '  '}", "test")).hasMessageContaining("blank");
    assertThatThrownBy(() -> io.dataflow.reconfig.RequestDecoder.decode("{input: {}}", "test"))
        .hasMessageContaining("no 'specification'");
  }

  @Test
  void explicitOutputBindingsRouteStreamsToTheirDestination() {
    Sinks2 sinks = new Sinks2();
    try (DataflowHarness h = DataflowHarness.forSpec("in x\nout a\nout b\na = x\nb = x + 1")
        .destination("extra", sinks.extra).ioFactory(new ScriptedIoFactory()
            .writer("alerts", sinks.alerts)).build()) {
      h.tick("x", 1);
      Map<String, IoSpec> destinations = new LinkedHashMap<>();
      destinations.put("collected", IoSpec.KEEP);
      destinations.put("extra", IoSpec.KEEP);
      destinations.put("alerts", IoSpec.of("scripted", Map.of("ref", "alerts")));
      ReconfigurationAck ack = h.reconfigure(new ReconfigurationRequest(
          "in x\nout a\nout b\na = x\nb = x + 1", null,
          new Bindings(destinations, Map.of("b", "alerts")), "test"));
      h.tick("x", 2);
      assertThat(ack.interfaceChanged()).isTrue();
      assertThat(ack.plan()).isEqualTo(ReconfigurationAck.Plan.RETAIN_EXACT);
      assertThat(sinks.alerts.ticks()).containsExactly(1L);
      assertThat(sinks.alerts.rows().get(0).values()).containsOnlyKeys("b");
      assertThat(sinks.extra.rows().get(1).values()).containsOnlyKeys("a");
    }
  }

  /**
   * Catches: a new input stream left without a source when the request names none, or given a
   * default one although the request binds it to another source (or it is not new).
   */
  @Test
  void aNewInputStreamWithoutASourceGetsTheFactorysDefaultOne() {
    List<String> created = new java.util.ArrayList<>();
    List<String> asked = new java.util.ArrayList<>();
    io.dataflow.reconfig.IoFactory factory = new io.dataflow.reconfig.IoFactory() {
      @Override
      public void validateSource(IoSpec spec) {
        if (!"quiet".equals(spec.type())) {
          throw new IllegalArgumentException("unknown type '" + spec.type() + "'");
        }
      }

      @Override
      public io.dataflow.core.spi.Source createSource(String name, IoSpec spec) {
        created.add(name);
        return new io.dataflow.core.spi.Source() {
          @Override
          public String name() {
            return name;
          }

          @Override
          public void open(io.dataflow.core.spi.SourceContext context) {}

          @Override
          public void close() {}
        };
      }

      @Override
      public IoSpec defaultSource(String stream) {
        asked.add(stream);
        return IoSpec.of("quiet", Map.of());
      }

      @Override
      public void validateDestination(IoSpec spec) {
        throw new IllegalArgumentException("no destinations");
      }

      @Override
      public io.dataflow.core.spi.OutputWriter createDestination(String name, IoSpec spec) {
        throw new IllegalArgumentException("no destinations");
      }
    };
    try (DataflowHarness h = DataflowHarness.forSpec("in x\nout z = x").ioFactory(factory)
        .build()) {
      ReconfigurationAck first = h.reconfigure("in x\nin w\nout z = x");
      ReconfigurationAck second = h.reconfigure(new ReconfigurationRequest(
          "in x\nin w\nin v\nin u\nout z = x", new Bindings(null, Map.of("v", "w")), null,
          "test"));
      assertThat(first.accepted()).isTrue();
      assertThat(second.accepted()).as("%s", second.reason()).isTrue();
      assertThat(created).containsExactly("w", "u");
      assertThat(asked).containsExactly("w", "u");
    }
  }

  @Test
  void anUnboundDestinationGetsTheStreamsNoDestinationNamesBeforeAndAfterARequest() {
    Sinks2 sinks = new Sinks2();
    String spec = "in x\nout a\nout b\na = x\nb = x + 1";
    try (DataflowHarness h = DataflowHarness.forSpec(spec)
        .destination("alerts", sinks.alerts, java.util.Set.of("b"), null)
        .destination("extra", sinks.extra).build()) {
      h.tick("x", 1);
      ReconfigurationAck ack = h.reconfigure(spec); // bindings resolved from the destinations
      h.tick("x", 2);
      assertThat(ack.interfaceChanged()).isFalse();
      assertThat(sinks.alerts.rows()).extracting(r -> r.values().keySet())
          .containsExactly(java.util.Set.of("b"), java.util.Set.of("b"));
      assertThat(sinks.extra.rows()).extracting(r -> r.values().keySet())
          .containsExactly(java.util.Set.of("a"), java.util.Set.of("a"));
    }
  }

  @Test
  void aTapKeepsEveryStreamWhenARequestListsTheDestinationsWithoutIt() {
    // Mutation caught: the planner removing every destination a request does not list, taps
    // included (the harness collects its trace through the tap "collected").
    Sinks2 sinks = new Sinks2();
    String spec = "in x\nout a\nout b\na = x\nb = x + 1";
    try (DataflowHarness h = DataflowHarness.forSpec(spec)
        .destination("alerts", sinks.alerts, java.util.Set.of("b"), null)
        .destination("extra", sinks.extra).build()) {
      h.tick("x", 1);
      ReconfigurationAck ack = h.reconfigure(new ReconfigurationRequest(spec, null,
          new Bindings(Map.of("extra", IoSpec.KEEP), null), "test"));
      assertThat(ack.accepted()).as("%s", ack.reason()).isTrue();
      h.tick("x", 2);
      assertThat(h.trace()).hasLines("a[0] = Int(1)", "b[0] = Int(2)", "a[1] = Int(2)",
          "b[1] = Int(3)");
      assertThat(sinks.extra.rows()).extracting(r -> r.values().keySet())
          .containsExactly(java.util.Set.of("a"), java.util.Set.of("a", "b"));
    }
  }

  @Test
  void aRequestThatNamesATapIsRefusedAndChangesNothing() {
    String spec = "in x\nout a\na = x";
    try (DataflowHarness h = DataflowHarness.forSpec(spec)
        .options(o -> o.withRejectPolicy(RejectPolicy.KEEP_RUNNING)).build()) {
      ReconfigurationAck listed = h.reconfigure(new ReconfigurationRequest(spec, null,
          new Bindings(Map.of("collected", IoSpec.of("stdout", Map.of())), null), "test"));
      ReconfigurationAck bound = h.reconfigure(new ReconfigurationRequest(spec, null,
          new Bindings(null, Map.of("a", "collected")), "test"));
      h.tick("x", 7);
      assertThat(listed.accepted()).isFalse();
      assertThat(listed.reason()).contains("destination 'collected' is a tap");
      assertThat(bound.accepted()).isFalse();
      assertThat(bound.reason()).contains("bound to tap 'collected'");
      assertThat(h.trace()).hasValues("a", 7);
    }
  }

  @Test
  void aStreamBoundToASourceIsTakenFromThatSourceOnly() {
    CallLog log = new CallLog();
    ScriptedSource a = new ScriptedSource("a", log).batch(Values.row("x", 1, "y", 100))
        .neverEnd();
    ScriptedSource b = new ScriptedSource("b", log).batch(Values.row("x", 50, "y", 2))
        .neverEnd();
    try (DataflowHarness h = DataflowHarness.forSpec("in x\nin y\nout sx\nout sy\nsx = x\nsy = y")
        .source(a, java.util.Set.of("x")).source(b, java.util.Set.of("y")).build()) {
      h.runUntilIdle();
      assertThat(h.trace()).hasLines("sx[0] = Int(1)", "sy[1] = Int(2)");
      assertThat(h.warnings()).containsExactly(
          "source 'a' delivered 'y', which source 'b' owns; ignored",
          "source 'b' delivered 'x', which source 'a' owns; ignored");
      // Moving y to a is an explicit binding change: the interface revision advances.
      ReconfigurationAck ack = h.reconfigure(new ReconfigurationRequest(
          "in x\nin y\nout sx\nout sy\nsx = x\nsy = y",
          new Bindings(null, Map.of("y", "a")), null, "test"));
      assertThat(ack.interfaceChanged()).isTrue();
      assertThat(ack.interfaceRevision()).isEqualTo(1);
    }
  }

  @Test
  void aRunWhoseSourcesWereAllDetachedEndsAfterEvaluatingWhatTheyDelivered() {
    CallLog log = new CallLog();
    ScriptedSource a = new ScriptedSource("a", log).batch(Values.row("x", 1)).neverEnd();
    try (DataflowHarness h = DataflowHarness.forSpec("in x\nout z\nz = x").source(a).build()) {
      h.runUntilIdle();
      ReconfigurationAck ack = h.reconfigure(new ReconfigurationRequest("in x\nout z\nz = x",
          new Bindings(Map.of(), null), null, "test"));
      assertThat(ack.accepted()).isTrue();
      ExitReport r = h.awaitTermination();
      assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.COMPLETED);
      assertThat(h.trace()).hasValues("z", 1);
      assertThat(log.entries()).contains("source:a close");
    }
  }

  private static final class Sinks2 {
    final ScriptedSink extra = new ScriptedSink("extra", new CallLog());
    final ScriptedSink alerts = new ScriptedSink("alerts", new CallLog());
  }

  static List<String> lines(DataflowHarness h) {
    return h.trace().lines();
  }
}
