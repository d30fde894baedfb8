package io.dataflow.monitor.eval;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Writes and reads bytes packed eight to a {@code long}, in order (byte {@code k} of a word in
 * its bits {@code 8k..8k+7}), from a position of a {@code long[]} ({@link KeyedLayout}'s narrow
 * state: kinds, flags, ring positions). The bytes go through a scratch {@code byte[]} that is
 * moved to or from the vector a word at a time, so each byte costs one plain store or load.
 * One instance is reused for every vector, so packing allocates nothing.
 *
 * <p>Thread-safety: owner thread only.
 */
final class BytePacker {
  private static final VarHandle WORDS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final byte[] buf;
  private long[] vector;
  private int word;
  private int pos;

  /** A packer of up to {@code maxBytes} bytes per run. */
  BytePacker(int maxBytes) {
    buf = new byte[8 * words(maxBytes)];
  }

  static int words(int n) {
    return (n + 7) >>> 3;
  }

  void startWrite(long[] v, int at) {
    vector = v;
    word = at;
    pos = 0;
  }

  void put(byte b) {
    buf[pos++] = b;
  }

  /** Appends {@code bytes}. */
  void put(byte[] bytes) {
    System.arraycopy(bytes, 0, buf, pos, bytes.length);
    pos += bytes.length;
  }

  /** The scratch bytes: a caller may write or read at the position directly, then skip. */
  byte[] buffer() {
    return buf;
  }

  /** Moves the position by {@code n} bytes written or read directly in the {@link #buffer}. */
  void skip(int n) {
    pos += n;
  }

  void putInt(int v) {
    put((byte) v);
    put((byte) (v >>> 8));
    put((byte) (v >>> 16));
    put((byte) (v >>> 24));
  }

  /** Moves the bytes written to the vector; returns the index after the last word written. */
  int endWrite() {
    int n = words(pos);
    byte[] b = buf;
    for (int i = pos; i < 8 * n; i++) {
      b[i] = 0; // the unused bytes of the last word are zero, as before
    }
    long[] v = vector;
    int w = word;
    for (int i = 0; i < n; i++) {
      v[w + i] = (long) WORDS.get(b, i << 3);
    }
    vector = null;
    return w + n;
  }

  /** Starts reading {@code bytes} bytes packed from {@code v[at]} on. */
  void startRead(long[] v, int at, int bytes) {
    int n = words(bytes);
    byte[] b = buf;
    for (int i = 0; i < n; i++) {
      WORDS.set(b, i << 3, v[at + i]);
    }
    word = at + n;
    pos = 0;
  }

  byte get() {
    return buf[pos++];
  }

  /** Reads {@code into.length} bytes into {@code into}. */
  void get(byte[] into) {
    System.arraycopy(buf, pos, into, 0, into.length);
    pos += into.length;
  }

  int getInt() {
    return (get() & 0xFF) | (get() & 0xFF) << 8 | (get() & 0xFF) << 16 | (get() & 0xFF) << 24;
  }

  /** The index after the last word read. */
  int endRead() {
    return word;
  }
}
