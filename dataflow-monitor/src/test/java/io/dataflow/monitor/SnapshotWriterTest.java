package io.dataflow.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.MonitorException;
import io.dataflow.core.Value;
import io.dataflow.core.snapshot.MonitorSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A monitor's snapshot is written straight into its bytes ({@code SnapshotWriter},
 * docs/decisions.md, "A monitor's snapshot is written straight into its bytes"): after every
 * tick of specifications whose state the plan covers and of those it does not (functions in
 * cells and histories' neighbours, lambdas and call sites, dynamic bodies, a poisoned monitor,
 * every kind of value, private rings), it equals the snapshot saved into records as before
 * ({@code snapshotRecords}): the same bytes, equal, the same hash code and text, and a restore
 * from it continues as the original. (Generated specifications: {@code SnapshotWalkPlanTest}.)
 */
class SnapshotWriterTest {
  private static final List<DataflowMonitor.Options> OPTIONS = List.of(
      DataflowMonitor.Options.DEFAULT.withFused(true),
      DataflowMonitor.Options.DEFAULT.withFused(false));

  @Test
  void plainStreamsOfEveryKindOfValue() {
    int planned = check("in s: Str\nin f: Float\nin b: Bool\nin x: Int\n"
        + "out t = default(s[2], \"none\")\n"
        + "out g = default(g[1], 0.5) * f\n"
        + "out c = update(init(b, false), b)\n"
        + "out d = default((x * 2)[2], 0) + default(x[3], -7000000000)\n"
        + "out z = default(z[1], 0) + x\n",
        rows(i -> row("s", i % 3 == 0 ? null : Value.of(i == 5 ? "\u00e9".repeat(70) : i == 7 ? "w".repeat(200) : "v" + i), "f", Value.of(i * 0.25 - 1),
            "b", i % 4 == 0 ? null : Value.of(i % 2 == 0), "x",
            i % 5 == 4 ? null : Value.of(i * 1_000_003L - 4))));
    assertThat(planned).as("streams written by their plan").isEqualTo(5);
  }

  @Test
  void lambdasAndCallSites() {
    check("in x: Int\nin xs: List<Int>\n"
        + "aux inc = \\v: Int -> v + 1\n"
        + "aux adder = \\n -> \\v -> v + n\n"
        + "out z = inc(x)\nout k = adder(100)(x)\n"
        + "out doubled = List.map(\\v -> v * 2, xs)\n",
        rows(i -> row("x", Value.of(i), "xs", Value.list(Value.of(i), Value.of(-i)))));
  }

  @Test
  void aFunctionInACell() {
    check("in x: Int\naux prev = \\v -> default(v[1], 0)\nout a = prev(x)\nout b = prev(x * 10)\n",
        rows(i -> row("x", Value.of(i * 3))));
  }

  @Test
  void aFunctionInASlotOfAPlannedTree() {
    // d's and e's trees (an If choosing between two lambda streams, under is_defined) have a
    // plan, and the If's own result holds a function while the cell holds a Bool: the one-pass
    // writer meets it after writing part of the snapshot, which is then written again from the
    // records (thirteenth pass of issue 15); h's cell holds the function (written from its
    // record without a try).
    check("in x: Int\naux inc = \\v: Int -> v + 1\naux dbl = \\v: Int -> v * 2\n"
        + "aux h = if x > 2 then inc else dbl\nout z = default(z[1], 0) + x\n"
        + "out d = is_defined(if x > 2 then inc else dbl)\n"
        + "out e = is_defined(default(x[1], 0) > 1 or is_defined(if x > 3 then inc else dbl))\n",
        rows(i -> row("x", Value.of(i))));
  }

  @Test
  void dynamicBodies() {
    check("in x\nin e\nout z\nz = dynamic(e)\nout w = defer(e)\n",
        rows(i -> row("x", Value.of(i), "e", i == 2 ? Value.of("x + 1")
            : i == 5 ? Value.of("default(x[1], 0) * 10") : null)));
  }

  @Test
  void aPoisonedMonitor() {
    check("in x: Int\nout z = 10 / x\nout s = default(s[1], 0) + x\n",
        rows(i -> row("x", Value.of(i == 3 ? 0 : i + 1))));
  }

  private interface RowMaker {
    Map<String, Value> row(int i);
  }

  private static List<Map<String, Value>> rows(RowMaker m) {
    List<Map<String, Value>> out = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      out.add(m.row(i));
    }
    return out;
  }

  private static Map<String, Value> row(Object... kv) {
    Map<String, Value> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      if (kv[i + 1] != null) {
        m.put((String) kv[i], (Value) kv[i + 1]);
      }
    }
    return m;
  }

  /** Compares the two after every row; the streams of the last monitor that follow a plan. */
  private static int check(String spec, List<Map<String, Value>> rows) {
    DataflowProgram program = DataflowProgram.compile("w.dsrv", spec);
    DataflowMonitor m = null;
    for (DataflowMonitor.Options options : OPTIONS) {
      m = DataflowMonitor.create(program, options);
      for (int i = 0; i <= rows.size(); i++) {
        MonitorSnapshot written = m.snapshot();
        MonitorSnapshot records = m.snapshotRecords();
        String at = "tick " + i + " (" + options.fusion() + ")";
        assertThat(written.toBytes()).as(at).isEqualTo(records.toBytes());
        assertThat(written.hashCode()).as(at).isEqualTo(records.hashCode());
        assertThat(written).as(at).isEqualTo(records);
        assertThat(records).as(at).isEqualTo(written);
        assertThat(written.toString()).as(at).isEqualTo(records.toString());
        assertThat(m.snapshot().streams()).as(at).isEqualTo(records.streams());
        if (i == rows.size()) {
          break;
        }
        DataflowMonitor restored = DataflowMonitor.restore(program, m.snapshot(), options)
            .monitor();
        assertThat(outcome(restored, rows.get(i))).as(at).isEqualTo(outcome(m, rows.get(i)));
        assertThat(restored.snapshot().toBytes()).as(at).isEqualTo(m.snapshot().toBytes());
      }
    }
    int planned = 0;
    for (io.dataflow.monitor.eval.StreamCell cell : m.evaluator.cells()) {
      planned += io.dataflow.monitor.eval.StateWalker.followsPlan(cell) ? 1 : 0;
    }
    return planned;
  }

  private static String outcome(DataflowMonitor m, Map<String, Value> row) {
    try {
      return String.valueOf(m.evaluate(row));
    } catch (MonitorException e) {
      return "failed: " + e.getMessage();
    }
  }
}
