package io.dataflow.bench;

import java.util.Random;

/**
 * The per-tick inputs every path reads: {@value #SIZE} precomputed values per input, cycled with
 * {@link #MASK}, from a fixed seed. Inputs vary per tick so the JIT cannot fold a tick into a
 * constant, and every path sees exactly the same sequence.
 *
 * <p>Thread-safety: immutable after class initialization.
 */
final class Inputs {
  /** The number of distinct ticks (a power of two). */
  static final int SIZE = 1024;
  /** {@code i & MASK} cycles through the inputs. */
  static final int MASK = SIZE - 1;
  /** Int input {@code x}: 0..1023. */
  static final long[] X = new long[SIZE];
  /** Int input {@code y}: 0..1023. */
  static final long[] Y = new long[SIZE];
  /** Int input {@code x} of window3: 0..7, so the alert changes often. */
  static final long[] SMALL = new long[SIZE];
  /** Float input {@code x} of threshold: 0.00..5.99. */
  static final double[] F = new double[SIZE];
  /**
   * The dynamic property's text, {@code "x + y"}, as a distinct String per tick (like text that
   * was just decoded), so the monitor compares contents, not identity.
   */
  static final String[] TEXT = new String[SIZE];

  static {
    Random r = new Random(42);
    for (int i = 0; i < SIZE; i++) {
      X[i] = r.nextInt(1024);
      Y[i] = r.nextInt(1024);
      SMALL[i] = r.nextInt(8);
      F[i] = r.nextInt(600) / 100.0;
      TEXT[i] = new String(new char[] {'x', ' ', '+', ' ', 'y'});
    }
  }

  private Inputs() {}
}
