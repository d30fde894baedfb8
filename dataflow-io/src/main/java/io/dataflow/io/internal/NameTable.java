package io.dataflow.io.internal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The names a byte-level reader has seen, as strings: looking up the bytes of a name that was
 * seen before allocates nothing. For ASCII names (a reader sends any other name through its
 * general path). Bounded: past {@value #LIMIT} names it starts over.
 *
 * <p>Thread-safety: one reading thread.
 */
public final class NameTable {
  private static final int LIMIT = 256;
  private byte[][] keys = new byte[8][];
  private String[] values = new String[8];
  private int count;
  private int guess;

  /** The string of the ASCII name in {@code b} from {@code from} to {@code to}. */
  public String intern(byte[] b, int from, int to) {
    int g = guess;
    if (g < count && same(keys[g], b, from, to)) {
      guess = g + 1;
      return values[g];
    }
    for (int i = 0; i < count; i++) {
      if (same(keys[i], b, from, to)) {
        guess = i + 1;
        return values[i];
      }
    }
    if (count == LIMIT) {
      count = 0;
    } else if (count == keys.length) {
      keys = Arrays.copyOf(keys, count * 2);
      values = Arrays.copyOf(values, count * 2);
    }
    keys[count] = Arrays.copyOfRange(b, from, to);
    values[count] = new String(b, from, to - from, StandardCharsets.ISO_8859_1);
    guess = count + 1;
    return values[count++];
  }

  /** A plain loop: names are short, shorter than a vectorized compare pays for. */
  private static boolean same(byte[] key, byte[] b, int from, int to) {
    if (key.length != to - from) {
      return false;
    }
    for (int i = 0; i < key.length; i++) {
      if (key[i] != b[from + i]) {
        return false;
      }
    }
    return true;
  }
}
