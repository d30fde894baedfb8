package io.dataflow.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.MonitorException;
import io.dataflow.core.Value;
import io.dataflow.core.snapshot.MonitorSnapshot;
import io.dataflow.core.snapshot.StreamState;
import io.dataflow.monitor.eval.Evaluator;
import io.dataflow.monitor.eval.StateWalker;
import io.dataflow.monitor.eval.StreamCell;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The snapshot walk that follows a recipe's flattened plan ({@code StateWalker.WalkPlan},
 * docs/performance.md, eighth pass of issue 15) saves and loads exactly what the reflective
 * walk does. On seeded generated specifications (plain equations of every operator a recipe
 * builds, so their trees have plans) and traces (with absent inputs), at random ticks: the
 * snapshot a monitor takes through the plans equals, byte for byte, the one the reflective walk
 * writes of the same monitor; a monitor restored through the plans holds, as the reflective
 * walk reads it, exactly the snapshot it was restored from, and continues as the original;
 * the snapshot written straight into its bytes by the plans (ninth pass) equals the one saved
 * into records and written from them.
 * (The testkit's generators cannot see the evaluator's package, which this module does not
 * export; the testkit's {@code SnapshotRestoreTest} covers the planned walk end to end through
 * the public API.) A failure names its seed.
 */
public class SnapshotWalkPlanTest {
  private static final int SPECS = 400;

  @Test
  void aPlannedWalkSavesAndLoadsWhatTheReflectiveWalkDoes() {
    long base = Long.getLong("dataflow.seed", 0x15C0FFEEL);
    int planned = 0;
    for (int i = 0; i < SPECS; i++) {
      long seed = base + i;
      String text = spec(new Random(seed));
      try {
        planned += check(seed, text);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("seed=" + seed + " (replay with -Ddataflow.seed=" + seed
            + "):\n" + text, e);
      }
    }
    assertThat(planned).as("streams walked by a plan").isGreaterThan(SPECS);
  }

  /** Runs a generated trace, comparing the two walks at random ticks; the planned streams. */
  private static int check(long seed, String text) {
    DataflowProgram program = DataflowProgram.compile("gen.dsrv", text, TypingMode.GRADUAL);
    DataflowMonitor.Options options = DataflowMonitor.Options.DEFAULT.withFused(seed % 2 == 0);
    Random rnd = new Random(~seed);
    DataflowMonitor m = DataflowMonitor.create(program, options);
    int ticks = 1 + rnd.nextInt(24);
    for (int i = 0; i <= ticks; i++) {
      if (i == 0 || i == ticks || rnd.nextInt(3) == 0) {
        MonitorSnapshot snap = m.snapshot();
        byte[] bytes = snap.toBytes();
        assertThat(reflective(m, snap).toBytes()).as("snapshot at tick %d", i)
            .isEqualTo(bytes);
        // Written straight into the bytes (ninth pass): as the records path saves and writes.
        MonitorSnapshot records = m.snapshotRecords();
        assertThat(records.toBytes()).as("records at tick %d", i).isEqualTo(bytes);
        assertThat(snap).as("records at tick %d", i).isEqualTo(records);
        DataflowMonitor restored = DataflowMonitor.restore(program,
            MonitorSnapshot.fromBytes(bytes), options).monitor();
        assertThat(reflective(restored, snap).toBytes()).as("restored at tick %d", i)
            .isEqualTo(bytes);
        if (i < ticks && m.failure() == null) {
          Map<String, Value> row = row(rnd);
          assertThat(outcome(restored, row)).as("tick %d after a restore", i)
              .isEqualTo(outcome(m, row));
          continue;
        }
      }
      if (i < ticks && m.failure() == null) {
        outcome(m, row(rnd));
      }
    }
    int n = 0;
    for (StreamCell cell : m.evaluator.cells()) {
      n += StateWalker.followsPlan(cell) ? 1 : 0;
    }
    return n;
  }

  private static String outcome(DataflowMonitor m, Map<String, Value> row) {
    try {
      return String.valueOf(m.evaluate(row));
    } catch (MonitorException e) {
      return "failed: " + e.getMessage();
    }
  }

  public static Map<String, Value> row(Random rnd) {
    Map<String, Value> row = new HashMap<>();
    if (rnd.nextInt(5) != 0) {
      row.put("x", Value.of(rnd.nextInt(2000) - 1000));
    }
    if (rnd.nextInt(4) != 0) {
      row.put("y", Value.of(rnd.nextInt(7) - 3));
    }
    if (rnd.nextInt(4) != 0) {
      row.put("f", Value.of(rnd.nextInt(100) / 8.0));
    }
    return row;
  }

  /** A specification of 1 to 6 computed streams over inputs x, y (Int) and f (Float). */
  public static String spec(Random rnd) {
    StringBuilder out = new StringBuilder("in x: Int\nin y: Int\nin f: Float\n");
    List<String> ints = new ArrayList<>(List.of("x", "y"));
    int n = 1 + rnd.nextInt(6);
    for (int i = 0; i < n; i++) {
      String name = "s" + i;
      boolean typed = rnd.nextBoolean();
      String expr;
      boolean isInt;
      switch (rnd.nextInt(4)) {
        case 0 -> {
          expr = "if " + cond(rnd, ints) + " then " + intExpr(rnd, ints, 2) + " else "
              + intExpr(rnd, ints, 2);
          isInt = true;
        }
        case 1 -> {
          expr = cond(rnd, ints);
          isInt = false;
        }
        case 2 -> {
          expr = "default(" + name + "[" + (1 + rnd.nextInt(3)) + "], 0) + "
              + intExpr(rnd, ints, 2);
          isInt = true;
        }
        default -> {
          expr = intExpr(rnd, ints, 3);
          isInt = true;
        }
      }
      out.append("out ").append(name).append(typed && isInt ? ": Int" : "").append('\n');
      out.append(name).append(" = ").append(expr).append('\n');
      if (isInt) {
        ints.add(name);
      }
    }
    if (rnd.nextBoolean()) {
      out.append("out g\ng = default(g[1], 1.5) + f * 0.5\n");
    }
    return out.toString();
  }

  private static String intExpr(Random rnd, List<String> ints, int depth) {
    String s = ints.get(rnd.nextInt(ints.size()));
    if (depth == 0) {
      return rnd.nextInt(4) == 0 ? String.valueOf(rnd.nextInt(20) - 5) : s;
    }
    return switch (rnd.nextInt(11)) {
      case 0 -> intExpr(rnd, ints, depth - 1) + " + " + intExpr(rnd, ints, depth - 1);
      case 1 -> "(" + intExpr(rnd, ints, depth - 1) + " - " + intExpr(rnd, ints, depth - 1) + ")";
      case 2 -> "(" + intExpr(rnd, ints, depth - 1) + " * " + intExpr(rnd, ints, depth - 1) + ")";
      case 3 -> "default(" + s + "[" + (1 + rnd.nextInt(3)) + "], " + rnd.nextInt(9) + ")";
      case 4 -> "init(" + s + ", " + rnd.nextInt(9) + ")";
      case 5 -> "default(when(" + cond(rnd, ints) + "), 0)";
      case 6 -> "update(init(x, 0), " + s + ")";
      case 7 -> "default(" + s + "[1], 0) * 2";
      case 8 -> "default(" + s + "[" + (1 + rnd.nextInt(2)) + "], " + intExpr(rnd, ints,
          depth - 1) + ")";
      case 9 -> "(if is_defined(" + s + "[1]) then " + s + " else 0)";
      default -> "abs(" + intExpr(rnd, ints, depth - 1) + ")";
    };
  }

  private static String cond(Random rnd, List<String> ints) {
    String a = ints.get(rnd.nextInt(ints.size()));
    String b = ints.get(rnd.nextInt(ints.size()));
    return switch (rnd.nextInt(4)) {
      case 0 -> a + " > " + b;
      case 1 -> a + " == " + b + " or " + b + " < 0";
      case 2 -> "not (" + a + " <= " + rnd.nextInt(5) + ")";
      default -> a + " != " + b + " and " + a + " >= -2";
    };
  }

  /** The snapshot of {@code m} as the reflective walk takes it (the header of {@code like}). */
  private static MonitorSnapshot reflective(DataflowMonitor m, MonitorSnapshot like) {
    Evaluator ev = m.evaluator;
    StateWalker.Scratch scratch = StateWalker.withoutPlans();
    List<StreamState> streams = new ArrayList<>();
    for (StreamState s : like.streams()) {
      StreamCell cell = null;
      for (StreamCell c : ev.cells()) {
        if (c.name.equals(s.name())) {
          cell = c;
        }
      }
      streams.add(StateWalker.saveStream(ev, cell, s.role(), s.declaredType(), s.fingerprint(),
          scratch));
    }
    return new MonitorSnapshot(like.formatVersion(), like.programName(), like.definitionKey(),
        like.nextTick(), like.revision(), like.failure(), streams);
  }

  @Test
  void theCounterFollowsAPlan() {
    DataflowProgram program = DataflowProgram.compile("counter.dsrv",
        "in x: Int\nout z: Int\nz = default(z[1], 0) + x\n");
    DataflowMonitor m = DataflowMonitor.create(program);
    for (int i = 0; i < 5; i++) {
      m.evaluate(Map.of("x", Value.of(i * 100)));
    }
    MonitorSnapshot snap = m.snapshot();
    assertThat(StateWalker.followsPlan(m.evaluator.cells()[1])).isTrue();
    assertThat(reflective(m, snap).toBytes()).isEqualTo(snap.toBytes());
    DataflowMonitor restored = DataflowMonitor.restore(program, snap).monitor();
    assertThat(reflective(restored, snap)).isEqualTo(snap);
    assertThat(restored.evaluate(Map.of("x", Value.of(7))))
        .isEqualTo(m.evaluate(Map.of("x", Value.of(7))));
  }
}
