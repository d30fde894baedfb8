package io.dataflow.monitor.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The keyed kernel's working copy ({@link KeyedKernel#workLength}): a vector converted in and
 * back is the same vector, the steps' kinds ({@code Steps.get}, {@code Steps.put}) are the
 * packed format's bytes, and a kind written in the copy lands in exactly its byte of the
 * vector. The equivalence tests of the keyed monitor (against lone monitors) run every tick
 * through these conversions; this one checks them on their own, on every byte. A failure names
 * its seed.
 */
class KeyedKernelWorkFormatTest {
  private static final int ROUNDS = 2000;

  @Test
  void aVectorConvertedInAndBackIsUnchangedAndItsKindsAreItsBytes() {
    SeededRounds.run("KeyedKernelWorkFormatTest", 0x16B17E5L, ROUNDS, "",
        KeyedKernelWorkFormatTest::check);
  }

  /**
   * A ring's head comes from the vector, which a damaged checkpoint may hold: a head outside
   * the ring fails the step before anything is read past the ring's kinds or written.
   */
  @Test
  void aRingHeadOutsideTheRingFailsBeforeTouchingTheVector() {
    // Wide part: 3 payloads; narrow word 3, in the working copy from element 3 on: 3 (head + 1),
    // 4 (size), 5..7 (kinds of a ring of depth 3), 8 (the pushed value's kind), 9 and 10 (a
    // read's result and last).
    for (int head : new int[] {4, 5, 77, 200, 255}) {
      long[] v = new long[4];
      v[3] = head | 3L << 8;
      long[] x = new long[KeyedKernel.workLength(v.length, 3)];
      KeyedKernel.toWork(v, x, 3);
      long[] before = x.clone();
      long[] cb = new long[0];
      assertThatThrownBy(() -> KeyedKernel.Steps.push(x, cb, 8, 2, 3, 5, 0, 3))
          .as("push, head %d", head).isInstanceOf(IndexOutOfBoundsException.class);
      assertThat(x).isEqualTo(before);
      assertThatThrownBy(() -> KeyedKernel.Steps.hist(x, cb, 9, 0, 10, 1, 3, 5, 0, 3, 1))
          .as("hist, head %d", head).isInstanceOf(IndexOutOfBoundsException.class);
      assertThat(x).isEqualTo(before);
    }
  }

  private static void check(Random rnd) {
    int length = 1 + rnd.nextInt(40);
    int narrowAt = rnd.nextInt(length + 1);
    long[] v = new long[length];
    for (int k = 0; k < length; k++) {
      v[k] = rnd.nextLong();
    }
    long[] x = new long[KeyedKernel.workLength(length, narrowAt)];
    KeyedKernel.toWork(v, x, narrowAt);
    long[] back = new long[length];
    KeyedKernel.fromWork(x, back, narrowAt);
    assertThat(back).as("narrow part from %d of %s", narrowAt, Arrays.toString(v)).isEqualTo(v);
    long[] constants = {rnd.nextLong(), rnd.nextLong()};
    for (int at = 8 * narrowAt; at < 8 * length; at++) {
      int element = narrowAt + at - 8 * narrowAt;
      assertThat(KeyedKernel.Steps.get(x, constants, element)).as("byte %d", at)
          .isEqualTo((byte) (v[at >>> 3] >>> (8 * (at & 7))));
    }
    assertThat(KeyedKernel.Steps.get(x, constants, ~1)).isEqualTo((byte) constants[1]);
    long[] expected = v.clone();
    int writes = 8 * (length - narrowAt) == 0 ? 0 : rnd.nextInt(64);
    for (int w = 0; w < writes; w++) {
      int at = 8 * narrowAt + rnd.nextInt(8 * (length - narrowAt)); // a byte of the vector
      int element = narrowAt + at - 8 * narrowAt;
      byte kind = (byte) rnd.nextInt(256);
      KeyedKernel.Steps.put(x, element, kind);
      int shift = 8 * (at & 7);
      expected[at >>> 3] = expected[at >>> 3] & ~(0xFFL << shift) | (kind & 0xFFL) << shift;
      assertThat(KeyedKernel.Steps.get(x, constants, element)).isEqualTo(kind);
    }
    KeyedKernel.fromWork(x, back, narrowAt);
    assertThat(back).as("after %d writes", writes).isEqualTo(expected);
  }
}
