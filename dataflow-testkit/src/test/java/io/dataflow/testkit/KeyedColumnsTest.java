package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.MonitorException;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Value;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.KeyedMonitor;
import io.dataflow.monitor.internal.KeyedColumns;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The keyed monitor's columns entry ({@link KeyedColumns}, what the pipeline's drivers call)
 * against its per-record path ({@link KeyedMonitor#evaluate}) on generated specifications and
 * traces: the same outputs (written into a batch's columns, or into the row when the tick did
 * not run in place), the same tick indices, failures, next ticks and snapshots. The traces are
 * long enough (more than 1024 ticks in place) that the kernel's generated code takes over
 * part-way.
 */
class KeyedColumnsTest {
  static LongStream seeds() {
    return Seeds.seeds(300);
  }

  /**
   * The testkit's generated specifications (most of them not covered by the kernel). Catches: an
   * output slot the columns path does not write (the columns start with garbage), outputs
   * written at the wrong place, a tick index off by one, a tick declined in the kernel whose
   * outputs are looked for in the columns, and a key's state left different by the two entries.
   */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void theColumnsEntryIsThePerRecordPath(long seed) {
    Seeds.check(seed, c -> {
      GeneratedSpec spec = c.note("spec", generated(seed));
      compare(c, seed, spec.text(), spec.inputTypes(), false);
    });
  }

  /**
   * Scalar specifications that the kernel evaluates in place (Int inputs; histories,
   * {@code default}, {@code init}, {@code update}, {@code latch}, {@code if}, {@code when},
   * arithmetic that overflows or divides by zero now and then): every seed runs ticks in the
   * columns, interpreted steps first, then generated code.
   */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void theColumnsEntryIsThePerRecordPathInPlace(long seed) {
    Seeds.check(seed, c -> {
      String text = c.note("spec", scalarSpec(new SplittableRandom(seed)));
      compare(c, seed, text, Map.of("x", StreamType.INT, "y", StreamType.INT), true);
    });
  }

  static String scalarSpec(SplittableRandom r) {
    StringBuilder sb = new StringBuilder("in x: Int\nin y: Int\n");
    sb.append("out sum: Int = default(sum[1], 0) + x\n");
    List<String> ints = new ArrayList<>(List.of("x", "y", "sum"));
    int streams = 1 + r.nextInt(4);
    for (int k = 0; k < streams; k++) {
      String name = "s" + k;
      String role = r.nextInt(4) == 0 ? "aux " : "out ";
      if (r.nextInt(5) == 0) {
        String v = ints.get(r.nextInt(ints.size()));
        sb.append(role).append(name).append(": Bool = ").append(switch (r.nextInt(3)) {
          case 0 -> "when(" + v + ")";
          case 1 -> "is_defined(" + v + "[2])";
          default -> "(" + v + " < " + ints.get(r.nextInt(ints.size())) + ")";
        }).append('\n');
      } else {
        sb.append(role).append(name).append(": Int = ").append(intExpr(r, ints, name, 3))
            .append('\n');
        ints.add(name);
      }
    }
    return sb.toString();
  }

  private static String intExpr(SplittableRandom r, List<String> ints, String self, int depth) {
    String v = ints.get(r.nextInt(ints.size()));
    if (depth == 0 || r.nextInt(4) == 0) {
      return switch (r.nextInt(6)) {
        case 0 -> Integer.toString(r.nextInt(4));
        case 1 -> "default(" + v + "[" + (1 + r.nextInt(3)) + "], " + r.nextInt(4) + ")";
        case 2 -> "default(" + self + "[1], 1)";
        case 3 -> v + "[" + (1 + r.nextInt(2)) + "]";
        default -> v;
      };
    }
    String a = intExpr(r, ints, self, depth - 1);
    String b = intExpr(r, ints, self, depth - 1);
    return switch (r.nextInt(10)) {
      case 0 -> "init(" + a + ", " + b + ")";
      case 1 -> "update(" + a + ", " + b + ")";
      case 2 -> "latch(" + a + ", " + b + ")";
      case 3 -> "(if " + v + " > 0 then " + a + " else " + b + ")";
      case 4 -> "default((" + a + ")[1], 0)";
      case 5 -> "(" + a + " / " + v + ")"; // divides by zero now and then
      default -> "(" + a + " " + new String[] {"+", "-", "*"}[r.nextInt(3)] + " " + b + ")";
    };
  }

  /** The seed's generated specification: strings on even seeds, risky operators on every third. */
  static GeneratedSpec generated(long seed) {
    return new SpecGenerator(seed).strings(seed % 2 == 0).risky(seed % 3 == 0 ? 0.2 : 0).next();
  }

  /** {@code n} keys, strings and longs alternating, as a partitioned source's records hold them. */
  static List<Object> keys(int n) {
    List<Object> keyOf = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      keyOf.add(k % 2 == 0 ? "robot-" + k : (Object) (long) k);
    }
    return keyOf;
  }

  /**
   * Traces within the spec's horizon, one after another: more than 1024 ticks in all, so that
   * generated code takes over part-way.
   */
  static List<Map<String, Value>> trace(long seed, Map<String, StreamType> inputs) {
    List<Map<String, Value>> trace = new ArrayList<>();
    for (int k = 0; trace.size() < 1300; k++) {
      trace.addAll(new TraceGenerator(seed * 31 + k).length(150, SpecGenerator.HORIZON)
          .next(inputs));
    }
    return trace;
  }

  /** Clears {@code input} and sets the tick's values of the inputs the program declares. */
  static void fill(Row input, RowLayout in, Map<String, Value> tick) {
    input.clear();
    for (Map.Entry<String, Value> e : tick.entrySet()) {
      int slot = in.slotOf(e.getKey());
      if (slot >= 0) {
        input.set(slot, e.getValue());
      }
    }
  }

  /**
   * Runs a trace over a few keys through both entries, comparing as it goes and the keys'
   * state at the end. {@code inPlace}: some ticks must have had their outputs in the columns
   * unless every key failed (a scalar program the kernel covers).
   */
  private static void compare(Seeds.Case c, long seed, String text,
      Map<String, StreamType> inputs, boolean inPlace) {
    SplittableRandom random = new SplittableRandom(seed);
    DataflowProgram program = DataflowProgram.compile("spec.dsrv", text);
    KeyedMonitor rows = KeyedMonitor.create(program);
    KeyedMonitor columns = KeyedMonitor.create(program);
    int keys = c.note("keys", 1 + random.nextInt(6));
    List<Object> keyOf = keys(keys);
    List<Map<String, Value>> trace = trace(seed, inputs);
    RowLayout in = program.inputs();
    RowLayout out = program.outputs();
    int width = out.width();
    Row input = in.newRow();
    Row expected = out.newRow();
    Row fallback = out.newRow();
    int capacity = 4;
    byte[] kinds = new byte[capacity * width];
    long[] bits = new long[capacity * width];
    int inColumns = 0;
    for (int t = 0; t < trace.size(); t++) {
      Object key = keyOf.get(random.nextInt(keys));
      fill(input, in, trace.get(t));
      int at = random.nextInt(capacity) * width;
      for (int i = 0; i < kinds.length; i++) {
        kinds[i] = (byte) random.nextInt(); // garbage: every output slot must be written
        bits[i] = random.nextLong();
      }
      long wantTick = rows.nextTick(key);
      MonitorException want = null;
      MonitorException got = null;
      try {
        rows.evaluate(key, t, input, expected);
      } catch (MonitorException e) {
        want = e;
      }
      long result = 0;
      try {
        result = KeyedColumns.evaluate(columns, key, t, input, fallback, kinds, bits, at);
      } catch (MonitorException e) {
        got = e;
      }
      String where = "tick " + t + " of key " + key;
      if (want != null) {
        assertThat(got).as(where).isNotNull();
        assertThat(got.getMessage()).as(where).isEqualTo(want.getMessage());
        continue;
      }
      assertThat(got).as(where).isNull();
      assertThat(result >= 0 ? result : ~result).as(where).isEqualTo(wantTick);
      for (int j = 0; j < width; j++) {
        Value v = result >= 0
            ? io.dataflow.core.Kind.box(kinds[at + j], bits[at + j], null) : fallback.get(j);
        assertThat(v).as("%s, output %s", where, j).isEqualTo(expected.get(j));
      }
      inColumns += result >= 0 ? 1 : 0;
    }
    c.note("ticks in columns", inColumns);
    assertThat(columns.keys()).isEqualTo(rows.keys());
    for (Object key : rows.keys()) {
      assertThat(columns.nextTick(key)).as("key %s", key).isEqualTo(rows.nextTick(key));
      assertThat(columns.failure(key) == null).as("key %s", key)
          .isEqualTo(rows.failure(key) == null);
      if (rows.failure(key) == null) {
        assertThat(columns.snapshot(key)).as("key %s", key).isEqualTo(rows.snapshot(key));
      }
    }
    if (inPlace && rows.keys().stream().anyMatch(k -> rows.failure(k) == null)) {
      assertThat(inColumns).as("ticks in the columns").isPositive();
    }
  }
}
