package io.dataflow.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.MonitorException;
import io.dataflow.core.Row;
import io.dataflow.core.TickColumns;
import io.dataflow.core.Value;
import io.dataflow.monitor.eval.Node;
import io.dataflow.monitor.eval.Nodes;
import io.dataflow.monitor.eval.Slot;
import io.dataflow.monitor.eval.StreamCell;
import io.dataflow.monitor.eval.TemporalNodes;
import io.dataflow.monitor.eval.TypedNodes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code evaluate(TickColumns, TickColumns)}: a batch gives the outputs and failures of the same
 * ticks through {@code evaluate(Row, Row)}, whether generated code runs it as one loop (typed
 * scalar specifications) or tick by tick (everything else), in batches of any size, and the
 * monitor's state after a batch is the state after the same ticks one by one.
 */
class TickColumnsTest {
  static LongStream seeds() {
    return LongStream.range(0, 300);
  }

  private static DataflowMonitor monitor(DataflowProgram p, DataflowMonitor.Fusion fusion) {
    DataflowMonitor m = DataflowMonitor.create(p,
        DataflowMonitor.Options.DEFAULT.withFusion(fusion));
    if (fusion == DataflowMonitor.Fusion.EAGER) {
      // Every program here qualifies: comparing the interpreter with itself would prove nothing.
      assertThat(m.codePath()).as("why not: %s", m.codePathReason())
          .isEqualTo(CodePath.GENERATED);
    }
    return m;
  }

  /**
   * A random specification the batch loop covers: typed scalar inputs, typed scalar operators,
   * history reads of scalar streams and {@code default}.
   */
  private static String loopSpec(SplittableRandom r) {
    StringBuilder sb = new StringBuilder("in x: Int\nin y: Int\nin f: Float\nin g: Float\n"
        + "in b: Bool\nin c: Bool\n");
    List<String> ints = new ArrayList<>(List.of("x", "y"));
    List<String> bools = new ArrayList<>(List.of("b", "c"));
    int streams = 1 + r.nextInt(5);
    for (int k = 0; k < streams; k++) {
      boolean isInt = r.nextBoolean();
      String name = "s" + k;
      String expr = isInt ? intExpr(r, ints, 3) : boolExpr(r, ints, bools, 3);
      sb.append(r.nextInt(3) == 0 ? "aux " : "out ").append(name)
          .append(isInt ? ": Int = " : ": Bool = ").append(expr).append('\n');
      (isInt ? ints : bools).add(name);
    }
    return sb.toString();
  }

  /**
   * An Int expression. Literals are 0 to 3 (a negative one would be a negation, which the loop
   * does not cover); a divisor always reads a stream, so that a batch of absent inputs divides
   * nothing while inputs (0 among them) still divide by zero.
   */
  private static String intExpr(SplittableRandom r, List<String> ints, int depth) {
    if (depth == 0 || r.nextInt(3) == 0) {
      String v = ints.get(r.nextInt(ints.size()));
      return switch (r.nextInt(8)) {
        case 0, 1 -> Integer.toString(r.nextInt(4));
        case 2 -> "default(" + v + "[" + (1 + r.nextInt(3)) + "], " + r.nextInt(4) + ")";
        case 3 -> v + "[" + (1 + r.nextInt(2)) + "]";
        case 4 -> "default(" + v + ", " + ints.get(r.nextInt(ints.size())) + ")";
        default -> v;
      };
    }
    String op = new String[] {"+", "-", "*", "/", "%"}[r.nextInt(5)];
    String right = op.equals("/") || op.equals("%")
        ? "(" + ints.get(r.nextInt(ints.size())) + " - " + r.nextInt(3) + ")"
        : intExpr(r, ints, depth - 1);
    return "(" + intExpr(r, ints, depth - 1) + " " + op + " " + right + ")";
  }

  private static String boolExpr(SplittableRandom r, List<String> ints, List<String> bools,
      int depth) {
    int c = depth == 0 ? 0 : r.nextInt(4);
    if (c == 0) {
      String v = bools.get(r.nextInt(bools.size()));
      return switch (r.nextInt(6)) {
        case 0 -> "true";
        case 1 -> "default(" + v + "[1], false)";
        default -> v;
      };
    }
    if (c == 1) {
      String op = new String[] {"&&", "||", "=>"}[r.nextInt(3)];
      return "(" + boolExpr(r, ints, bools, depth - 1) + " " + op + " "
          + boolExpr(r, ints, bools, depth - 1) + ")";
    }
    String cmp = new String[] {"<", "<=", ">", ">="}[r.nextInt(4)];
    if (c == 2) {
      return "(" + intExpr(r, ints, depth - 1) + " " + cmp + " " + intExpr(r, ints, depth - 1)
          + ")";
    }
    return "(" + (r.nextBoolean() ? "f" : "g") + " " + cmp + " "
        + (r.nextBoolean() ? "g" : "1.5") + ")";
  }

  /**
   * Fills tick {@code t} of {@code in} with random values of each input's kind, or (unless
   * {@code dense}) absences.
   */
  private static void randomTick(SplittableRandom r, DataflowProgram p, TickColumns in, int t,
      boolean dense) {
    for (int s = 0; s < in.width(); s++) {
      int c = dense ? 2 + r.nextInt(10) : r.nextInt(12);
      if (c == 0) {
        in.setNoVal(s, t);
      } else if (c == 1) {
        in.set(s, t, Value.DEFERRED);
      } else {
        switch (p.inputs().name(s)) {
          case "f", "g" -> in.setFloat(s, t, r.nextInt(20) == 0 ? Double.NaN : r.nextInt(16) / 4.0);
          case "b", "c" -> in.setBool(s, t, r.nextBoolean());
          default -> in.setInt(s, t, r.nextInt(dense ? 400 : 40) == 0
              ? Long.MAX_VALUE - r.nextInt(3) : r.nextInt(41) - 20);
        }
      }
    }
  }

  /**
   * Runs {@code batches} random batches through columns and through rows, compares, and returns
   * {ticks evaluated by generated loops, ticks evaluated, dense batches}.
   */
  private static long[] compare(long seed, String spec, DataflowMonitor.Fusion fusion,
      int batches) {
    return compare(seed, spec, fusion, batches, Integer.MAX_VALUE);
  }

  /** The same, where one batch in {@code denseEvery} (on average) has every input present. */
  private static long[] compare(long seed, String spec, DataflowMonitor.Fusion fusion,
      int batches, int denseEvery) {
    SplittableRandom r = new SplittableRandom(seed);
    DataflowProgram p = DataflowProgram.compile("b.dsrv", spec);
    DataflowMonitor columns = monitor(p, fusion);
    DataflowMonitor rows = monitor(p, fusion);
    TickColumns in = p.inputs().newColumns(70);
    TickColumns out = p.outputs().newColumns(70);
    Row rowIn = p.inputs().newRow();
    Row rowOut = p.outputs().newRow();
    for (int b = 0; b < batches; b++) {
      int n = r.nextInt(71);
      boolean dense = r.nextInt(denseEvery) == 0;
      for (int t = 0; t < n; t++) {
        randomTick(r, p, in, t, dense);
      }
      in.setSize(n);
      long first = columns.nextTick();
      MonitorException failed = null;
      try {
        columns.evaluate(in, out);
      } catch (MonitorException e) {
        failed = e;
      }
      for (int t = 0; t < n; t++) {
        in.copyTo(t, rowIn);
        try {
          rows.evaluate(rowIn, rowOut);
        } catch (MonitorException e) {
          assertThat(failed).as("seed=%d batch %d tick %d: the rows failed: %s\n%s", seed, b, t,
              e.getMessage(), spec).isNotNull();
          assertThat(failed.getMessage()).as("seed=%d", seed).isEqualTo(e.getMessage());
          assertThat(out.size()).as("seed=%d: ticks evaluated before the failure", seed)
              .isEqualTo(t);
          assertThat(columns.nextTick()).isEqualTo(first + t);
          return new long[] {columns.loopTicks, columns.nextTick(), columns.evaluator.denseBatches};
        }
        for (int s = 0; s < out.width(); s++) {
          assertThat(out.get(s, t)).as("seed=%d batch %d tick %d output %s\n%s", seed, b, t,
              p.outputs().name(s), spec).isEqualTo(rowOut.get(s));
        }
      }
      assertThat(failed).as("seed=%d: only the columns failed\n%s", seed, spec).isNull();
      assertThat(out.size()).isEqualTo(n);
      assertThat(columns.nextTick()).isEqualTo(rows.nextTick());
      if (fusion != DataflowMonitor.Fusion.BACKGROUND) { // both switch at the same tick
        assertThat(state(columns)).as("seed=%d: the state after batch %d\n%s", seed, b, spec)
            .isEqualTo(state(rows));
      }
    }
    return new long[] {columns.loopTicks, columns.nextTick(), columns.evaluator.denseBatches};
  }

  /**
   * The state a batch leaves for the next ticks, as text: each cell's value and run-long last
   * present value, each ring's samples, each typed operator's lifting memories (a constant
   * operand has none), each history read's last result and each default's memory.
   */
  static String state(DataflowMonitor m) {
    StringBuilder sb = new StringBuilder();
    java.util.Set<Node> seen = java.util.Collections.newSetFromMap(
        new java.util.IdentityHashMap<>());
    for (StreamCell c : m.evaluator.cells()) {
      sb.append(c.name).append(' ').append(slot(c)).append(" last present ")
          .append(slot(c.lastPresent()));
      if (c.ring != null) {
        sb.append(" ring");
        for (int k = 1; k <= c.ring.size(); k++) {
          sb.append(' ').append(c.ring.tagAgo(k)).append('/')
              .append(c.ring.tagAgo(k) <= io.dataflow.core.Kind.DEFERRED ? 0 : c.ring.bitsAgo(k));
        }
      }
      sb.append('\n');
      if (c.root != null) {
        nodeState(c.root, sb, seen);
      }
    }
    return sb.toString();
  }

  private static String slot(Slot s) {
    return s.tag + "/" + (s.tag <= io.dataflow.core.Kind.DEFERRED ? 0 : s.bits);
  }

  private static void nodeState(Node n, StringBuilder sb, java.util.Set<Node> seen) {
    if (n instanceof StreamCell || !seen.add(n)) {
      return;
    }
    sb.append("  ").append(n.getClass().getSimpleName());
    if (n instanceof TypedNodes.TypedBinary t) {
      if (!(t.left instanceof Nodes.Const)) {
        sb.append(" left ").append(t.heldLeftTag).append('/')
            .append(t.heldLeftTag <= io.dataflow.core.Kind.DEFERRED ? 0 : t.heldLeft);
      }
      if (!(t.right instanceof Nodes.Const)) {
        sb.append(" right ").append(t.heldRightTag).append('/')
            .append(t.heldRightTag <= io.dataflow.core.Kind.DEFERRED ? 0 : t.heldRight);
      }
    } else if (n instanceof TemporalNodes.DelayRead d) {
      sb.append(" last ").append(slot(d.last));
    } else if (n instanceof TemporalNodes.Default d) {
      sb.append(" held ").append(slot(d.held));
    }
    sb.append('\n');
    for (Node i : n.inputs()) {
      nodeState(i, sb, seen);
    }
  }

  /**
   * Specifications the random generator does not make: a stream reading its own history,
   * Float and Bool history (NaN among the Floats), chained {@code =>}, {@code default} of a
   * constant, one ring read by several streams at several offsets, a constant stream, a
   * division by zero in the middle of a batch. Dense batches mixed with batches of absences
   * give what the ticks give one by one, state included.
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {
      "in x: Int\nout z: Int\nz = default(z[1], 0) + x",
      "in x: Int\nout z: Int\nout w: Int\nz = (x + 1) * 2\nw = default(3, x) + (1 - x)",
      "in f: Float\nin g: Float\nout a: Bool\nout c: Bool\na = f[1] < g\n"
          + "c = (f >= g[2]) || (1.5 > f)",
      "in b: Bool\nin c: Bool\nout o: Bool\no = (b[2] => c) => default(o[1], true)",
      "in x: Int\nin y: Int\nout a: Int\nout b: Int\na = x[1] + x[2]\n"
          + "b = x[2] * default(a[1], y)",
      "in x: Int\nout k: Int\nout z: Int\naux q: Int\nk = 7\nq = x\nz = q[1] - k",
      "in x: Int\nin y: Int\nout z: Int\nz = default(x[1], 1) / (y - 5)",
      "in x: Int\nin y: Int\nout z: Int\nout t: Int\n"
          + "z = default(x[3], x + y) % (default(y[1], 0) + 1000)\n"
          + "t = z[1] + z[2] + default(t[1], 0)",
      "in b: Bool\nin x: Int\nout o: Bool\no = (x[1] < 3) && (b => (x > 0))"})
  void denseAndSparseBatchesOfHandPickedSpecificationsGiveWhatTheTicksGive(String spec) {
    long dense = 0;
    for (long seed = 0; seed < 40; seed++) {
      long[] looped = compare(seed, spec, DataflowMonitor.Fusion.EAGER, 12, 2);
      dense += looped[2];
    }
    assertThat(dense).as("dense batches of\n%s", spec).isPositive();
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void aBatchThroughTheLoopGivesWhatTheTicksGiveOneByOne(long seed) {
    String spec = loopSpec(new SplittableRandom(seed * 31 + 7));
    long[] looped = compare(seed, spec, DataflowMonitor.Fusion.EAGER, 12);
    DataflowMonitor probe = monitor(DataflowProgram.compile("b.dsrv", spec),
        DataflowMonitor.Fusion.EAGER);
    TickColumns none = probe.program().inputs().newColumns(1);
    none.setSize(1);
    try {
      probe.evaluate(none, probe.program().outputs().newColumns(1));
    } catch (MonitorException constantDivision) {
      return; // a stream of constants divides by zero on every tick: nothing to probe
    }
    // The loop covers every such specification unless its code would be too large for the JIT
    // (about 300 bytes of bytecode per operator, at most 7000).
    long operators = spec.chars().filter(ch -> ch == '(').count();
    if (operators <= 18) {
      assertThat(probe.loopTicks).as("seed=%d: the loop covers\n%s", seed, spec).isEqualTo(1);
      // Every input has its declared kind or is absent: the loop never leaves a tick to the
      // per-tick path, so every tick evaluated went through it.
      assertThat(looped[0]).as("seed=%d: ticks through the loop", seed).isEqualTo(looped[1]);
    }
  }

  /**
   * Batches whose inputs are all present take the dense loop once every ring is full of present
   * samples; mixed with batches of absences, every output, failure and the state carried
   * between batches (lifting memories, history, defaults) match the ticks one by one.
   */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void denseBatchesGiveWhatTheTicksGiveOneByOne(long seed) {
    String spec = loopSpec(new SplittableRandom(seed * 17 + 3));
    long[] looped = compare(seed, spec, DataflowMonitor.Fusion.EAGER, 16, 2);
    long operators = spec.chars().filter(ch -> ch == '(').count();
    if (operators <= 18) { // else the general loop would be too large for the JIT: tick by tick
      assertThat(looped[0]).as("seed=%d: ticks through the loops", seed).isEqualTo(looped[1]);
    }
    // Batches of present inputs (no zero, no overflow) take the dense loop from the first batch
    // that starts with every ring full.
    DataflowProgram p = DataflowProgram.compile("d.dsrv", spec);
    DataflowMonitor m = monitor(p, DataflowMonitor.Fusion.EAGER);
    SplittableRandom r = new SplittableRandom(seed);
    TickColumns in = p.inputs().newColumns(8);
    TickColumns out = p.outputs().newColumns(8);
    try {
      for (int b = 0; b < 3; b++) {
        for (int t = 0; t < 8; t++) {
          for (int s = 0; s < in.width(); s++) {
            switch (p.inputs().name(s)) {
              case "f", "g" -> in.setFloat(s, t, r.nextInt(16) / 4.0);
              case "b", "c" -> in.setBool(s, t, r.nextBoolean());
              default -> in.setInt(s, t, 10 + r.nextInt(10));
            }
          }
        }
        in.setSize(8);
        m.evaluate(in, out);
      }
    } catch (MonitorException derivedZero) {
      return; // a computed divisor (say x - x) is zero: the dense loop failed like the rows
    }
    assertThat(m.evaluator.denseBatches).as("seed=%d: dense batches of\n%s", seed, spec)
        .isBetween(2L, 3L);
    // Every tick through a loop, unless the general loop is too large for the JIT (the count
    // of operators is an estimate of that): then the ticks before the rings are full of
    // present samples go one by one, and the dense loop takes the rest of the batch from there.
    assertThat(m.loopTicks).isBetween(8 * (m.evaluator.denseBatches - 1) + 1, 24L);
  }

  /**
   * An absence early in a batch leaves the rest to the dense loop once the rings are full
   * again: the general loop stops there, and the ticks after it are offered to the dense loop.
   */
  @Test
  void anAbsenceEarlyInABatchLeavesTheRestToTheDenseLoop() {
    DataflowProgram p = DataflowProgram.compile("c.dsrv",
        "in x: Int\nout z: Int\nout w: Int\nz = default(z[1], 0) + x\nw = x[2] * 2");
    DataflowMonitor columns = monitor(p, DataflowMonitor.Fusion.EAGER);
    DataflowMonitor rows = monitor(p, DataflowMonitor.Fusion.EAGER);
    TickColumns in = p.inputs().newColumns(64);
    TickColumns out = p.outputs().newColumns(64);
    Row rowIn = p.inputs().newRow();
    Row rowOut = p.outputs().newRow();
    for (int b = 0; b < 3; b++) {
      for (int t = 0; t < 64; t++) {
        in.setInt(0, t, b * 64 + t);
      }
      if (b > 0) {
        in.setNoVal(0, 5); // the ring of x holds a NoVal until two ticks later
      }
      in.setSize(64);
      long dense = columns.evaluator.denseBatches;
      columns.evaluate(in, out);
      for (int t = 0; t < 64; t++) {
        in.copyTo(t, rowIn);
        rows.evaluate(rowIn, rowOut);
        assertThat(out.get(0, t)).isEqualTo(rowOut.get(0));
        assertThat(out.get(1, t)).isEqualTo(rowOut.get(1));
      }
      assertThat(columns.evaluator.denseBatches - dense).as("batch %d", b).isEqualTo(1);
      assertThat(state(columns)).isEqualTo(state(rows));
    }
    assertThat(columns.loopTicks).isEqualTo(3 * 64);
  }

  @ParameterizedTest
  @EnumSource(DataflowMonitor.Fusion.class)
  void specificationsTheLoopDoesNotCoverGoTickByTick(DataflowMonitor.Fusion fusion) {
    String[] specs = {
        "in x: Int\nin y: Int\nout z: Int = (x + 1)[1]\nout w = x > 3 && y > 1",
        "in x: Int\nin y: Int\nin e: Str\nout z = dynamic(e)",
        "in x\nin y\nout z = x + y",
        "in x: Int\nin y: Int\nout z = if x > y then x else y",
        "in x: Int\nin y: Int\nout s: Str = \"a\"\nout z: Float = 1.5 * 2.0"};
    for (int k = 0; k < specs.length; k++) {
      assertThat(compare(k, specs[k], fusion, 8)[0]).as(specs[k]).isZero();
    }
  }

  @Test
  void theBenchmarkWorkloadsOfScalarOperatorsRunAsOneLoop() {
    String[] specs = {"in x: Int\nin y: Int\nout z: Int\nz = x + y",
        "in x: Float\nout alert: Bool\nalert = x > 3.0",
        "in x: Int\nin y: Int\nout z: Int\nz = (x + y) * 3 - (x % 7)",
        "in x: Int\nout z: Int\nz = default(z[1], 0) + x",
        "in x: Int\nout alert: Bool\n"
            + "alert = x > 3 && default(x[1], 4) > 3 && default(x[2], 4) > 3",
        // chain32: its general loop would be too large for the JIT, its dense loop is not
        chain(32)};
    for (String spec : specs) {
      DataflowProgram p = DataflowProgram.compile("w.dsrv", spec);
      DataflowMonitor m = monitor(p, DataflowMonitor.Fusion.EAGER);
      TickColumns in = p.inputs().newColumns(16);
      for (int t = 0; t < 16; t++) {
        for (int s = 0; s < in.width(); s++) {
          if (spec.contains("Float")) {
            in.setFloat(s, t, t / 4.0);
          } else {
            in.setInt(s, t, t);
          }
        }
      }
      in.setSize(16);
      m.evaluate(in, p.outputs().newColumns(16));
      assertThat(m.loopTicks).as(spec).isEqualTo(16);
      if (spec.contains("aux a31")) {
        // Only dense batches run as one loop; against the rows, with overflows among them.
        long[] looped = compare(spec.length(), spec, DataflowMonitor.Fusion.EAGER, 10, 1);
        assertThat(looped[2]).as(spec).isPositive();
      } else if (!spec.contains("Float")) {
        // A stream reading its own history (counter) through the loop, against the rows.
        long[] looped = compare(spec.length(), spec, DataflowMonitor.Fusion.EAGER, 10);
        assertThat(looped[0]).as(spec).isEqualTo(looped[1]).isPositive();
      }
    }
  }

  /** {@code in x: Int}, {@code a0 = x + 1}, {@code aK = a(K-1) + x}, {@code out z = a(n-1)}. */
  private static String chain(int n) {
    StringBuilder sb = new StringBuilder("in x: Int\nout z: Int\n");
    for (int k = 0; k < n; k++) {
      sb.append("aux a").append(k).append(": Int = ")
          .append(k == 0 ? "x + 1" : "a" + (k - 1) + " + x").append('\n');
    }
    return sb.append("z = a").append(n - 1).append('\n').toString();
  }

  @ParameterizedTest
  @EnumSource(DataflowMonitor.Fusion.class)
  void aValueOfTheWrongTypeFailsItsTickAfterTheTicksBefore(DataflowMonitor.Fusion fusion) {
    DataflowProgram p = DataflowProgram.compile("t.dsrv",
        "in x: Int\nin y: Int\nout z: Int = x + y");
    DataflowMonitor m = monitor(p, fusion);
    TickColumns in = p.inputs().newColumns(8);
    TickColumns out = p.outputs().newColumns(8);
    for (int t = 0; t < 5; t++) {
      in.setInt(0, t, t);
      in.setInt(1, t, 10);
    }
    in.setStr(1, 3, "ten");
    in.setSize(5);
    assertThatThrownBy(() -> m.evaluate(in, out)).isInstanceOf(MonitorException.class)
        .hasMessage("tick 3: stream 'y': input 'y' is declared Int but got a value of type Str");
    assertThat(out.size()).isEqualTo(3);
    assertThat(out.getInt(0, 2)).isEqualTo(12);
    assertThat(m.nextTick()).isEqualTo(3);
    assertThatThrownBy(() -> m.evaluate(in, out)).isSameAs(m.failure());
  }

  @ParameterizedTest
  @EnumSource(DataflowMonitor.Fusion.class)
  void batchesRowsAndHandlesShareOneStateAndATransferSeesIt(DataflowMonitor.Fusion fusion) {
    DataflowProgram p = DataflowProgram.compile("s.dsrv",
        "in x: Int\nin y: Int\nout z: Int = x + y");
    DataflowMonitor m = monitor(p, fusion);
    TickColumns in = p.inputs().newColumns(4);
    TickColumns out = p.outputs().newColumns(4);
    in.setInt(0, 0, 1);
    in.setInt(1, 0, 2);
    in.setInt(0, 1, 5); // y absent: lifted 2
    in.setNoVal(1, 1);
    in.setNoVal(0, 2); // x absent too: 5 + 2
    in.setNoVal(1, 2);
    in.setSize(3);
    m.evaluate(in, out);
    assertThat(List.of(out.get(0, 0), out.get(0, 1), out.get(0, 2)))
        .containsExactly(Value.of(3), Value.of(7), Value.of(7));
    assertThat(m.evaluate(Map.of("y", Value.of(10)))).containsEntry("z", Value.of(15));
    m.input("x").setInt(100);
    m.step();
    assertThat(m.output("z").getInt()).isEqualTo(110);
    in.setNoVal(0, 0);
    in.setNoVal(1, 0);
    in.setSize(1);
    m.evaluate(in, out);
    assertThat(out.getInt(0, 0)).isEqualTo(110);
    in.setInt(0, 0, 42);
    in.setNoVal(0, 1);
    in.setNoVal(1, 1);
    in.setNoVal(0, 2);
    in.setNoVal(1, 2);
    in.setSize(3);
    m.evaluate(in, out);
    assertThat(out.getInt(0, 2)).isEqualTo(52);
    // x was absent on the last ticks: a body activated now still reads its last present value,
    // which arrived in the middle of the batch.
    DataflowProgram next = DataflowProgram.compile("d.dsrv",
        "in x: Int\nin y: Int\nin e: Str\nout z: Int = x + y\nout d = dynamic(e)");
    DataflowMonitor n = DataflowMonitor.transfer(m, next, TransferMapping.plan(p, next),
        DataflowMonitor.Options.DEFAULT.withFusion(fusion)).monitor();
    assertThat(n.evaluate(Map.of("e", Value.of("x * 2 + y")))).containsEntry("d", Value.of(94))
        .containsEntry("z", Value.of(52));
    assertThat(m.nextTick()).isEqualTo(9);
  }

  /** The example of docs/getting-started.md, "Embedding in Java". */
  @Test
  void theGettingStartedExampleEvaluatesABatch() {
    DataflowProgram program = DataflowProgram.compile("counter.dsrv",
        "in x\nout z\nz = default(z[1], 0) + x");
    DataflowMonitor monitor = DataflowMonitor.create(program);
    int x = program.inputs().slotOf("x");
    int z = program.outputs().slotOf("z");
    long[] values = {1, 2, 3};
    int n = values.length;
    TickColumns in = program.inputs().newColumns(256);
    TickColumns out = program.outputs().newColumns(256);
    for (int t = 0; t < n; t++) {
      in.setInt(x, t, values[t]);
    }
    in.setSize(n);
    monitor.evaluate(in, out);
    long last = out.getInt(z, n - 1);
    assertThat(last).isEqualTo(6);
    assertThat(out.size()).isEqualTo(3);
  }

  @Test
  void columnsOfTheWrongShapeAreRefusedAndTheMonitorStaysHealthy() {
    DataflowProgram p = DataflowProgram.compile("s.dsrv", "in x: Int\nout z: Int = x");
    DataflowMonitor m = monitor(p, DataflowMonitor.Fusion.EAGER);
    TickColumns in = p.inputs().newColumns(4);
    in.setSize(4);
    assertThatThrownBy(() -> m.evaluate(in, new TickColumns(2, 4)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("columns of widths 1 and 2 for a program with 1 inputs and 1 outputs");
    assertThatThrownBy(() -> m.evaluate(in, p.outputs().newColumns(3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("output columns hold 3 ticks, the batch has 4");
    assertThat(m.failure()).isNull();
    assertThat(m.nextTick()).isZero();
    assertThatThrownBy(() -> in.setSize(5)).isInstanceOf(IllegalArgumentException.class);
  }
}
