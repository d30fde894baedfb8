package io.dataflow.monitor.eval;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A history ring makes its references' array on first use (docs/decisions.md, "A ring's
 * references and the staged inputs on first use; equal cell arrays shared"): a ring of
 * scalars never makes it, and a ring with references reads, resizes and clears exactly as one
 * that had the array from the start. Checked against a list of the samples pushed, on seeded
 * random sequences of scalar and reference samples, pushes, resizes and clears; a failure names
 * its seed.
 */
class HistoryRingTest {
  private static final int ROUNDS = 500;

  @Test
  void aRingOfScalarsNeverMakesTheArray() {
    HistoryRing ring = HistoryRing.ofCell(3);
    Slot s = new Slot();
    for (int i = 0; i < 10; i++) {
      s.setRaw(Kind.INT, i, null);
      ring.push(s);
      ring.pushRaw(Kind.BOOL, 1, null);
      ring.pushScalar(Kind.FLOAT, i);
    }
    ring.resize(5);
    ring.clear();
    assertThat(ring.refs).isNull();
    assertThat(ring.refAt(0)).isNull();
  }

  @Test
  void aRingWithReferencesReadsAsTheSamplesPushed() {
    SeededRounds.run("HistoryRingTest", 0x15A11CEL, ROUNDS, "", HistoryRingTest::check);
  }

  private static void check(Random rnd) {
    int depth = 1 + rnd.nextInt(4);
    HistoryRing ring = HistoryRing.ofCell(depth);
    List<Object[]> pushed = new ArrayList<>(); // {tag, bits, ref}, oldest first
    Slot s = new Slot();
    for (int step = 0; step < 40; step++) {
      int what = rnd.nextInt(20);
      byte tag;
      long bits;
      Object ref = null;
      if (what < 5) {
        tag = Kind.STR;
        bits = 0;
        ref = "s" + rnd.nextInt(5);
      } else {
        tag = Kind.INT;
        bits = rnd.nextInt(100);
      }
      if (what == 18) {
        depth = 1 + rnd.nextInt(4);
        ring.resize(depth);
        int keep = Math.min(ring.size(), depth);
        pushed = new ArrayList<>(pushed.subList(pushed.size() - keep, pushed.size()));
      } else if (what == 19) {
        ring.clear();
        pushed.clear();
      } else if (what % 3 == 0) {
        s.setRaw(tag, bits, ref);
        ring.push(s);
        pushed.add(new Object[] {tag, bits, ref});
      } else if (what % 3 == 1 || ref != null) {
        ring.pushRaw(tag, bits, ref);
        pushed.add(new Object[] {tag, bits, ref});
      } else {
        ring.pushScalar(tag, bits);
        pushed.add(new Object[] {tag, bits, null});
      }
      int held = Math.min(pushed.size(), depth);
      assertThat(ring.size()).isEqualTo(held);
      for (int ago = 1; ago <= held; ago++) {
        Object[] want = pushed.get(pushed.size() - ago);
        ring.read(ago, s);
        assertThat(s.tag).isEqualTo((byte) want[0]);
        assertThat(s.bits).isEqualTo((long) want[1]);
        assertThat(s.ref).isSameAs(want[2]);
      }
    }
  }
}
