package io.dataflow.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.Row;
import io.dataflow.core.Value;
import io.dataflow.core.snapshot.SnapshotException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A keyed monitor's state written and read back ({@code writeState}/{@code readState}). */
class KeyedMonitorStateTest {
  static final String SCALAR = "in x: Int\nout n: Int\nout s: Int\nn = default(n[1], 0) + 1\n"
      + "s = default(s[2], 0) + x";
  static final String STRINGS = "in w: Str\nout last: Str\nlast = default(w, default(last[1], \"\"))";
  static final String DYNAMIC = "in x: Int\nin p: Str\nout d\nd = dynamic(p)";

  static byte[] write(KeyedMonitor k) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      k.writeState(out);
    }
    return bytes.toByteArray();
  }

  static void read(KeyedMonitor k, byte[] state) throws Exception {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(state))) {
      k.readState(in, 42);
    }
  }

  /** Feeds {@code ticks} seeded ticks to keys "a", 7L and 3 (an Integer). */
  static void feed(KeyedMonitor k, long seed, int ticks, String input, boolean strings) {
    Random r = new Random(seed);
    Row in = k.inputs().newRow();
    Row out = k.outputs().newRow();
    List<Object> keys = List.of("a", 7L, 3);
    int slot = k.inputs().slotOf(input);
    for (int t = 0; t < ticks; t++) {
      in.clear();
      in.set(slot, strings ? Value.of("v" + r.nextInt(5)) : Value.of(r.nextInt(100)));
      if (k.inputs().slotOf("p") >= 0) {
        in.set(k.inputs().slotOf("p"), Value.of("x * 2"));
        in.set(k.inputs().slotOf("x"), Value.of(r.nextInt(100)));
      }
      k.evaluate(keys.get(r.nextInt(keys.size())), t, in, out);
    }
  }

  /**
   * Catches: a vector written without its revision table, keys of the wrong type after a read,
   * snapshot keys (references, dynamic bodies) that lose state, and a read that changes how
   * later ticks evaluate.
   */
  @Test
  void everyKindOfKeyReadsBackToTheSameStateAndGoesOnTheSame() throws Exception {
    for (String[] c : new String[][] {{SCALAR, "x"}, {STRINGS, "w"}, {DYNAMIC, "x"}}) {
      DataflowProgram p = DataflowProgram.compile("k.dsrv", c[0]);
      KeyedMonitor original = KeyedMonitor.create(p);
      feed(original, 1, 50, c[1], c[1].equals("w"));
      KeyedMonitor copy = KeyedMonitor.create(p);
      read(copy, write(original));
      assertThat(copy.size()).isEqualTo(original.size());
      assertThat(copy.keys()).containsExactlyElementsOf(original.keys()); // first-arrival order
      for (Object key : original.keys()) {
        assertThat(copy.contains(key)).as("%s keeps key %s of type %s", c[0], key,
            key.getClass()).isTrue();
        assertThat(copy.snapshot(key)).as("%s key %s", c[0], key)
            .isEqualTo(original.snapshot(key));
      }
      feed(original, 2, 30, c[1], c[1].equals("w"));
      feed(copy, 2, 30, c[1], c[1].equals("w"));
      for (Object key : original.keys()) {
        assertThat(copy.snapshot(key)).isEqualTo(original.snapshot(key));
      }
    }
  }

  /** Catches: vectors read by another program's layout (silently wrong state). */
  @Test
  void vectorsOfAnotherProgramAreRefused() throws Exception {
    KeyedMonitor original = KeyedMonitor.create(DataflowProgram.compile("k.dsrv", SCALAR));
    feed(original, 1, 10, "x", false);
    KeyedMonitor other = KeyedMonitor.create(DataflowProgram.compile("k.dsrv",
        SCALAR + "\nout t: Int\nt = n + s"));
    assertThatThrownBy(() -> read(other, write(original))).isInstanceOf(SnapshotException.class)
        .hasMessageContaining("another program");
  }

  /** Catches: damaged state read as keys. */
  @Test
  void damagedStateIsATypedError() throws Exception {
    KeyedMonitor original = KeyedMonitor.create(DataflowProgram.compile("k.dsrv", SCALAR));
    feed(original, 1, 10, "x", false);
    byte[] state = write(original);
    state[0] ^= 1;
    KeyedMonitor copy = KeyedMonitor.create(DataflowProgram.compile("k.dsrv", SCALAR));
    assertThatThrownBy(() -> read(copy, state)).isInstanceOf(SnapshotException.class)
        .hasMessageContaining("bad magic");
    byte[] truncated = java.util.Arrays.copyOf(write(original), 40);
    assertThatThrownBy(() -> read(copy, truncated)).isInstanceOf(java.io.IOException.class);
  }

  /** Catches: a restored key expired at once because its last tick is another clock's. */
  @Test
  void readKeysCountAsSeenAtTheReadingTime() throws Exception {
    KeyedMonitor original = KeyedMonitor.create(DataflowProgram.compile("k.dsrv", SCALAR));
    feed(original, 1, 10, "x", false);
    KeyedMonitor copy = KeyedMonitor.create(DataflowProgram.compile("k.dsrv", SCALAR));
    read(copy, write(original));
    assertThat(copy.expireIdle(42)).isZero();
    assertThat(copy.expireIdle(43)).isEqualTo(original.size());
  }
}
