package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.MonitorException;
import io.dataflow.core.Value;
import io.dataflow.core.snapshot.MonitorSnapshot;
import io.dataflow.core.snapshot.SnapshotException;
import io.dataflow.io.SnapshotJson;
import io.dataflow.io.TraceReader;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.TypingMode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Snapshots (docs/snapshots.md): a monitor snapshotted after tick k, written to bytes, read
 * back and restored into a fresh monitor continues exactly as the uninterrupted one: the same
 * outputs and failures, and the same final snapshot. On generated specifications and traces
 * (with generated code and with the interpreter), and on every conformance case without a
 * reconfiguration (dynamic properties, defer, lambdas, lists and maps), snapshotted after every
 * tick. Binary to JSON and back gives the same bytes.
 */
class SnapshotRestoreTest {
  static final DataflowMonitor.Options FUSED = DataflowMonitor.Options.DEFAULT.withFused(true);
  static final DataflowMonitor.Options INTERPRETED =
      DataflowMonitor.Options.DEFAULT.withFused(false);

  static LongStream seeds() {
    return Seeds.seeds(1000);
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void aRestoredMonitorContinuesExactly(long seed) {
    Seeds.check(seed, c -> {
      GeneratedSpec spec = c.note("spec", new SpecGenerator(seed).next());
      List<Map<String, Value>> trace = c.trace("trace", new TraceGenerator(~seed).next(spec));
      DataflowProgram program = DataflowProgram.compile("gen.dsrv", spec.text(),
          TypingMode.GRADUAL);
      Random rnd = new Random(seed);
      TreeSet<Integer> ks = new TreeSet<>(List.of(0, trace.size(), rnd.nextInt(trace.size() + 1)));
      DataflowMonitor.Options options = seed % 2 == 0 ? FUSED : INTERPRETED;
      for (int k : ks) {
        c.note("k", k + " " + (options == FUSED ? "generated code" : "interpreter"));
        checkRestoreAt(program, trace, k, options);
      }
    });
  }

  static LongStream transferSeeds() {
    return Seeds.seeds(300);
  }

  /**
   * A snapshot restored into a changed program (one stream changed, an output added or
   * removed) equals a live transfer from the snapshotted monitor: report, outputs, state.
   */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("transferSeeds")
  void aRestoreIntoAChangedProgramEqualsALiveTransfer(long seed) {
    Seeds.check(seed, c -> {
      SpecGenerator gen = new SpecGenerator(seed);
      GeneratedSpec spec = c.note("spec", gen.next());
      GeneratedSpec changed = c.note("changed", switch ((int) Math.floorMod(seed, 3L)) {
        case 0 -> gen.changeOneStream(spec);
        case 1 -> gen.addOutput(spec);
        default -> gen.removeOutput(spec);
      });
      List<Map<String, Value>> trace = c.trace("trace", new TraceGenerator(~seed).next(spec));
      int k = new Random(seed).nextInt(trace.size() + 1);
      c.note("k", String.valueOf(k));
      DataflowProgram from = DataflowProgram.compile("gen.dsrv", spec.text(), TypingMode.GRADUAL);
      DataflowProgram to = DataflowProgram.compile("gen.dsrv", changed.text(),
          TypingMode.GRADUAL);
      DataflowMonitor.Options options = seed % 2 == 0 ? FUSED : INTERPRETED;
      DataflowMonitor live = DataflowMonitor.create(from, options);
      DataflowMonitor snapshotted = DataflowMonitor.create(from, options);
      assertThat(run(snapshotted, trace, 0, k)).isEqualTo(run(live, trace, 0, k));
      if (live.failure() != null) {
        return; // a failed monitor is not transferred
      }
      MonitorSnapshot snap = MonitorSnapshot.fromBytes(snapshotted.snapshot().toBytes());
      DataflowMonitor.Transition transfer = to.definitionKey().equals(from.definitionKey())
          ? DataflowMonitor.retainExact(live, to, options)
          : DataflowMonitor.transfer(live, to, io.dataflow.monitor.TransferMapping.plan(from,
              to), options);
      DataflowMonitor.Transition restore = DataflowMonitor.restore(to, snap, options);
      assertThat(restore.report()).isEqualTo(transfer.report());
      assertThat(restore.monitor().revision()).isEqualTo(transfer.monitor().revision());
      List<Map<String, Value>> rest = new ArrayList<>();
      for (Map<String, Value> row : trace.subList(k, trace.size())) {
        Map<String, Value> r = new LinkedHashMap<>(row);
        r.keySet().retainAll(to.inputs().names());
        rest.add(r);
      }
      assertThat(run(restore.monitor(), rest, 0, rest.size()))
          .isEqualTo(run(transfer.monitor(), rest, 0, rest.size()));
      assertThat(SnapshotJson.toJson(restore.monitor().snapshot()))
          .isEqualTo(SnapshotJson.toJson(transfer.monitor().snapshot()));
    });
  }

  /** Runs the trace uninterrupted and interrupted after {@code k} ticks; both must agree. */
  static void checkRestoreAt(DataflowProgram program, List<Map<String, Value>> trace, int k,
      DataflowMonitor.Options options) {
    DataflowMonitor whole = DataflowMonitor.create(program, options);
    List<String> expected = run(whole, trace, 0, trace.size());
    DataflowMonitor first = DataflowMonitor.create(program, options);
    List<String> actual = new ArrayList<>(run(first, trace, 0, k));
    MonitorSnapshot snap = first.snapshot();
    byte[] bytes = snap.toBytes();
    assertThat(SnapshotJson.fromJson(SnapshotJson.toJson(snap)).toBytes())
        .as("binary -> JSON -> binary").isEqualTo(bytes);
    // The monitor writes its snapshot straight into the bytes: the records it reads from them
    // are written back (through the records' encoder) as the same bytes, and equal it.
    MonitorSnapshot records = new MonitorSnapshot(snap.formatVersion(), snap.programName(),
        snap.definitionKey(), snap.nextTick(), snap.revision(), snap.failure(), snap.streams());
    assertThat(records.toBytes()).as("written = the records' encoding").isEqualTo(bytes);
    assertThat(records).isEqualTo(snap).hasSameHashCodeAs(snap);
    MonitorSnapshot read = MonitorSnapshot.read(new ByteArrayInputStream(bytes));
    assertThat(read).isEqualTo(snap);
    DataflowMonitor.Transition t = DataflowMonitor.restore(program, read, options);
    DataflowMonitor second = t.monitor();
    assertThat(second.nextTick()).isEqualTo(k);
    assertThat(second.revision()).isEqualTo(first.revision());
    actual.addAll(run(second, trace, k, trace.size()));
    assertThat(actual).as("outputs restored after tick %d", k).isEqualTo(expected);
    assertThat(SnapshotJson.toJson(second.snapshot())).as("final snapshot")
        .isEqualTo(SnapshotJson.toJson(whole.snapshot()));
  }

  /** Ticks {@code from} to {@code to} of the trace: one line per tick (outputs or failure). */
  static List<String> run(DataflowMonitor m, List<Map<String, Value>> trace, int from, int to) {
    List<String> lines = new ArrayList<>();
    for (int i = from; i < to; i++) {
      try {
        lines.add(i + ": " + m.evaluate(trace.get(i)));
      } catch (MonitorException e) {
        lines.add(i + ": failed: " + e.getMessage());
      }
    }
    return lines;
  }

  @TestFactory
  Stream<DynamicTest> conformanceCasesRestoreAfterEveryTick() {
    return GoldenTraces.discover(ConformanceTest.projectCases()).stream()
        .map(c -> DynamicTest.dynamicTest(c.name(), () -> {
          List<Map<String, Value>> trace = ticks(c);
          if (trace == null) {
            return; // a case with reconfigurations: covered by the transfer tests
          }
          DataflowProgram program = DataflowProgram.compile(c.spec().toString(), c.specText());
          for (Map<String, Value> row : trace) {
            row.keySet().retainAll(program.inputs().names()); // undeclared names are ignored
          }
          for (DataflowMonitor.Options options : List.of(FUSED, INTERPRETED)) {
            for (int k = 0; k <= trace.size(); k++) {
              checkRestoreAt(program, trace, k, options);
            }
          }
        }));
  }

  /** The ticks of a case's trace, or null when it has a reconfiguration. */
  private static List<Map<String, Value>> ticks(GoldenTraces.Case c) throws IOException {
    List<Map<String, Value>> out = new ArrayList<>();
    try (TraceReader reader = TraceReader.open(c.input())) {
      TraceReader.Item item;
      while ((item = reader.next()) != null) {
        if (!(item instanceof TraceReader.Tick t)) {
          return null;
        }
        out.add(new LinkedHashMap<>(t.values()));
      }
    }
    return out;
  }

  @Test
  void aPoisonedMonitorIsRestoredPoisonedWithTheSameCause() throws IOException {
    DataflowProgram program = DataflowProgram.compile("p.dsrv",
        "in x: Int\nout z = 10 / x\n");
    for (DataflowMonitor.Options options : List.of(FUSED, INTERPRETED)) {
      DataflowMonitor m = DataflowMonitor.create(program, options);
      m.evaluate(Map.of("x", Value.of(2)));
      assertThatThrownBy(() -> m.evaluate(Map.of("x", Value.of(0))))
          .isInstanceOf(MonitorException.class);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      m.snapshot().write(out);
      MonitorSnapshot snap = MonitorSnapshot.read(new ByteArrayInputStream(out.toByteArray()));
      assertThat(snap.failure()).isNotNull();
      DataflowMonitor r = DataflowMonitor.restore(program, snap, options).monitor();
      assertThat(r.failure()).isNotNull();
      assertThat(r.failure().getMessage()).isEqualTo(m.failure().getMessage());
      assertThat(r.failure().location()).isEqualTo(m.failure().location());
      assertThatThrownBy(() -> r.evaluate(Map.of("x", Value.of(1))))
          .isInstanceOf(MonitorException.class).hasMessage(m.failure().getMessage());
      // Another program cannot take over a failed monitor's state; a cold restore can.
      DataflowProgram other = DataflowProgram.compile("q.dsrv", "in x: Int\nout z = x\n");
      assertThatThrownBy(() -> DataflowMonitor.restore(other, snap, options))
          .isInstanceOf(SnapshotException.class);
      DataflowMonitor cold = DataflowMonitor.restoreCold(other, snap, options).monitor();
      assertThat(cold.nextTick()).isEqualTo(m.nextTick()).isEqualTo(1); // the failed tick
      assertThat(cold.evaluate(Map.of("x", Value.of(5)))).isEqualTo(Map.of("z", Value.of(5)));
    }
  }
}
