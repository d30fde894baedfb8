package io.dataflow.monitor.eval;

/**
 * Writes and reads bytes packed eight to a {@code long}, in order, from a position of a
 * {@code long[]} ({@link KeyedLayout}'s narrow state: kinds, flags, ring positions). One
 * instance is reused for every vector, so packing allocates nothing.
 *
 * <p>Thread-safety: owner thread only.
 */
final class BytePacker {
  private long[] vector;
  private int word;
  private long acc;
  private int bytes;

  /** The number of {@code long}s that hold {@code n} packed bytes. */
  static int words(int n) {
    return (n + 7) >>> 3;
  }

  /** Starts writing at {@code vector[at]}. */
  void startWrite(long[] v, int at) {
    vector = v;
    word = at;
    acc = 0;
    bytes = 0;
  }

  void put(byte b) {
    acc |= (b & 0xFFL) << (bytes << 3);
    if (++bytes == 8) {
      vector[word++] = acc;
      acc = 0;
      bytes = 0;
    }
  }

  void putInt(int v) {
    put((byte) v);
    put((byte) (v >>> 8));
    put((byte) (v >>> 16));
    put((byte) (v >>> 24));
  }

  /** Ends writing; returns the position after the last word written. */
  int endWrite() {
    if (bytes > 0) {
      vector[word++] = acc;
    }
    vector = null;
    return word;
  }

  /** Starts reading at {@code vector[at]}. */
  void startRead(long[] v, int at) {
    vector = v;
    word = at;
    bytes = 8;
  }

  byte get() {
    if (bytes == 8) {
      acc = vector[word++];
      bytes = 0;
    }
    return (byte) (acc >>> (bytes++ << 3));
  }

  int getInt() {
    return (get() & 0xFF) | (get() & 0xFF) << 8 | (get() & 0xFF) << 16 | (get() & 0xFF) << 24;
  }

  /** Ends reading; returns the position after the last word read. */
  int endRead() {
    vector = null;
    return word;
  }
}
