package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.DataflowRuntime;
import io.dataflow.core.ExitReport;
import io.dataflow.core.SourceLocation;
import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import io.dataflow.io.internal.EncodedControlRequest;
import io.dataflow.io.InMemorySource;
import io.dataflow.io.Sinks;
import io.dataflow.io.TraceFileSource;
import io.dataflow.monitor.TypingMode;
import io.dataflow.reconfig.AckQueue;
import io.dataflow.reconfig.ReconfigurationAck;
import io.dataflow.reconfig.RejectPolicy;
import io.dataflow.reconfig.RequestDecoder;
import io.dataflow.testkit.RequestGenerator.GeneratedRequest;
import io.dataflow.testkit.Runs.Run;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Generated reconfiguration requests delivered mid-trace (docs/reconfiguration.md): replacing a
 * spec by itself changes nothing; a valid request is acknowledged with the right plan and
 * revisions, and the runtime paths agree with the bare monitor's transfer; a broken request
 * ends the run after every earlier row, or is rejected and changes nothing.
 */
class GeneratedReconfigurationTest {
  @TempDir
  Path dir;

  static LongStream seeds() {
    return Seeds.seeds(250);
  }

  /** What a run with a request gave. */
  record Outcome(List<String> lines, List<ReconfigurationAck> acks, ExitReport report) {}

  /**
   * Catches: a RetainExact that rebuilds or resets state (lifting memories, histories,
   * {@code init}/{@code when}/{@code update} state), a request that drops or repeats the tick
   * around it, and output order that changes after a request.
   */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void replacingTheSpecByItselfMidTraceNeverChangesTheOutput(long seed) {
    Seeds.check(seed, c -> {
      GeneratedSpec spec = c.note("spec", new SpecGenerator(seed).next());
      List<Map<String, Value>> trace = c.trace("trace", new TraceGenerator(~seed).next(spec));
      int at = new SplittableRandom(seed).nextInt(trace.size() + 1);
      c.note("request before tick", at);
      RequestGenerator requests = new RequestGenerator(seed);
      GeneratedRequest request = c.note("request", requests.of(seed % 2 == 0
          ? RequestGenerator.Kind.SAME_SPEC : RequestGenerator.Kind.RELAYOUT, spec));
      Run without = Runs.monitor(spec.text(), TypingMode.GRADUAL, trace);
      assertThat(without.failure()).isNull();

      Outcome stepped = runStepped(spec.text(), trace, at, request, RejectPolicy.END_RUN);
      assertThat(stepped.report().isCompleted()).as("completed: %s", stepped.report()).isTrue();
      assertThat(stepped.lines()).as("stepped with the request").isEqualTo(without.lines());
      assertThat(stepped.acks()).singleElement().satisfies(ack -> {
        assertThat(ack.accepted()).isTrue();
        assertThat(ack.plan()).isEqualTo(ReconfigurationAck.Plan.RETAIN_EXACT);
        assertThat(ack.monitorChanged()).isFalse();
        assertThat(ack.interfaceChanged()).isFalse();
        assertThat(ack.monitorRevision().root()).isEqualTo(1);
        assertThat(ack.effectiveTick()).isEqualTo(at);
      });
      assertThat(runTraceFile(spec.text(), trace, at, request, RejectPolicy.END_RUN).lines())
          .as("trace file with the request").isEqualTo(without.lines());
      try (DataflowHarness h = DataflowHarness.forSpec(Runs.SPEC, spec.text()).build()) {
        h.ticks(trace.subList(0, at));
        h.reconfigure(RequestDecoder.decode(request.json(), "generated"));
        h.ticks(trace.subList(at, trace.size()));
        assertThat(h.trace().lines()).as("harness with the request").isEqualTo(without.lines());
      }
    });
  }

  /**
   * Catches: a planner that picks the wrong plan or revision, a runtime path whose state
   * transfer differs from {@code DataflowMonitor.transfer}, and rows before a request that
   * change because of it.
   */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void aValidRequestIsAcknowledgedAndEveryPathAgrees(long seed) {
    Seeds.check(seed, c -> {
      GeneratedSpec spec = c.note("spec", new SpecGenerator(seed).next());
      List<Map<String, Value>> trace = c.trace("trace", new TraceGenerator(~seed).next(spec));
      int at = new SplittableRandom(seed).nextInt(trace.size() + 1);
      c.note("request before tick", at);
      GeneratedRequest request = c.note("request", new RequestGenerator(seed).valid(spec));
      c.note("replacement", request.specification());
      Run without = Runs.monitor(spec.text(), TypingMode.GRADUAL, trace);

      Outcome stepped = c.note("stepped",
          runStepped(spec.text(), trace, at, request, RejectPolicy.END_RUN));
      assertThat(stepped.report().isCompleted()).as("completed: %s", stepped.report()).isTrue();
      assertThat(before(stepped.lines(), at)).as("rows before the request")
          .isEqualTo(before(without.lines(), at));
      assertThat(stepped.acks()).singleElement().satisfies(ack -> {
        assertThat(ack.accepted()).isTrue();
        assertThat(ack.plan()).isEqualTo(request.expectedPlan());
        assertThat(ack.monitorChanged())
            .isEqualTo(ack.plan() != ReconfigurationAck.Plan.RETAIN_EXACT);
        assertThat(ack.interfaceChanged()).isEqualTo(request.changesInterface());
        assertThat(ack.monitorRevision().root()).isEqualTo(1);
        assertThat(ack.interfaceRevision()).isEqualTo(request.changesInterface() ? 1 : 0);
        assertThat(ack.effectiveTick()).isEqualTo(at);
      });
      // Outputs that read no changed stream, even transitively, keep their state and history.
      java.util.Set<String> affected = affected(spec, request.replacement());
      c.note("affected", affected);
      for (String o : request.replacement().outputNames()) {
        if (!affected.contains(o)) {
          assertThat(of(stepped.lines(), o)).as("unaffected output %s", o)
              .isEqualTo(of(without.lines(), o));
        }
      }
      ReferenceModel model = new ReferenceModel(spec);
      List<String> expected = new ArrayList<>(model.run(trace.subList(0, at)));
      expected.addAll(model.transfer(request.replacement()).run(trace.subList(at, trace.size())));
      assertThat(stepped.lines()).as("the reference model's transfer").isEqualTo(expected);
      String text = String.join("", stepped.lines().stream().map(l -> l + "\n").toList());
      assertThat(runMonitorWithTransfer(spec, trace, at, request)).as("bare monitor")
          .isEqualTo(text);
      assertThat(runTraceFile(spec.text(), trace, at, request, RejectPolicy.END_RUN).lines())
          .as("trace file").isEqualTo(stepped.lines());
      if (seed % 4 == 0) {
        assertThat(runThreaded(spec.text(), trace, at, request).lines()).as("threaded")
            .isEqualTo(stepped.lines());
      }
    });
  }

  /**
   * Catches: a broken request that is half applied, evaluates ticks after it, loses rows
   * before it, or (when rejections keep the run going) changes the output at all.
   */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void aBrokenRequestEndsTheRunAfterEarlierRowsOrIsRejected(long seed) {
    Seeds.check(seed, c -> {
      GeneratedSpec spec = c.note("spec", new SpecGenerator(seed).next());
      List<Map<String, Value>> trace = c.trace("trace", new TraceGenerator(~seed).next(spec));
      int at = new SplittableRandom(seed).nextInt(trace.size() + 1);
      c.note("request before tick", at);
      GeneratedRequest request = c.note("request", new RequestGenerator(seed).broken(spec));
      Run without = Runs.monitor(spec.text(), TypingMode.GRADUAL, trace);

      Outcome ended = c.note("ended",
          runStepped(spec.text(), trace, at, request, RejectPolicy.END_RUN));
      assertThat(ended.report().outcome()).isEqualTo(ExitReport.Outcome.FAILED);
      assertThat(ended.report().component()).isEqualTo("control");
      assertThat(ended.acks()).isEmpty();
      assertThat(ended.lines()).as("every row before the request, nothing after")
          .isEqualTo(before(without.lines(), at));

      Outcome fromFile = runTraceFile(spec.text(), trace, at, request, RejectPolicy.END_RUN);
      assertThat(fromFile.report().outcome()).isEqualTo(ExitReport.Outcome.FAILED);
      assertThat(fromFile.report().component()).isEqualTo(
          request.kind() == RequestGenerator.Kind.MALFORMED ? "source:trace" : "control");
      assertThat(fromFile.lines()).as("trace file").isEqualTo(before(without.lines(), at));

      Outcome kept = c.note("kept",
          runStepped(spec.text(), trace, at, request, RejectPolicy.KEEP_RUNNING));
      assertThat(kept.report().isCompleted()).as("completed: %s", kept.report()).isTrue();
      assertThat(kept.acks()).singleElement().satisfies(ack -> {
        assertThat(ack.accepted()).isFalse();
        assertThat(ack.reason()).isNotBlank();
        assertThat(ack.monitorRevision().root()).isZero();
        assertThat(ack.interfaceRevision()).isZero();
      });
      assertThat(kept.lines()).as("a rejected request changes nothing")
          .isEqualTo(without.lines());
    });
  }

  // ---------------------------------------------------------------- paths

  private static List<Object> items(List<Map<String, Value>> trace, int at,
      GeneratedRequest request) {
    List<Object> items = new ArrayList<>();
    for (int t = 0; t <= trace.size(); t++) {
      if (t == at) {
        items.add(new EncodedControlRequest(request.json(),
            new SourceLocation("generated", 1, 1)));
      }
      if (t < trace.size()) {
        items.add(Tick.of(trace.get(t)));
      }
    }
    return items;
  }

  private static Outcome runStepped(String spec, List<Map<String, Value>> trace, int at,
      GeneratedRequest request, RejectPolicy policy) {
    Sinks.Collecting out = Sinks.collecting();
    AckQueue acks = new AckQueue(16);
    DataflowRuntime runtime = Runs.builder(spec, TypingMode.GRADUAL, out)
        .acknowledgements(acks).options(o -> o.withRejectPolicy(policy))
        .source(InMemorySource.ofItems("items", items(trace, at, request)))
        .build();
    ExitReport r = runtime.runInCallerThread();
    return new Outcome(out.lines(), drain(acks), r);
  }

  private static Outcome runThreaded(String spec, List<Map<String, Value>> trace, int at,
      GeneratedRequest request) throws Exception {
    Sinks.Collecting out = Sinks.collecting();
    AckQueue acks = new AckQueue(16);
    DataflowRuntime runtime = Runs.builder(spec, TypingMode.GRADUAL, out)
        .acknowledgements(acks)
        .source(InMemorySource.ofItems("items", items(trace, at, request)))
        .build();
    runtime.start();
    ExitReport r = runtime.awaitTermination(Duration.ofSeconds(30));
    return new Outcome(out.lines(), drain(acks), r);
  }

  private static Outcome runTraceFile(String spec, List<Map<String, Value>> trace, int at,
      GeneratedRequest request, RejectPolicy policy) {
    Sinks.Collecting out = Sinks.collecting();
    AckQueue acks = new AckQueue(16);
    String text = new TraceGenerator(at).renderVaried(trace, Map.of(at, List.of(request.json())));
    DataflowRuntime runtime = Runs.builder(spec, TypingMode.GRADUAL, out)
        .acknowledgements(acks).options(o -> o.withRejectPolicy(policy))
        .source(TraceFileSource.of("trace", new StringReader(text), "gen.input"))
        .build();
    ExitReport r = runtime.runInCallerThread();
    return new Outcome(out.lines(), drain(acks), r);
  }

  /** The bare monitor path of the golden-trace runner, over the rendered files. */
  private String runMonitorWithTransfer(GeneratedSpec spec, List<Map<String, Value>> trace,
      int at, GeneratedRequest request) throws Exception {
    Path specFile = Files.writeString(dir.resolve("gen.dsrv"), spec.text(),
        StandardCharsets.UTF_8);
    Path input = Files.writeString(dir.resolve("gen.input"),
        TraceGenerator.render(trace, Map.of(at, List.of(request.json()))),
        StandardCharsets.UTF_8);
    return GoldenTraces.runWithMonitor(new GoldenTraces.Case("gen", specFile, input, null));
  }

  private static List<ReconfigurationAck> drain(AckQueue acks) {
    List<ReconfigurationAck> out = new ArrayList<>();
    for (ReconfigurationAck a = acks.poll(); a != null; a = acks.poll()) {
      out.add(a);
    }
    return out;
  }

  /**
   * The streams of {@code after} whose values may differ from {@code before}'s: new streams,
   * streams with another expression or type, and every stream reading one of them.
   */
  static java.util.Set<String> affected(GeneratedSpec before, GeneratedSpec after) {
    java.util.Set<String> affected = new java.util.HashSet<>();
    for (GeneratedSpec.Stream s : after.computed()) {
      java.util.Optional<GeneratedSpec.Stream> old = before.stream(s.name());
      if (old.isEmpty() || !old.get().expression().equals(s.expression())
          || old.get().type() != s.type()) {
        affected.add(s.name());
      }
    }
    boolean grew = true;
    while (grew) {
      grew = false;
      for (GeneratedSpec.Stream s : after.computed()) {
        if (!affected.contains(s.name())
            && s.refs().stream().anyMatch(affected::contains)) {
          grew = affected.add(s.name());
        }
      }
    }
    return affected;
  }

  /** The lines of one stream. */
  static List<String> of(List<String> lines, String stream) {
    return lines.stream().filter(l -> l.startsWith(stream + "[")).toList();
  }

  /** The lines of ticks before {@code tick}. */
  static List<String> before(List<String> lines, int tick) {
    List<String> out = new ArrayList<>();
    for (String l : lines) {
      int open = l.indexOf('[');
      if (Long.parseLong(l.substring(open + 1, l.indexOf(']', open))) < tick) {
        out.add(l);
      }
    }
    return out;
  }
}
