package io.dataflow.monitor.eval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The keyed kernel's kinds as single bytes ({@code Steps.get} and {@code Steps.put} with
 * {@code Unsafe} on a little-endian machine) read and write exactly what the shifts and masks
 * of the packed format do: the same vectors after the same writes, the same kinds read. The
 * equivalence tests of the keyed monitor (against lone monitors) run whichever way this JVM
 * takes; this one ties the two ways together. A failure names its seed.
 */
class KeyedKernelBytesTest {
  private static final int ROUNDS = 2000;

  @Test
  void bytesAndShiftsReadAndWriteTheSameVectors() {
    SeededRounds.run("KeyedKernelBytesTest", 0x16B17E5L, ROUNDS,
        "; kinds as bytes: " + KeyedKernel.Steps.BYTES, KeyedKernelBytesTest::check);
  }

  /**
   * A ring's head comes from the vector, which a damaged checkpoint may hold: a head outside
   * the ring fails the step before anything is read past the ring's kinds or written, instead
   * of reaching memory that the byte access does not check.
   */
  @Test
  void aRingHeadOutsideTheRingFailsBeforeTouchingTheVector() {
    // Wide part: 3 payloads; narrow word 3: bytes 24 (head + 1), 25 (size), 26..28 (kinds of a
    // ring of depth 3), 29 (the pushed value's kind), 30 and 31 (a read's result and last).
    for (int head : new int[] {4, 5, 77, 200, 255}) {
      long[] v = new long[4];
      KeyedKernel.Steps.putShifted(v, 24, (byte) head);
      KeyedKernel.Steps.putShifted(v, 25, (byte) 3);
      long[] before = v.clone();
      long[] cb = new long[0];
      assertThatThrownBy(() -> KeyedKernel.Steps.push(v, cb, 29, 2, 24, 26, 0, 3))
          .as("push, head %d", head).isInstanceOf(IndexOutOfBoundsException.class);
      assertThat(v).isEqualTo(before);
      assertThatThrownBy(() -> KeyedKernel.Steps.hist(v, cb, 30, 0, 31, 1, 24, 26, 0, 3, 1))
          .as("hist, head %d", head).isInstanceOf(IndexOutOfBoundsException.class);
      assertThat(v).isEqualTo(before);
    }
  }

  private static void check(Random rnd) {
    int length = 1 + rnd.nextInt(40);
    long[] viaSteps = new long[length];
    for (int k = 0; k < length; k++) {
      viaSteps[k] = rnd.nextLong();
    }
    long[] viaShifts = viaSteps.clone();
    long[] constants = {rnd.nextLong(), rnd.nextLong()};
    int writes = rnd.nextInt(64);
    for (int w = 0; w < writes; w++) {
      int at = rnd.nextInt(8 * length);
      byte kind = (byte) rnd.nextInt(256);
      KeyedKernel.Steps.put(viaSteps, at, kind);
      KeyedKernel.Steps.putShifted(viaShifts, at, kind);
      assertThat(viaSteps).as("after writing %d at byte %d", kind, at).isEqualTo(viaShifts);
      int read = rnd.nextInt(8 * length);
      assertThat(KeyedKernel.Steps.get(viaSteps, constants, read))
          .as("byte %d of %s", read, Arrays.toString(viaShifts))
          .isEqualTo(KeyedKernel.Steps.getShifted(viaShifts, read));
    }
    for (int at = 0; at < 8 * length; at++) {
      assertThat(KeyedKernel.Steps.get(viaSteps, constants, at))
          .isEqualTo((byte) (viaShifts[at >>> 3] >>> (8 * (at & 7))));
    }
    assertThat(KeyedKernel.Steps.get(viaSteps, constants, ~1)).isEqualTo((byte) constants[1]);
  }
}
