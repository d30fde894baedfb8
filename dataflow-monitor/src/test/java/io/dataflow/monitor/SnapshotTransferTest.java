package io.dataflow.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.MonitorException;
import io.dataflow.core.Value;
import io.dataflow.core.snapshot.MonitorSnapshot;
import io.dataflow.core.snapshot.OperatorState;
import io.dataflow.core.snapshot.SnapshotException;
import io.dataflow.core.snapshot.StreamState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Restoring a snapshot into another program applies the live-transfer rules: the restored
 * monitor's outputs, report, revision and state equal those of a live
 * {@link DataflowMonitor#transfer} from the snapshotted monitor (the cases of
 * {@link StateTransferTest} and more). A cold restore keeps only the tick count.
 */
class SnapshotTransferTest {
  private static final DataflowMonitor.Options OPTIONS = DataflowMonitor.Options.DEFAULT;

  private static DataflowProgram compile(String spec) {
    return DataflowProgram.compile("s.dsrv", spec);
  }

  private static Map<String, Value> row(Object... kv) {
    java.util.LinkedHashMap<String, Value> m = new java.util.LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      Object v = kv[i + 1];
      m.put((String) kv[i], v instanceof Integer n ? Value.of((long) n)
          : v instanceof Double d ? Value.of(d) : Value.of((String) v));
    }
    return m;
  }

  static Stream<Arguments> cases() {
    List<Map<String, Value>> xs = List.of(row("x", 1), row(), row("x", 3), row("x", 4));
    return Stream.of(
        Arguments.of("kept body reads ahead", "in x\nin s\nout z\nout w\naux y\nz = s\nw = y + 1\n"
            + "y = x * 2", "in x\nin s\nout z\nout w\naux y\nz = dynamic(s)\nw = y + 1\n"
            + "y = x * 2", List.of(row("x", 1, "s", "a")), List.of(row("x", 2, "s", "y"),
            row("x", 3))),
        Arguments.of("kept body keeps delays", "in x: Int\nin s\nout z\nz = dynamic(s)",
            "in x: Int\nin s\nout z\nout n\nz = dynamic(s)\nn = x",
            List.of(row("x", 4, "s", "default(x[1], 0) * 1"), row("x", 5)),
            List.of(row("x", 6), row("x", 7))),
        Arguments.of("retyped body restarts", "in x: Int\nin s\nout z\nz = dynamic(s)",
            "in x: Float\nin s\nout z\nz = dynamic(s)",
            List.of(row("x", 4, "s", "default(x[1], 0) * 1"), row("x", 5)),
            List.of(row("x", 1.5), row("x", 2.5))),
        Arguments.of("body activated after holds an input", "in x\nin s\nout z\nz = s",
            "in x\nin s\nout z\nz = dynamic(s)", List.of(row("x", 5, "s", "a"), row("s", "b")),
            List.of(row("s", "x + 1"), row("x", 7))),
        Arguments.of("retyped input forgets", "in x: Int\nin s\nout z\nz = s",
            "in x: Float\nin s\nout z\nz = dynamic(s)", List.of(row("x", 5, "s", "a")),
            List.of(row("s", "x"), row(), row("x", 2.5), row())),
        Arguments.of("kept computed keeps last present",
            "in x\nin s\naux a\nout z\na = x\nz = s",
            "in x\nin s\naux a\nout z\na = x\nz = dynamic(s)", List.of(row("x", 5, "s", "a")),
            List.of(row(), row("s", "a + 1"))),
        Arguments.of("histories resize and move by type",
            "in x: Int\nout a = default(x[3], 0) + x\nout b = default(a[2], -1)\n"
                + "out c = update(x, a)",
            "in x: Int\nout a = default(x[1], 0) + x\nout b = default(a[4], -1) * 2\n"
                + "out c = update(x, a)\nout d = default(c[1], 7)",
            xs, xs),
        Arguments.of("lambdas, lists and maps",
            "in x: Int\naux inc = \\v: Int -> v + 1\nout z = inc(x)\n"
                + "out l = List.map(\\v -> v * 2, [x, x])\nout m = Map.insert({\"a\": 1}, \"b\", x)"
                + "\nout p = default(z[1], 0)",
            "in x: Int\naux inc = \\v: Int -> v + 1\nout z = inc(x)\n"
                + "out l = List.map(\\v -> v * 3, [x, x])\nout p = default(z[2], 0)",
            xs, xs));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void aRestoreIntoAnotherProgramEqualsALiveTransfer(String name, String before, String after,
      List<Map<String, Value>> first, List<Map<String, Value>> then) {
    DataflowProgram from = compile(before);
    DataflowProgram to = compile(after);
    DataflowMonitor live = DataflowMonitor.create(from, OPTIONS);
    DataflowMonitor snapshotted = DataflowMonitor.create(from, OPTIONS);
    assertThat(run(snapshotted, first)).isEqualTo(run(live, first));
    MonitorSnapshot snap = MonitorSnapshot.fromBytes(snapshotted.snapshot().toBytes());

    DataflowMonitor.Transition transfer = DataflowMonitor.transfer(live, to,
        TransferMapping.plan(from, to), OPTIONS);
    DataflowMonitor.Transition restore = DataflowMonitor.restore(to, snap, OPTIONS);
    assertThat(restore.report()).isEqualTo(transfer.report());
    assertThat(restore.monitor().revision()).isEqualTo(transfer.monitor().revision());
    assertThat(restore.monitor().nextTick()).isEqualTo(transfer.monitor().nextTick());
    assertThat(run(restore.monitor(), then)).isEqualTo(run(transfer.monitor(), then));
    assertThat(restore.monitor().snapshot()).isEqualTo(transfer.monitor().snapshot());
  }

  private static List<String> run(DataflowMonitor m, List<Map<String, Value>> rows) {
    List<String> out = new ArrayList<>();
    for (Map<String, Value> r : rows) {
      try {
        out.add(String.valueOf(m.evaluate(r)));
      } catch (MonitorException e) {
        out.add("failed: " + e.getMessage());
      }
    }
    return out;
  }

  @Test
  void aSnapshotAfterABatchHoldsWhatTheBatchLoopWroteBack() {
    // Typed scalar operators, history reads and default: generated code runs these as one loop
    // with the state in registers, written back to the nodes at the batch's end.
    DataflowProgram p = compile("in x: Int\nin y: Int\nout s = default(s[1], 0) + x\n"
        + "out d = x - default(y[2], 5)\nout c = s > d");
    DataflowMonitor batched = DataflowMonitor.create(p, OPTIONS);
    DataflowMonitor ticked = DataflowMonitor.create(p, OPTIONS);
    io.dataflow.core.TickColumns in = new io.dataflow.core.TickColumns(2, 64);
    io.dataflow.core.TickColumns out = new io.dataflow.core.TickColumns(3, 64);
    for (int t = 0; t < 50; t++) {
      in.setInt(0, t, t);
      in.setInt(1, t, 100 - t);
      ticked.evaluate(Map.of("x", Value.of(t), "y", Value.of(100 - t)));
    }
    in.setSize(50);
    batched.evaluate(in, out);
    MonitorSnapshot snap = batched.snapshot();
    assertThat(snap).isEqualTo(ticked.snapshot());
    DataflowMonitor restored = DataflowMonitor.restore(p, snap, OPTIONS).monitor();
    assertThat(restored.evaluate(Map.of("x", Value.of(7), "y", Value.of(1))))
        .isEqualTo(ticked.evaluate(Map.of("x", Value.of(7), "y", Value.of(1))));
  }

  @Test
  void aColdRestoreKeepsOnlyTheTickCount() {
    DataflowProgram p = compile("in x: Int\nout s = default(s[1], 0) + x");
    DataflowMonitor m = DataflowMonitor.create(p, OPTIONS);
    m.evaluate(Map.of("x", Value.of(5)));
    m.evaluate(Map.of("x", Value.of(6)));
    DataflowMonitor.Transition t = DataflowMonitor.restoreCold(p, m.snapshot(), OPTIONS);
    assertThat(t.monitor().nextTick()).isEqualTo(2);
    assertThat(t.monitor().revision()).isEqualTo(m.revision().nextRoot());
    assertThat(t.report().initialized()).containsExactly("s");
    assertThat(t.monitor().evaluate(Map.of("x", Value.of(1)))).containsEntry("s", Value.of(1));
  }

  /**
   * The monitor of {@link #aSnapshotHoldsShortHashesAndOlderVersionsStillRestore} as the
   * previous library version wrote it (format version 3, commit 97170c1): its operators carry
   * the state version 4 leaves out (the own results of {@code Default} and {@code HistoryRead},
   * every node's {@code scalar} flag, {@code Const}'s value).
   */
  private static final String V3_OF_THE_PREVIOUS_VERSION = "894446534e500d0a00030006732e6473"
      + "72763b802573e289102702030178049b0a0edf0f9a963d05b0090173817da9f33337ffec0d05ba090101"
      + "0a0402040a03650b0903650365080260030e03650365016481bbad469be0137e4905f41200000202040a"
      + "030b62080262030e88236d";

  /**
   * The same monitor as the library before format version 5 wrote it (format version 4,
   * commit e3308ae): unpacked operator heads, history counts and stream count, the program
   * name in full.
   */
  private static final String V4_OF_THE_PREVIOUS_VERSION = "89444653040006732e647372763b8025"
      + "73e289102702030178049b0a0edf05b0090173817da9f33305ba0901010a0302030a650b0901650e0165"
      + "016481bbad469b05f41200000102030a0b6287538a8c";

  @Test
  void aSnapshotHoldsShortHashesAndOlderVersionsStillRestore() {
    DataflowProgram p = compile("in x: Int\nout s = default(s[1], 0) + x\nout d = s * 2");
    DataflowMonitor m = DataflowMonitor.create(p, OPTIONS);
    m.evaluate(Map.of("x", Value.of(5)));
    m.evaluate(Map.of("x", Value.of(600)));
    MonitorSnapshot v5 = m.snapshot();
    assertThat(v5.formatVersion()).isEqualTo(5);
    assertThat(v5.definitionKey()).isEqualTo(p.definitionKey().substring(0, 16));
    assertThat(v5.stream("s").fingerprint())
        .isEqualTo(p.stream("s").orElseThrow().fingerprint().substring(0, 8));
    // Derived state is left out: Default keeps its lifting memory only, Const nothing.
    assertThat(v5.stream("s").operators()).extracting(OperatorState::kind)
        .containsExactly("Arithmetic", "Default", "HistoryRead");
    assertThat(v5.stream("s").operators().get(1).values()).containsExactly(Value.of(5));
    // As the previous library version wrote it: format version 4, the same content unpacked,
    // and written back in version 4 byte for byte.
    byte[] v4Bytes = java.util.HexFormat.of().parseHex(V4_OF_THE_PREVIOUS_VERSION);
    MonitorSnapshot v4 = MonitorSnapshot.fromBytes(v4Bytes);
    assertThat(v4.formatVersion()).isEqualTo(4);
    assertThat(v4.toBytes()).isEqualTo(v4Bytes);
    assertThat(v4.streams()).isEqualTo(v5.streams());
    assertThat(v5.toBytes().length).isLessThan(v4Bytes.length);
    // As the previous library version wrote it: format version 3, with the derived state.
    MonitorSnapshot v3 = MonitorSnapshot.fromBytes(
        java.util.HexFormat.of().parseHex(V3_OF_THE_PREVIOUS_VERSION));
    assertThat(v3.formatVersion()).isEqualTo(3);
    assertThat(v3.stream("s").operators()).extracting(OperatorState::kind)
        .containsExactly("Arithmetic", "Default", "Const", "HistoryRead");
    // And as the one before: format version 2, full-length hashes.
    List<StreamState> full = new ArrayList<>();
    for (StreamState s : v3.streams()) {
      full.add(new StreamState(s.name(), s.role(), s.declaredType(),
          p.stream(s.name()).orElseThrow().fingerprint(), s.current(), s.lastPresent(),
          s.historyDepth(), s.history(), s.operators()));
    }
    MonitorSnapshot v2 = MonitorSnapshot.fromBytes(new MonitorSnapshot(2, v3.programName(),
        p.definitionKey(), v3.nextTick(), v3.revision(), null, full).toBytes());
    for (MonitorSnapshot snap : List.of(MonitorSnapshot.fromBytes(v5.toBytes()), v4, v3, v2)) {
      DataflowMonitor.Transition t = DataflowMonitor.restore(p, snap, OPTIONS);
      assertThat(t.report()).isEqualTo(ContextTransferReport.retainedAll(p));
      assertThat(t.monitor().snapshot()).isEqualTo(v5);
      assertThat(t.monitor().evaluate(Map.of("x", Value.of(7))))
          .isEqualTo(Map.of("s", Value.of(612), "d", Value.of(1224)));
    }
    // Another program: state moves by the short fingerprints as by the full ones, from
    // either version.
    DataflowProgram q = compile("in x: Int\nout s = default(s[1], 0) + x\nout d = s * 3");
    for (MonitorSnapshot snap : List.of(v5, v4, v3)) {
      DataflowMonitor.Transition t = DataflowMonitor.restore(q, snap, OPTIONS);
      assertThat(t.report().transferred()).containsExactly("s");
      assertThat(t.report().initialized()).containsExactly("d");
      assertThat(t.monitor().evaluate(Map.of("x", Value.of(7))))
          .isEqualTo(Map.of("s", Value.of(612), "d", Value.of(1836)));
    }
  }

  @Test
  void aSnapshotOfTheSameKeyWithStateOfTheWrongShapeIsRefusedWhole() {
    DataflowProgram p = compile("in x: Int\nout s = default(s[1], 0) + x");
    DataflowMonitor m = DataflowMonitor.create(p, OPTIONS);
    m.evaluate(Map.of("x", Value.of(5)));
    MonitorSnapshot good = m.snapshot();
    List<StreamState> streams = new ArrayList<>();
    for (StreamState s : good.streams()) {
      streams.add(s.operators().isEmpty() ? s : new StreamState(s.name(), s.role(),
          s.declaredType(), s.fingerprint(), s.current(), s.lastPresent(), s.historyDepth(),
          s.history(), List.of(new OperatorState("Nonsense", List.of(Value.of(1))))));
    }
    MonitorSnapshot bad = new MonitorSnapshot(good.formatVersion(), good.programName(),
        good.definitionKey(), good.nextTick(), good.revision(), null, streams);
    assertThatThrownBy(() -> DataflowMonitor.restore(p, bad, OPTIONS))
        .isInstanceOf(SnapshotException.class).hasMessageContaining("stream 's'");
  }

  @Test
  void aFunctionDefinedInADynamicBodyCannotBeSnapshotted() {
    DataflowProgram p = compile("in s\nout z\nz = dynamic(s)");
    DataflowMonitor m = DataflowMonitor.create(p, OPTIONS);
    m.evaluate(Map.of("s", Value.of("(\\v -> v + 1)(2)")));
    // The body applied a closure: its call site holds an instance of a body's lambda.
    assertThatThrownBy(m::snapshot).isInstanceOf(SnapshotException.class)
        .hasMessageContaining("stream 'z'").hasMessageContaining("cannot be persisted");
  }
}
