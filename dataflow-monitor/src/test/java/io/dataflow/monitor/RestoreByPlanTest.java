package io.dataflow.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.dataflow.core.MonitorException;
import io.dataflow.core.Value;
import io.dataflow.core.snapshot.MonitorSnapshot;
import io.dataflow.core.snapshot.OperatorState;
import io.dataflow.core.snapshot.SnapshotReader;
import io.dataflow.core.snapshot.StreamState;
import io.dataflow.monitor.eval.StateWalker;
import io.dataflow.monitor.eval.StreamCell;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A restore into the same program reads the snapshot's bytes straight into the fresh
 * monitor's slots (docs/decisions.md, "A restore into the same program reads the snapshot's
 * bytes into the slots"). On seeded generated specifications (SnapshotWalkPlanTest's, and a
 * few with private rings, Floats and flags), with generated code and interpreted: the monitor
 * restored from the bytes holds exactly the snapshot (its own snapshot has the same bytes) and
 * continues as the one restored from the records and as the original. For every changed
 * operator state (an operator left out or repeated, a value fewer or more, a value of another
 * kind, another kind of operator) the bytes' restore refuses it with the records' message or
 * restores what the records restore. The seed is printed (replay with
 * {@code -Ddataflow.seed=N}).
 */
class RestoreByPlanTest {
  private static final List<String> MORE = List.of(
      "in x: Int\nin y: Int\nin f: Float\nout a\na = default((x + y)[2], 0)\n"
          + "out b\nb = default((x * 2)[1], -1) + init(x, 0)\nout c\nc = x > y\n",
      "in x: Int\nin y: Int\nin f: Float\nout g\ng = default(g[1], 1.5) + f * 0.5\n"
          + "out h\nh = update(init(x, 0), y)\nout k\nk = default((f * 2.0)[3], 0.25)\n",
      "in x: Int\nin y: Int\nin f: Float\nout z\nz = default(z[1], 0) + x\n");

  private static long seed() {
    long seed = Long.getLong("dataflow.seed", 0x15B1A7EL);
    System.out.println("RestoreByPlanTest: seed " + seed + " (replay with -Ddataflow.seed="
        + seed + ")");
    return seed;
  }

  private static String spec(long seed, int i) {
    return i < MORE.size() ? MORE.get(i) : SnapshotWalkPlanTest.spec(new Random(seed + i));
  }

  @Test
  void aRestoreFromTheBytesContinuesAsTheRecordsRestore() {
    long seed = seed();
    int direct = 0;
    for (int i = 0; i < 150; i++) {
      String text = spec(seed, i);
      try {
        direct += check(seed + i, text);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("seed=" + (seed + i) + ", spec " + i + ":\n" + text, e);
      }
    }
    assertThat(direct).as("restores read from the bytes").isGreaterThan(300);
  }

  private static int check(long seed, String text) {
    DataflowProgram program = DataflowProgram.compile("gen.dsrv", text, TypingMode.GRADUAL);
    DataflowMonitor.Options options = DataflowMonitor.Options.DEFAULT.withFused(seed % 2 == 0);
    Random rnd = new Random(~seed);
    DataflowMonitor m = DataflowMonitor.create(program, options);
    int direct = 0;
    int ticks = 1 + rnd.nextInt(16);
    for (int i = 0; i <= ticks && m.failure() == null; i++) {
      MonitorSnapshot snap = m.snapshot();
      byte[] bytes = snap.toBytes();
      MonitorSnapshot read = MonitorSnapshot.fromBytes(bytes);
      DataflowMonitor fromBytes = DataflowMonitor.restoreByPlan(program, read, options);
      if (fromBytes == null) {
        assertThat(allPlanned(m)).as("every stream has a plan, tick %d", i).isFalse();
        fromBytes = DataflowMonitor.restore(program, read, options).monitor();
      } else {
        direct++;
      }
      DataflowMonitor fromRecords = DataflowMonitor.restore(program, records(snap), options)
          .monitor();
      assertThat(fromBytes.snapshot().toBytes()).as("tick %d", i).isEqualTo(bytes);
      assertThat(fromRecords.snapshot().toBytes()).as("tick %d", i).isEqualTo(bytes);
      assertThat(DataflowMonitor.restore(program, read, options).monitor().snapshot().toBytes())
          .isEqualTo(bytes);
      for (int k = 0; k < 3; k++) {
        Map<String, Value> row = SnapshotWalkPlanTest.row(rnd);
        String expected = outcome(fromRecords, row);
        assertThat(outcome(fromBytes, row)).as("tick %d + %d", i, k).isEqualTo(expected);
      }
      assertThat(fromBytes.snapshot().toBytes()).isEqualTo(fromRecords.snapshot().toBytes());
      outcome(m, SnapshotWalkPlanTest.row(rnd));
    }
    return direct;
  }

  private static boolean allPlanned(DataflowMonitor m) {
    for (StreamCell c : m.evaluator.cells()) {
      if (c.root != null && !StateWalker.followsPlan(c)) {
        return false;
      }
    }
    return true;
  }

  /** The same snapshot holding its records (a restore from it takes the records). */
  private static MonitorSnapshot records(MonitorSnapshot s) {
    return new MonitorSnapshot(s.formatVersion(), s.programName(), s.definitionKey(),
        s.nextTick(), s.revision(), s.failure(), s.streams());
  }

  private static String outcome(DataflowMonitor m, Map<String, Value> row) {
    try {
      return String.valueOf(m.evaluate(row));
    } catch (MonitorException e) {
      return "failed: " + e.getMessage();
    }
  }

  @Test
  void aChangedOperatorStateIsRefusedOrRestoredAsTheRecordsDo() {
    long seed = seed();
    int fromBytes = 0;
    int refused = 0;
    for (int i = 0; i < 24; i++) {
      String text = spec(seed, i);
      DataflowProgram program = DataflowProgram.compile("gen.dsrv", text, TypingMode.GRADUAL);
      DataflowMonitor.Options options = DataflowMonitor.Options.DEFAULT.withFused(i % 2 == 0);
      Random rnd = new Random(seed + i);
      DataflowMonitor m = DataflowMonitor.create(program, options);
      for (int k = 1 + rnd.nextInt(8); k > 0; k--) {
        outcome(m, SnapshotWalkPlanTest.row(rnd));
      }
      MonitorSnapshot snap = m.snapshot();
      List<StreamState> streams = snap.streams();
      for (int s = 0; s < streams.size(); s++) {
        StreamState st = streams.get(s);
        List<OperatorState> ops = st.operators();
        List<List<OperatorState>> variants = new ArrayList<>();
        variants.add(List.of());
        variants.add(concat(ops, List.of(new OperatorState("Update", List.of(Value.of(1))))));
        for (int j = 0; j < ops.size(); j++) {
          OperatorState op = ops.get(j);
          List<Value> vs = op.values();
          variants.add(without(ops, j));
          variants.add(replace(ops, j, o -> o, true));
          variants.add(replace(ops, j, o -> new OperatorState("Init", o.values()), false));
          variants.add(replace(ops, j, o -> new OperatorState(o.kind(), concat(vs,
              List.of(Value.of(7)))), false));
          if (!vs.isEmpty()) {
            variants.add(replace(ops, j, o -> new OperatorState(o.kind(),
                vs.subList(0, vs.size() - 1)), false));
          }
          for (int v = 0; v < vs.size(); v++) {
            for (Value other : List.of(Value.TRUE, Value.of(1.5), Value.of(123456789L),
                Value.of(-3), Value.NOVAL, Value.UNIT, Value.of(Long.MAX_VALUE))) {
              int at = v;
              List<Value> changed = new ArrayList<>(vs);
              changed.set(at, other);
              variants.add(replace(ops, j, o -> new OperatorState(o.kind(), changed), false));
            }
          }
        }
        for (List<OperatorState> changedOps : variants) {
          List<StreamState> changed = new ArrayList<>(streams);
          changed.set(s, new StreamState(st.name(), st.role(), st.declaredType(),
              st.fingerprint(), st.current(), st.lastPresent(), st.historyDepth(), st.history(),
              changedOps));
          MonitorSnapshot rec = new MonitorSnapshot(snap.formatVersion(), snap.programName(),
              snap.definitionKey(), snap.nextTick(), snap.revision(), snap.failure(), changed);
          MonitorSnapshot read = MonitorSnapshot.fromBytes(rec.toBytes());
          fromBytes += SnapshotReader.of(read) != null ? 1 : 0;
          String what = "seed " + (seed + i) + ", stream " + st.name() + ": " + changedOps;
          Object[] expected = attempt(program, rec, options);
          Object[] actual = attempt(program, read, options);
          assertThat(actual[0]).as(what).isEqualTo(expected[0]);
          refused += expected[0].toString().startsWith("refused") ? 1 : 0;
          if (expected[1] != null) {
            Map<String, Value> row = SnapshotWalkPlanTest.row(rnd);
            assertThat(outcome((DataflowMonitor) actual[1], row)).as(what)
                .isEqualTo(outcome((DataflowMonitor) expected[1], row));
          }
        }
      }
    }
    assertThat(fromBytes).as("changed snapshots read from their bytes").isGreaterThan(400);
    assertThat(refused).as("changed snapshots refused").isGreaterThan(200);
  }

  /** The restore's outcome (its snapshot's bytes, or the refusal) and the monitor. */
  private static Object[] attempt(DataflowProgram program, MonitorSnapshot s,
      DataflowMonitor.Options options) {
    try {
      DataflowMonitor m = DataflowMonitor.restore(program, s, options).monitor();
      return new Object[] {java.util.Arrays.toString(m.snapshot().toBytes()), m};
    } catch (RuntimeException e) {
      return new Object[] {"refused: " + e.getClass().getName() + ": " + e.getMessage(), null};
    }
  }

  private static <T> List<T> concat(List<T> a, List<T> b) {
    List<T> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  private static List<OperatorState> without(List<OperatorState> ops, int j) {
    List<OperatorState> out = new ArrayList<>(ops);
    out.remove(j);
    return out;
  }

  private static List<OperatorState> replace(List<OperatorState> ops, int j,
      UnaryOperator<OperatorState> f, boolean twice) {
    List<OperatorState> out = new ArrayList<>(ops);
    out.set(j, f.apply(ops.get(j)));
    if (twice) {
      out.add(j, ops.get(j));
    }
    return out;
  }
}
