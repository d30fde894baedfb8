package io.dataflow.monitor.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The work format of a generated hot tick's own working copy ({@link KeyedKernel#workLength},
 * {@code Steps.ELEMENT}): a kind read at its element is the packed vector's byte, and a kind
 * written there, packed back, lands in exactly its byte, as {@code Steps.get} and
 * {@code Steps.put} do on the packed vector. The keyed monitor's equivalence tests run the
 * generated conversions; this one ties the two formats of the steps together on every byte. A
 * failure names its seed.
 */
class KeyedKernelWorkFormatTest {
  private static final int ROUNDS = 2000;

  @Test
  void aKindInItsElementIsTheVectorsByteReadAndWritten() {
    SeededRounds.run("KeyedKernelWorkFormatTest", 0x16B17E5L, ROUNDS, "",
        KeyedKernelWorkFormatTest::check);
  }

  /**
   * A ring's head comes from the vector, which a damaged checkpoint may hold: a head outside
   * the ring fails the step before anything is read past the ring's kinds or written, in the
   * work format as in the packed one.
   */
  @Test
  void aRingHeadOutsideTheRingFailsBeforeTouchingTheWorkingCopy() {
    // Wide part: 3 payloads; narrow word 3, in the working copy from element 3 on: 3 (head + 1),
    // 4 (size), 5..7 (kinds of a ring of depth 3), 8 (the pushed value's kind), 9 and 10 (a
    // read's result and last).
    int e = KeyedKernel.Steps.ELEMENT;
    for (int head : new int[] {4, 5, 77, 200, 255}) {
      long[] x = new long[KeyedKernel.workLength(4, 3)];
      x[3] = head;
      x[4] = 3;
      long[] before = x.clone();
      long[] cb = new long[0];
      assertThatThrownBy(() -> KeyedKernel.Steps.push(x, cb, e + 8, 2, e + 3, e + 5, 0, 3))
          .as("push, head %d", head).isInstanceOf(IndexOutOfBoundsException.class);
      assertThat(x).isEqualTo(before);
      assertThatThrownBy(() -> KeyedKernel.Steps.hist(x, cb, e + 9, 0, e + 10, 1, e + 3, e + 5,
          0, 3, 1)).as("hist, head %d", head).isInstanceOf(IndexOutOfBoundsException.class);
      assertThat(x).isEqualTo(before);
    }
  }

  private static void check(Random rnd) {
    int length = 1 + rnd.nextInt(40);
    int narrowAt = rnd.nextInt(length);
    long[] v = new long[length];
    for (int k = 0; k < length; k++) {
      v[k] = rnd.nextLong();
    }
    long[] x = unpacked(v, narrowAt);
    long[] constants = {rnd.nextLong(), rnd.nextLong()};
    int e = KeyedKernel.Steps.ELEMENT;
    for (int at = 8 * narrowAt; at < 8 * length; at++) {
      int element = at - 8 * narrowAt + narrowAt;
      assertThat(KeyedKernel.Steps.get(x, constants, e + element)).as("byte %d", at)
          .isEqualTo(KeyedKernel.Steps.get(v, constants, at))
          // what the generated hot tick copies in place of get (KernelEmitter)
          .isEqualTo(KeyedKernel.Steps.getWork(x, constants, e + element));
    }
    for (int literal = 0; literal < constants.length; literal++) {
      assertThat(KeyedKernel.Steps.getWork(x, constants, ~literal)).as("literal %d", literal)
          .isEqualTo(KeyedKernel.Steps.get(v, constants, ~literal));
    }
    int writes = rnd.nextInt(64);
    for (int w = 0; w < writes; w++) {
      int at = 8 * narrowAt + rnd.nextInt(8 * (length - narrowAt)); // a byte of the vector
      byte kind = (byte) rnd.nextInt(256);
      KeyedKernel.Steps.put(v, at, kind);
      int element = e + at - 8 * narrowAt + narrowAt;
      if (rnd.nextBoolean()) {
        KeyedKernel.Steps.put(x, element, kind);
      } else {
        KeyedKernel.Steps.putWork(x, element, kind);
      }
    }
    assertThat(x).as("after %d writes into %s", writes, Arrays.toString(v))
        .isEqualTo(unpacked(v, narrowAt));
  }

  /** The work format of {@code v}: its payloads, then each byte of its narrow part. */
  private static long[] unpacked(long[] v, int narrowAt) {
    long[] x = new long[KeyedKernel.workLength(v.length, narrowAt)];
    System.arraycopy(v, 0, x, 0, narrowAt);
    for (int n = narrowAt; n < v.length; n++) {
      for (int b = 0; b < 8; b++) {
        x[KeyedKernel.workAt(n, narrowAt) + b] = v[n] >>> (8 * b) & 0xFF;
      }
    }
    return x;
  }
}
