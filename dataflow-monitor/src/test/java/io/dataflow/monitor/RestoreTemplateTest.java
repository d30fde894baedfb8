package io.dataflow.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.MonitorException;
import io.dataflow.core.Value;
import io.dataflow.core.snapshot.MonitorSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Monitors restored from one snapshot of one program share only what the program derives once
 * (docs/decisions.md, "A monitor makes its handles and held values on first use"): each holds
 * its own cells, rings, nodes, held values and handles. Two monitors restored from the same
 * bytes, driven through different traces in interleaved ticks, each continue exactly as a third
 * monitor restored alone and driven through its trace (outputs and the snapshot bytes after
 * every tick), on seeded generated specifications (interpreted and generated code, absent
 * inputs) and on programs with dynamic properties, lambdas, lists and maps. A failure names its
 * seed.
 */
class RestoreTemplateTest {
  private static final int SPECS = 200;

  @Test
  void monitorsRestoredFromTheSameProgramDivergeIndependently() {
    long base = Long.getLong("dataflow.seed", 0x15F00DL);
    for (int i = 0; i < SPECS; i++) {
      long seed = base + i;
      String text = SnapshotWalkPlanTest.spec(new Random(seed));
      try {
        check(seed, DataflowProgram.compile("gen.dsrv", text, TypingMode.GRADUAL),
            SnapshotWalkPlanTest::row);
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("seed=" + seed + " (replay with -Ddataflow.seed=" + seed
            + "):\n" + text, e);
      }
    }
  }

  @Test
  void dynamicPropertiesLambdasListsAndMapsDivergeIndependently() {
    String[] texts = {
        "in x: Int\nin s\nout z\nout n\nz = dynamic(s)\nn = default(x[2], 0) + x",
        "in x: Int\naux inc = \\v: Int -> v + 1\nout z = inc(x)\n"
            + "out l = List.map(\\v -> v * 2, [x, x])\nout m = Map.insert({\"a\": 1}, \"b\", x)"
            + "\nout p = default(z[1], 0)"};
    for (int k = 0; k < texts.length; k++) {
      long seed = 0x15F00DL + k;
      DataflowProgram p = DataflowProgram.compile("t.dsrv", texts[k]);
      check(seed, p, rnd -> {
        Map<String, Value> row = new HashMap<>();
        if (rnd.nextInt(5) != 0) {
          row.put("x", Value.of(rnd.nextInt(200) - 100));
        }
        if (p.inputs().slotOf("s") >= 0 && rnd.nextInt(3) == 0) {
          row.put("s", Value.of(List.of("x + 1", "default(x[1], 5) * 2", "x")
              .get(rnd.nextInt(3))));
        }
        return row;
      });
    }
  }

  @Test
  void aRestoredMonitorsHandlesAreItsOwnAndMadeOnce() {
    DataflowProgram p = DataflowProgram.compile("c.dsrv",
        "in x: Int\nout z: Int\nz = default(z[1], 0) + x");
    DataflowMonitor m = DataflowMonitor.create(p);
    m.input("x").setInt(5);
    m.step();
    byte[] bytes = m.snapshot().toBytes();
    DataflowMonitor a = DataflowMonitor.restore(p, MonitorSnapshot.fromBytes(bytes)).monitor();
    DataflowMonitor b = DataflowMonitor.restore(p, MonitorSnapshot.fromBytes(bytes)).monitor();
    assertThat(a.input("x")).isSameAs(a.input("x")).isNotSameAs(b.input("x"));
    assertThat(a.output("z")).isSameAs(a.output("z")).isNotSameAs(b.output("z"));
    a.input("x").setInt(1);
    a.step();
    b.input("x").setInt(100);
    b.step();
    a.input("x").setInt(2);
    a.step();
    assertThat(a.output("z").getInt()).isEqualTo(8);
    assertThat(b.output("z").getInt()).isEqualTo(105);
    assertThat(m.output("z").getInt()).isEqualTo(5);
  }

  /** Restores two monitors from one snapshot and drives them apart, each against a witness. */
  private static void check(long seed, DataflowProgram program,
      java.util.function.Function<Random, Map<String, Value>> rows) {
    DataflowMonitor.Options options = DataflowMonitor.Options.DEFAULT.withFused(seed % 2 == 0);
    Random rnd = new Random(~seed);
    DataflowMonitor m = DataflowMonitor.create(program, options);
    int before = rnd.nextInt(12);
    for (int i = 0; i < before && m.failure() == null; i++) {
      outcome(m, rows.apply(rnd));
    }
    byte[] bytes = m.snapshot().toBytes();
    DataflowMonitor a = DataflowMonitor.restore(program, MonitorSnapshot.fromBytes(bytes),
        options).monitor();
    DataflowMonitor b = DataflowMonitor.restore(program, MonitorSnapshot.fromBytes(bytes),
        options).monitor();
    List<Map<String, Value>> traceA = new ArrayList<>();
    List<Map<String, Value>> traceB = new ArrayList<>();
    int ticks = 1 + rnd.nextInt(12);
    for (int i = 0; i < ticks; i++) {
      traceA.add(rows.apply(rnd));
      traceB.add(rows.apply(rnd));
    }
    // Interleaved: a tick of one must not move the other.
    List<String> outA = new ArrayList<>();
    List<String> outB = new ArrayList<>();
    List<byte[]> snapsA = new ArrayList<>();
    List<byte[]> snapsB = new ArrayList<>();
    for (int i = 0; i < ticks; i++) {
      outA.add(outcome(a, traceA.get(i)));
      snapsA.add(a.snapshot().toBytes());
      outB.add(outcome(b, traceB.get(i)));
      snapsB.add(b.snapshot().toBytes());
    }
    expectAlone(program, bytes, options, traceA, outA, snapsA, "first");
    expectAlone(program, bytes, options, traceB, outB, snapsB, "second");
  }

  /** A monitor restored alone and driven through {@code trace} gives what was seen. */
  private static void expectAlone(DataflowProgram program, byte[] bytes,
      DataflowMonitor.Options options, List<Map<String, Value>> trace, List<String> outs,
      List<byte[]> snaps, String which) {
    DataflowMonitor alone = DataflowMonitor.restore(program, MonitorSnapshot.fromBytes(bytes),
        options).monitor();
    for (int i = 0; i < trace.size(); i++) {
      assertThat(outcome(alone, trace.get(i))).as("%s monitor, tick %d", which, i)
          .isEqualTo(outs.get(i));
      assertThat(alone.snapshot().toBytes()).as("%s monitor's snapshot after tick %d", which, i)
          .isEqualTo(snaps.get(i));
    }
  }

  private static String outcome(DataflowMonitor m, Map<String, Value> row) {
    try {
      return String.valueOf(m.evaluate(row));
    } catch (MonitorException e) {
      return "failed: " + e.getMessage();
    } catch (IllegalStateException e) {
      return "refused: " + e.getMessage();
    }
  }
}
