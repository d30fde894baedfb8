package io.dataflow.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.MonitorException;
import io.dataflow.core.Row;
import io.dataflow.core.Value;
import io.dataflow.core.snapshot.MonitorSnapshot;
import io.dataflow.monitor.internal.KeyedFormats;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.LinkedHashMap;
import java.util.function.Function;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link KeyedMonitor}: every key behaves as a lone interpreting monitor fed that key's ticks:
 * the same outputs, failures, tick counts and snapshots, through snapshot/restore, removal,
 * idle expiry and reconfiguration (transfer, RetainExact, cold), on generated specifications.
 */
class KeyedMonitorTest {
  private static final DataflowMonitor.Options LONE = DataflowMonitor.Options.DEFAULT
      .withFusion(DataflowMonitor.Fusion.OFF);

  static LongStream seeds() {
    return LongStream.range(0, 1000);
  }

  // ---- generated specifications ----

  /** A random specification over Int inputs x, y and Str input s. */
  static String spec(SplittableRandom r) {
    StringBuilder sb = new StringBuilder("in x: Int\nin y: Int\nin s: Str\n");
    List<String> ints = new ArrayList<>(List.of("x", "y"));
    List<String> bools = new ArrayList<>();
    int streams = 1 + r.nextInt(4);
    for (int k = 0; k < streams; k++) {
      String name = "s" + k;
      int c = r.nextInt(6);
      String role = r.nextInt(4) == 0 ? "aux " : "out ";
      if (c == 0) {
        sb.append(role).append(name).append(": Bool = ").append(boolExpr(r, ints, bools))
            .append('\n');
        bools.add(name);
      } else if (c == 1) {
        sb.append(role).append(name).append(": Str = ").append(strExpr(r, name)).append('\n');
      } else {
        sb.append(role).append(name).append(": Int = ").append(intExpr(r, ints, name, 3))
            .append('\n');
        ints.add(name);
      }
    }
    if (r.nextInt(4) == 0) { // a counter: its own history
      sb.append("out c: Int = default(c[1], 0) + ").append(ints.get(r.nextInt(ints.size())))
          .append('\n');
    }
    return sb.toString();
  }

  private static String intExpr(SplittableRandom r, List<String> ints, String self, int depth) {
    String v = ints.get(r.nextInt(ints.size()));
    if (depth == 0 || r.nextInt(4) == 0) {
      return switch (r.nextInt(7)) {
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

  private static String boolExpr(SplittableRandom r, List<String> ints, List<String> bools) {
    String v = ints.get(r.nextInt(ints.size()));
    return switch (r.nextInt(5)) {
      case 0 -> "when(" + v + ")";
      case 1 -> "is_defined(" + v + "[2])";
      case 2 -> bools.isEmpty() ? "true" : "(" + bools.get(0) + " && " + v + " > 1)";
      default -> "(" + v + " < " + ints.get(r.nextInt(ints.size())) + ")";
    };
  }

  private static String strExpr(SplittableRandom r, String self) {
    return switch (r.nextInt(3)) {
      case 0 -> "s ++ \"!\"";
      case 1 -> "default(" + self + "[1], \"\") ++ s";
      default -> "init(s, \"none\")";
    };
  }

  private static void randomRow(SplittableRandom r, Row in) {
    for (int i = 0; i < 2; i++) {
      if (r.nextInt(4) == 0) {
        in.setNoVal(i);
      } else {
        in.setInt(i, r.nextInt(7) - 2);
      }
    }
    if (r.nextInt(3) == 0) {
      in.setNoVal(2);
    } else {
      in.setStr(2, "k" + r.nextInt(3));
    }
  }

  // ---- the comparison ----

  /**
   * How the keyed monitor evaluates compact keys: as created (the kernel's steps interpreted,
   * generated code after many ticks), the kernel's generated code from the first tick, or
   * every key loaded into the working monitor (no kernel).
   */
  enum Path { DEFAULT, GENERATED, LOADING }

  /** The paths whose keys the keyed kernel evaluates in place (interpreted, generated). */
  private static final Path[] IN_PLACE = {Path.DEFAULT, Path.GENERATED};

  /** A keyed monitor and one lone monitor per key, run side by side. */
  private static final class Pair {
    final long seed;
    final String text;
    KeyedMonitor keyed;
    /** In first-arrival order, the order the keyed monitor defines (see its Javadoc). */
    final Map<Object, DataflowMonitor> lone = new LinkedHashMap<>();
    final Map<Object, Long> lastSeen = new HashMap<>();
    DataflowProgram program;

    Pair(long seed, String text) {
      this(seed, text, Path.DEFAULT);
    }

    Pair(long seed, String text, Path path) {
      this.seed = seed;
      this.text = text;
      this.program = DataflowProgram.compile("spec.dsrv", text);
      this.keyed = switch (path) {
        case DEFAULT -> KeyedMonitor.create(program);
        case GENERATED -> KeyedMonitor.createGenerated(program);
        case LOADING -> KeyedMonitor.createLoading(program);
      };
    }

    String why() {
      return "seed=" + seed + "\n" + program.source();
    }

    void tick(Object key, long at, Row in) {
      DataflowMonitor m = lone.computeIfAbsent(key, k -> DataflowMonitor.create(program, LONE));
      lastSeen.put(key, at);
      Row expected = program.outputs().newRow();
      Row actual = program.outputs().newRow();
      MonitorException want = null;
      MonitorException got = null;
      try {
        m.evaluate(in, expected);
      } catch (MonitorException e) {
        want = e;
      }
      try {
        keyed.evaluate(key, at, in, actual);
      } catch (MonitorException e) {
        got = e;
      }
      if (want != null) {
        assertThat(got).as(why()).isNotNull();
        assertThat(got.getMessage()).as(why()).isEqualTo(want.getMessage());
        assertThat(keyed.failure(key).getMessage()).as(why()).isEqualTo(want.getMessage());
        return;
      }
      assertThat(got).as(why()).isNull();
      for (int i = 0; i < expected.width(); i++) {
        assertThat(actual.get(i)).as("%s\nkey %s output %s", why(), key, i)
            .isEqualTo(expected.get(i));
      }
    }

    void checkState() {
      assertThat(keyed.keys()).as(why()).containsExactlyElementsOf(lone.keySet());
      List<Object> snapshotted = new ArrayList<>();
      keyed.snapshots((k, s) -> {
        snapshotted.add(k);
        assertThat(s).as("%s\nkey %s", why(), k).isEqualTo(lone.get(k).snapshot());
      });
      assertThat(snapshotted).as(why()).containsExactlyElementsOf(lone.keySet());
      for (Map.Entry<Object, DataflowMonitor> e : lone.entrySet()) {
        DataflowMonitor m = e.getValue();
        assertThat(keyed.nextTick(e.getKey())).as(why()).isEqualTo(m.nextTick());
        assertThat(keyed.snapshot(e.getKey())).as("%s\nkey %s", why(), e.getKey())
            .isEqualTo(m.snapshot());
      }
    }

    void reconfigure(String targetText, boolean cold) {
      DataflowProgram target = DataflowProgram.compile("spec.dsrv", targetText);
      TransferMapping mapping = cold ? null : TransferMapping.plan(program, target);
      ContextTransferReport want = null;
      for (Map.Entry<Object, DataflowMonitor> e : lone.entrySet()) {
        DataflowMonitor m = e.getValue();
        DataflowMonitor.Transition t;
        if (mapping == null || m.failure() != null) {
          t = DataflowMonitor.coldStart(m, target, LONE);
        } else if (mapping.retainExact()) {
          t = DataflowMonitor.retainExact(m, target, LONE);
        } else {
          t = DataflowMonitor.transfer(m, target, mapping, LONE);
        }
        e.setValue(t.monitor());
        if (want == null && m.failure() == null) {
          want = t.report();
        }
      }
      ContextTransferReport got = keyed.reconfigure(target, mapping);
      if (want != null) {
        assertThat(got).as(why()).isEqualTo(want);
      }
      program = target;
    }
  }

  /**
   * One random operation of the equivalence tests, or none (36 times in 40): check the state,
   * snapshot and restore, remove or expire keys, reconfigure to the same definition, a larger
   * one or another program from {@code specs}.
   */
  private static void randomOperation(Pair p, SplittableRandom r, Object key, long at,
      String text, Function<SplittableRandom, String> specs) {
    switch (r.nextInt(40)) {
      case 0 -> p.checkState();
      case 1 -> snapshotRestore(p, r);
      case 2 -> {
        assertThat(p.keyed.remove(key)).isTrue();
        p.lone.remove(key);
        p.lastSeen.remove(key);
      }
      case 3 -> expire(p, at - r.nextInt(20));
      case 4 -> p.reconfigure(text, false); // same definition: RetainExact
      case 5 -> p.reconfigure(text + "out extra: Int = default(extra[1], 0) + 1\n", false);
      case 6 -> p.reconfigure(specs.apply(r), r.nextBoolean()); // another program: transfer or cold
      default -> { }
    }
  }

  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void everyKeyIsALoneMonitor(long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    String text = spec(r);
    Pair p = new Pair(seed, text);
    int keys = 2 + r.nextInt(5);
    Row in = p.program.inputs().newRow();
    long at = r.nextBoolean() ? 0 : Long.MAX_VALUE - 1000;
    for (int step = 0; step < 120; step++) {
      at++;
      Object key = r.nextInt(3) == 0 ? "k" + r.nextInt(keys) : Long.valueOf(r.nextInt(keys));
      randomRow(r, in);
      p.tick(key, at, in);
      randomOperation(p, r, key, at, text, KeyedMonitorTest::spec);
      if (!p.program.inputs().names().equals(List.of("x", "y", "s"))) {
        throw new AssertionError("inputs changed");
      }
    }
    p.checkState();
  }

  // ---- scalar specifications: the keyed kernel's programs, evaluated in place ----

  /**
   * A random specification of Int, Float and Bool streams over inputs x, y (Int) and z
   * (Float), with no strings: the programs {@code eval.KeyedKernel} evaluates in place.
   */
  static String scalarSpec(SplittableRandom r) {
    StringBuilder sb = new StringBuilder("in x: Int\nin y: Int\nin z: Float\n");
    List<String> ints = new ArrayList<>(List.of("x", "y"));
    List<String> bools = new ArrayList<>();
    int streams = 1 + r.nextInt(4);
    for (int k = 0; k < streams; k++) {
      String name = "s" + k;
      int c = r.nextInt(7);
      String role = r.nextInt(4) == 0 ? "aux " : "out ";
      if (c == 0) {
        sb.append(role).append(name).append(": Bool = ").append(boolExpr(r, ints, bools))
            .append('\n');
        bools.add(name);
      } else if (c == 1) {
        String b = bools.isEmpty() ? "(x > y)" : bools.get(r.nextInt(bools.size()));
        String e = switch (r.nextInt(4)) {
          case 0 -> "!" + b;
          case 1 -> "(" + b + " || z[1] >= 0.5)";
          case 2 -> "(" + b + " => is_defined(z[1]))";
          default -> "update(" + b + ", x < z)";
        };
        sb.append(role).append(name).append(": Bool = ").append(e).append('\n');
        bools.add(name);
      } else if (c == 2) {
        String e = switch (r.nextInt(4)) {
          case 0 -> "-z";
          case 1 -> "default(z[1], 1.5)";
          case 2 -> "latch(z, x)";
          default -> "(if z < 1.0 then z else -(z[0]))";
        };
        sb.append(role).append(name).append(": Float = ").append(e).append('\n');
      } else {
        String e = r.nextInt(5) == 0 ? "-(" + intExpr(r, ints, name, 2) + ")"
            : r.nextInt(5) == 0 ? "(" + intExpr(r, ints, name, 2) + ")[0]"
            : intExpr(r, ints, name, 3);
        sb.append(role).append(name).append(": Int = ").append(e).append('\n');
        ints.add(name);
      }
    }
    if (r.nextInt(4) == 0) { // a counter: its own history
      sb.append("out c: Int = default(c[1], 0) + ").append(ints.get(r.nextInt(ints.size())))
          .append('\n');
    }
    return sb.toString();
  }

  private static void scalarRow(SplittableRandom r, Row in) {
    for (int i = 0; i < 2; i++) {
      int c = r.nextInt(40);
      if (c < 10) {
        in.setNoVal(i);
      } else if (c == 10) {
        in.setInt(i, Long.MAX_VALUE - r.nextInt(2)); // overflows now and then
      } else if (c == 11) {
        in.setFloat(i, 1.5); // not an Int: the working monitor's type error
      } else {
        in.setInt(i, r.nextInt(7) - 2);
      }
    }
    if (r.nextInt(3) == 0) {
      in.setNoVal(2);
    } else {
      in.setFloat(2, r.nextInt(8) * 0.25);
    }
  }

  static LongStream scalarSeeds() {
    return LongStream.range(0, 1200);
  }

  /**
   * The keyed kernel (ticks evaluated on each key's vector, its steps interpreted and as
   * generated code) against lone monitors, and the working monitor's path (every key loaded)
   * on the same programs: outputs, failures, tick counts, snapshots, through snapshot/restore,
   * removal, expiry and reconfiguration.
   */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("scalarSeeds")
  void scalarKeysInPlaceAreLoneMonitors(long seed) {
    for (Path path : Path.values()) {
      boolean inPlace = path != Path.LOADING;
      SplittableRandom r = new SplittableRandom(seed);
      String text = scalarSpec(r);
      Pair p = new Pair(seed, text, path);
      assertThat(p.keyed.evaluatesInPlace()).as(p.why()).isEqualTo(inPlace);
      int keys = 2 + r.nextInt(5);
      Row in = p.program.inputs().newRow();
      long at = r.nextBoolean() ? 0 : Long.MAX_VALUE - 1000;
      for (int step = 0; step < 150; step++) {
        at++;
        Object key = r.nextInt(3) == 0 ? "k" + r.nextInt(keys) : Long.valueOf(r.nextInt(keys));
        scalarRow(r, in);
        p.tick(key, at, in);
        randomOperation(p, r, key, at, text, KeyedMonitorTest::scalarSpec);
        if (inPlace) {
          assertThat(p.keyed.evaluatesInPlace()).as(p.why()).isTrue();
        }
        if (path == Path.GENERATED && step > 0) { // installed at the first tick in place
          assertThat(p.keyed.runsGeneratedCode()).as(p.why()).isTrue();
        }
      }
      p.checkState();
    }
  }

  private static void snapshotRestore(Pair p, SplittableRandom r) {
    List<Object> keys = new ArrayList<>(p.lone.keySet());
    if (keys.isEmpty()) {
      return;
    }
    Object from = keys.get(r.nextInt(keys.size()));
    Object to = r.nextBoolean() ? from : "restored" + r.nextInt(2);
    MonitorSnapshot snap = p.keyed.snapshot(from);
    assertThat(snap).as(p.why()).isEqualTo(p.lone.get(from).snapshot());
    DataflowMonitor.Transition t = DataflowMonitor.restore(p.program, snap, LONE);
    assertThat(p.keyed.restore(to, snap)).as(p.why()).isEqualTo(t.report());
    p.lone.put(to, t.monitor());
    p.lastSeen.putIfAbsent(to, 0L);
  }

  private static void expire(Pair p, long idleSince) {
    int expected = 0;
    for (Object k : new ArrayList<>(p.lone.keySet())) {
      if (p.lastSeen.getOrDefault(k, 0L) - idleSince < 0) {
        p.lone.remove(k);
        p.lastSeen.remove(k);
        expected++;
      }
    }
    assertThat(p.keyed.expireIdle(idleSince)).as(p.why()).isEqualTo(expected);
  }

  @Test
  void aFailedKeyStaysFailedWhileTheOthersGoOn() {
    DataflowProgram p = DataflowProgram.compile("div.dsrv",
        "in x: Int\nin y: Int\nout q: Int = default(q[1], 0) + x / y\n");
    KeyedMonitor keyed = KeyedMonitor.create(p);
    Row in = p.inputs().newRow();
    Row out = p.outputs().newRow();
    in.setInt(0, 6);
    in.setInt(1, 2);
    keyed.evaluate("a", 1, in, out);
    keyed.evaluate("b", 2, in, out);
    in.setInt(1, 0);
    MonitorException first = null;
    try {
      keyed.evaluate("a", 3, in, out);
    } catch (MonitorException e) {
      first = e;
    }
    assertThat(first).isNotNull();
    in.setInt(1, 3);
    keyed.evaluate("b", 4, in, out);
    assertThat(out.get(0)).isEqualTo(Value.of(5));
    try {
      keyed.evaluate("a", 5, in, out);
      throw new AssertionError("a failed key evaluated a tick");
    } catch (MonitorException e) {
      assertThat(e).isSameAs(first);
    }
    assertThat(keyed.failure("a")).isSameAs(first);
    assertThat(keyed.failure("b")).isNull();
    assertThat(keyed.nextTick("a")).isEqualTo(1);
    assertThat(keyed.nextTick("b")).isEqualTo(2);
  }

  /**
   * Ticks the kernel declines part-way, interpreted and as generated code: x and y already
   * moved into the tick's working copy of the vector, then a present string (the working
   * monitor's), or an overflow after other steps wrote the copy. The working monitor then
   * evaluates the tick from the key's vector as a lone monitor would (outputs, state, failure).
   */
  @Test
  void aTickDeclinedPartWayLeavesTheKeyAsItWas() {
    String text = "in x: Int\nin y: Int\nin s: Str\n"
        + "out c: Int = default(c[1], 0) + x\nout d: Int = default(d[2], 1) - y\n"
        + "out n: Bool = is_defined(s)\n";
    for (Path path : IN_PLACE) {
      Pair p = new Pair(-2, text, path);
      assertThat(p.keyed.evaluatesInPlace()).isTrue();
      Row in = p.program.inputs().newRow();
      long at = 0;
      for (int round = 0; round < 3; round++) {
        for (long k = 0; k < 3; k++) {
          in.setInt(0, k + round);
          in.setInt(1, 2 * k);
          in.setNoVal(2);
          p.tick(k, ++at, in); // in place
          in.setInt(0, 7);
          in.setNoVal(1);
          in.setStr(2, "s" + k); // x moved, y moved (NoVal: held), then declined
          p.tick(k, ++at, in);
        }
        p.checkState();
      }
      in.setInt(0, Long.MAX_VALUE); // c overflows after d's steps ran on the copy
      in.setInt(1, 1);
      in.setNoVal(2);
      p.tick(1L, ++at, in);
      in.setInt(0, 1);
      p.tick(2L, ++at, in);
      p.checkState();
      assertThat(p.keyed.failure(1L)).isNotNull();
      if (path == Path.GENERATED) {
        assertThat(p.keyed.runsGeneratedCode()).isTrue();
      }
    }
  }

  /**
   * A hot key's tick that leaves the hot format (an absent input after present ones: the
   * input's held value is no longer its fresh one) and a hot key's tick that fails (an
   * overflow), interpreted and as generated code: outputs, failures, state and tick counts are
   * the lone monitors', and the last-seen times are the ticks' (the generated hot tick leaves
   * the last-seen time out of its working copy, so its widening path must put it there; without
   * that, key 1 would expire at 100).
   */
  @Test
  void aHotKeyThatWidensOrFailsKeepsItsStateAndLastSeenTime() {
    String text = "in val: Int\nout sum: Int = default(sum[1], 0) + val\n";
    for (Path path : IN_PLACE) {
      Pair p = new Pair(-16, text, path);
      Row in = p.program.inputs().newRow();
      for (long k = 0; k < 3; k++) {
        in.setInt(0, k + 1);
        p.tick(k, 10 + k, in);
        assertThat(KeyedFormats.isHot(p.keyed, k)).as(path.name()).isTrue();
      }
      in.setNoVal(0);
      p.tick(1L, 100, in); // widens: val's held value is now 2
      assertThat(KeyedFormats.isHot(p.keyed, 1L)).as(path.name()).isFalse();
      in.setInt(0, 5);
      p.tick(0L, 101, in);
      assertThat(KeyedFormats.isHot(p.keyed, 0L)).as(path.name()).isTrue();
      in.setInt(0, Long.MAX_VALUE); // sum 3 + MAX_VALUE overflows
      p.tick(2L, 102, in);
      assertThat(p.keyed.failure(2L)).as(path.name()).isNotNull();
      p.checkState();
      expire(p, 100); // none: key 1 was last seen at 100
      expire(p, 101); // key 1
      assertThat(p.keyed.keys()).as(path.name()).containsExactly(0L, 2L);
      in.setInt(0, 1);
      p.tick(0L, 103, in);
      p.checkState();
      assertThat(p.keyed.runsGeneratedCode()).as(path.name()).isEqualTo(path == Path.GENERATED);
    }
  }

  /**
   * A new key's hot vector stands for the fresh state, and a key that left the hot format comes
   * back once its state fits again, interpreted and as generated code: a new key is hot from its
   * first tick; a first tick that is declined (a string for the {@code Int} input) fails as a
   * lone monitor does; a key whose first two ticks have no input is wide (its kinds are not the
   * format's), fits again after its third tick and is hot after its fourth (the ticks after which
   * a wide key is offered the hot format are the 1st, 2nd, 4th, 8th and so on); outputs, failures
   * and state are the lone monitors' throughout.
   */
  @Test
  void aNewKeyStartsHotAndAWidenedKeyComesBackWhenItsStateFits() {
    String text = "in val: Int\nout sum: Int = default(sum[1], 0) + val\n";
    for (Path path : IN_PLACE) {
      Pair p = new Pair(-18, text, path);
      Row in = p.program.inputs().newRow();
      in.setInt(0, 3);
      p.tick(7L, 1, in);
      assertThat(KeyedFormats.isHot(p.keyed, 7L)).as(path.name()).isTrue();
      in.setStr(0, "s");
      p.tick(8L, 2, in); // a new key's first tick, declined: fails as the lone monitor does
      assertThat(p.keyed.failure(8L)).as(path.name()).isNotNull();
      boolean[] hot = {false, false, false, true};
      for (int t = 0; t < hot.length; t++) {
        if (t < 2) {
          in.setNoVal(0);
        } else {
          in.setInt(0, t);
        }
        p.tick(9L, 3 + t, in);
        assertThat(KeyedFormats.isHot(p.keyed, 9L)).as("%s, after tick %d", path, t)
            .isEqualTo(hot[t]);
      }
      p.tick(7L, 6, in);
      p.checkState();
      expire(p, 3); // key 8, last seen at 2
      assertThat(p.keyed.keys()).as(path.name()).containsExactly(7L, 9L);
      assertThat(p.keyed.runsGeneratedCode()).as(path.name()).isEqualTo(path == Path.GENERATED);
    }
  }

  /**
   * The hot tick's entry checks the rows' widths and leaves the inputs' kinds to its input
   * steps, on every tick, also when the same row objects come again: after in-place ticks, a
   * row of the wrong width (input or output) is refused as a lone monitor refuses it (the key's
   * state as it was; the key leaves the hot format, as before), and the same input row reused with
   * another kind (a string for the {@code Int} input) is declined and evaluated as a lone
   * monitor would (the key fails with the lone monitor's error; the other key stays hot).
   */
  @Test
  void aHotKeysRowsAreCheckedOnEveryTickWhenReused() {
    String text = "in x: Int\nout c: Int = default(c[1], 0) + x\n";
    for (Path path : IN_PLACE) {
      Pair p = new Pair(-17, text, path);
      Row in = p.program.inputs().newRow();
      Row out = p.program.outputs().newRow();
      for (long at = 1; at <= 3; at++) {
        in.setInt(0, at);
        p.tick(0L, at, in);
        p.tick(1L, at, in);
      }
      assertThat(KeyedFormats.isHot(p.keyed, 0L)).as(path.name()).isTrue();
      DataflowMonitor lone = p.lone.get(0L);
      for (Row[] rows : new Row[][] {{new Row(2), out}, {in, new Row(3)}}) {
        String want = null;
        try {
          lone.evaluate(rows[0], rows[1]);
        } catch (IllegalArgumentException e) {
          want = e.getMessage();
        }
        assertThat(want).as(path.name()).isNotNull();
        try {
          p.keyed.evaluate(0L, 50, rows[0], rows[1]);
          throw new AssertionError(path + ": a row of the wrong width was evaluated");
        } catch (IllegalArgumentException e) {
          assertThat(e.getMessage()).as(path.name()).isEqualTo(want);
        }
      }
      assertThat(KeyedFormats.isHot(p.keyed, 1L)).as(path.name()).isTrue();
      p.checkState();
      in.setStr(0, "s"); // the same row object, another kind
      p.tick(0L, 4, in);
      assertThat(p.keyed.failure(0L)).as(path.name()).isNotNull();
      in.setInt(0, 9);
      p.tick(0L, 5, in);
      p.tick(1L, 5, in);
      assertThat(KeyedFormats.isHot(p.keyed, 1L)).as(path.name()).isTrue();
      p.checkState();
      expire(p, 5); // none
      expire(p, 6); // both (key 0 failed at 4, last seen at 5)
      assertThat(p.keyed.runsGeneratedCode()).as(path.name()).isEqualTo(path == Path.GENERATED);
    }
  }

  /** Catches an order that follows the hash table (growth, removal) instead of the arrivals. */
  @Test
  void keysAreVisitedInFirstArrivalOrder() {
    DataflowProgram p = DataflowProgram.compile("n.dsrv",
        "in x: Int\nout n: Int = default(n[1], 0) + 1\n");
    KeyedMonitor keyed = KeyedMonitor.create(p);
    Row in = p.inputs().newRow();
    Row out = p.outputs().newRow();
    in.setInt(0, 1);
    List<Object> expected = new ArrayList<>();
    for (long k = 999; k >= 0; k -= 3) { // descending: not the order of Long hashes
      keyed.evaluate(k, k, in, out);
      keyed.evaluate(k, 1000 + k, in, out); // a second tick keeps the place
      expected.add(k);
    }
    keyed.evaluate("s", 5000, in, out);
    expected.add("s");
    assertThat(keyed.keys()).containsExactlyElementsOf(expected);
    assertThat(keyed.remove(999L)).isTrue();
    keyed.evaluate(999L, 5001, in, out); // forgotten and seen again: last
    expected.remove(999L);
    expected.add(999L);
    keyed.restore(3L, keyed.snapshot(3L)); // a restore of a known key keeps its place
    assertThat(keyed.keys()).containsExactlyElementsOf(expected);
    assertThat(keyed.expireIdle(1500)).isEqualTo(167); // every k < 500 (last tick 1000 + k)
    expected.removeIf(k -> k instanceof Long l && l < 500);
    assertThat(keyed.keys()).containsExactlyElementsOf(expected);
    List<Object> visited = new ArrayList<>();
    keyed.snapshots((k, s) -> visited.add(k));
    assertThat(visited).containsExactlyElementsOf(expected);
  }

  @Test
  void dynamicPropertiesKeepAMonitorPerKey() {
    Pair p = new Pair(-1, "in x\nin e\nout z\nz = dynamic(e)\n");
    Row in = p.program.inputs().newRow();
    SplittableRandom r = new SplittableRandom(3);
    for (int t = 0; t < 60; t++) {
      in.setInt(0, r.nextInt(5));
      if (r.nextInt(5) == 0) {
        in.setStr(1, r.nextBoolean() ? "x + 1" : "x * 2");
      } else {
        in.setNoVal(1);
      }
      p.tick(Long.valueOf(r.nextInt(3)), t, in);
    }
    p.checkState();
  }
}
