package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.MonitorException;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Value;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.KeyedMonitor;
import io.dataflow.monitor.internal.KeyedColumns;
import io.dataflow.monitor.internal.KeyedFormats;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The keyed monitor's hot per-key format (a key of a program the keyed kernel covers, resident
 * in a shorter vector; docs/performance.md, keyed monitors, ninth pass) against the wide format
 * (the same keyed monitor with the hot format off) and against a lone monitor per key, on the
 * testkit's seeded generators: the same outputs (through the per-record entry and the columns
 * entry), tick indices, failures and snapshots, and the same checkpoint bytes
 * ({@link KeyedMonitor#writeState}), with keys converted to the wide format and back at random
 * ticks, and a checkpoint read back part-way. A failing seed prints itself;
 * {@code -Ddataflow.seed=N} replays it.
 */
class KeyedHotFormatTest {
  static LongStream seeds() {
    return Seeds.seeds(300);
  }

  private static final DataflowMonitor.Options LONE = DataflowMonitor.Options.DEFAULT
      .withFusion(DataflowMonitor.Fusion.OFF);

  /**
   * Scalar specifications the kernel covers, inputs present on almost every tick (so keys stay
   * hot for long stretches) or as the trace generator makes them (absent now and then, so keys
   * leave the hot format on their own: a held value then differs from the fresh one, for good).
   */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void hotKeysAreWideKeysAndLoneMonitors(long seed) {
    Seeds.check(seed, c -> {
      String text = c.note("spec", KeyedColumnsTest.scalarSpec(new SplittableRandom(seed)));
      compare(c, seed, text, Map.of("x", StreamType.INT, "y", StreamType.INT), seed % 2 == 0,
          false);
    });
  }

  /**
   * {@code groupsum} (the running sum of issue 16's target) beside a second sum of {@code y}:
   * with present inputs the keys are hot most of the time, so the hot format's own tick
   * (interpreted, then generated code after 1024 ticks) and its conversions are what runs.
   */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void groupsumKeysStayHot(long seed) {
    Seeds.check(seed, c -> {
      String text = "in x: Int\nin y: Int\nout sum: Int = default(sum[1], 0) + x\n"
          + (seed % 2 == 0 ? "out t: Int = default(t[1], 0) + y\n" : "aux n: Int = -y\n");
      int hotTicks = compare(c, seed, text, Map.of("x", StreamType.INT, "y", StreamType.INT),
          true, true);
      assertThat(hotTicks).as("ticks of hot keys").isGreaterThan(100);
    });
  }

  /** The testkit's generated specifications (most not covered by the kernel: no hot format). */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void generatedSpecificationsAreUnchanged(long seed) {
    Seeds.check(seed, c -> {
      GeneratedSpec spec = c.note("spec", KeyedColumnsTest.generated(seed));
      compare(c, seed, spec.text(), spec.inputTypes(), false, false);
    });
  }

  /**
   * Runs a trace over a few keys through the hot keyed monitor (half of the ticks through the
   * columns entry), the wide one and lone monitors, comparing as it goes and at the end.
   * {@code present}: absent inputs replaced by present ones (all of them with {@code groupsum},
   * all but one in 200 without).
   *
   * <p>Catches: a payload left out of the hot format that a tick changed (its check), a conversion
   * that drops or moves a word, a widened tick whose outputs or state are lost, a checkpoint or
   * snapshot of a hot key that differs from the wide key's, a decline that leaves a hot key
   * half-written.
   */
  private static int compare(Seeds.Case c, long seed, String text,
      Map<String, StreamType> inputs, boolean present, boolean groupsum) throws IOException {
    SplittableRandom random = new SplittableRandom(seed);
    DataflowProgram program = DataflowProgram.compile("spec.dsrv", text);
    KeyedMonitor hot = KeyedMonitor.create(program);
    KeyedMonitor wide = KeyedFormats.createWide(program);
    Map<Object, DataflowMonitor> lone = new LinkedHashMap<>();
    int keys = c.note("keys", 1 + random.nextInt(5));
    List<Object> keyOf = KeyedColumnsTest.keys(keys);
    List<Map<String, Value>> trace = KeyedColumnsTest.trace(seed, inputs);
    RowLayout in = program.inputs();
    int width = program.outputs().width();
    Row input = in.newRow();
    Row expected = program.outputs().newRow();
    Row wideOut = program.outputs().newRow();
    Row actual = program.outputs().newRow();
    byte[] kinds = new byte[width];
    long[] bits = new long[width];
    int hotTicks = 0;
    int conversions = 0;
    for (int t = 0; t < trace.size(); t++) {
      Object key = keyOf.get(random.nextInt(keys));
      KeyedColumnsTest.fill(input, in, trace.get(t));
      if (present) {
        for (int i = 0; i < in.width(); i++) {
          if (!input.get(i).isPresent() && (groupsum || random.nextInt(200) != 0)) {
            input.set(i, Value.of(random.nextInt(7) - 2));
          }
        }
      }
      String where = "tick " + t + " of key " + key;
      hotTicks += KeyedFormats.isHot(hot, key) ? 1 : 0;
      long wantTick = wide.nextTick(key);
      assertThat(hot.nextTick(key)).as(where).isEqualTo(wantTick);
      DataflowMonitor m = lone.computeIfAbsent(key, k -> DataflowMonitor.create(program, LONE));
      MonitorException want = null;
      MonitorException got = null;
      MonitorException gotWide = null;
      try {
        m.evaluate(input, expected);
      } catch (MonitorException e) {
        want = e;
      }
      try {
        wide.evaluate(key, t, input, wideOut);
      } catch (MonitorException e) {
        gotWide = e;
      }
      long result = 0;
      boolean columns = random.nextBoolean();
      for (int j = 0; j < width; j++) {
        kinds[j] = (byte) random.nextInt(); // garbage: every output slot must be written
        bits[j] = random.nextLong();
      }
      try {
        if (columns) {
          result = KeyedColumns.evaluate(hot, key, t, input, actual, kinds, bits, 0);
        } else {
          result = hot.evaluate(key, t, input, actual);
        }
      } catch (MonitorException e) {
        got = e;
      }
      if (want != null) {
        assertThat(got).as(where).isNotNull();
        assertThat(got.getMessage()).as(where).isEqualTo(want.getMessage());
        assertThat(gotWide).as(where).isNotNull();
        assertThat(hot.failure(key).getMessage()).as(where).isEqualTo(want.getMessage());
      } else {
        assertThat(got).as(where).isNull();
        assertThat(gotWide).as(where).isNull();
        assertThat(result >= 0 ? result : ~result).as(where).isEqualTo(wantTick);
        for (int j = 0; j < width; j++) {
          Value v = columns && result >= 0
              ? io.dataflow.core.Kind.box(kinds[j], bits[j], null) : actual.get(j);
          assertThat(v).as("%s, output %s", where, j).isEqualTo(expected.get(j));
          assertThat(wideOut.get(j)).as("%s, output %s", where, j).isEqualTo(expected.get(j));
        }
      }
      switch (random.nextInt(16)) {
        case 0, 1 -> {
          KeyedFormats.convert(hot, key, random.nextBoolean());
          conversions++;
        }
        case 2 -> {
          if (hot.failure(key) == null) {
            assertThat(hot.snapshot(key)).as(where).isEqualTo(m.snapshot());
            assertThat(wide.snapshot(key)).as(where).isEqualTo(m.snapshot());
          }
        }
        case 3 -> {
          KeyedMonitor h = hot;
          if (random.nextInt(8) == 0 && h.keys().stream().allMatch(k -> h.failure(k) == null)) {
            // a checkpoint of every key, read back into both
            byte[] state = state(hot);
            assertThat(state).as(where).isEqualTo(state(wide));
            hot = KeyedMonitor.create(program);
            wide = KeyedFormats.createWide(program);
            hot.readState(new DataInputStream(new ByteArrayInputStream(state)), t);
            wide.readState(new DataInputStream(new ByteArrayInputStream(state)), t);
          }
        }
        default -> { }
      }
    }
    c.note("ticks of hot keys", hotTicks);
    c.note("conversions", conversions);
    assertThat(hot.keys()).isEqualTo(wide.keys());
    assertThat(hot.keys()).containsExactlyElementsOf(lone.keySet());
    for (Object key : hot.keys()) {
      assertThat(hot.nextTick(key)).as("key %s", key).isEqualTo(lone.get(key).nextTick());
      assertThat(hot.failure(key) == null).as("key %s", key)
          .isEqualTo(wide.failure(key) == null);
      if (hot.failure(key) == null) {
        assertThat(hot.snapshot(key)).as("key %s", key).isEqualTo(lone.get(key).snapshot());
        assertThat(wide.snapshot(key)).as("key %s", key).isEqualTo(lone.get(key).snapshot());
      }
    }
    KeyedMonitor h = hot;
    if (h.keys().stream().allMatch(k -> h.failure(k) == null)) {
      assertThat(state(h)).isEqualTo(state(wide));
    }
    return hotTicks;
  }

  private static byte[] state(KeyedMonitor keyed) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    keyed.writeState(new DataOutputStream(bytes));
    return bytes.toByteArray();
  }
}
