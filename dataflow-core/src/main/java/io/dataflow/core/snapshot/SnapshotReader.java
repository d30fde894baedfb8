package io.dataflow.core.snapshot;

import io.dataflow.core.Kind;
import io.dataflow.core.Value;

/**
 * Reads the streams of a snapshot that holds its binary form (format version 5: a monitor's
 * snapshot, or one read by {@link MonitorSnapshot#fromBytes} and checked without its records)
 * value by value, without the {@link StreamState} and {@link OperatorState} records: what
 * {@code DataflowMonitor.restore} into the same program uses to load a fresh monitor's slots
 * (docs/decisions.md, "A restore into the same program reads the snapshot's bytes into the
 * slots"). The bytes were checked (or written by a {@link SnapshotWriter}), so the reader
 * checks nothing but what a restore compares: the caller follows the format's order
 * (docs/snapshots.md), as {@link SnapshotWriter}'s calls do, and falls back to the records
 * wherever what it reads is not what it expects.
 *
 * <p>The calls: {@link #streamCount}, then per stream {@link #stream} (name and fingerprint
 * compared), {@link #value} of the current value, {@link #value} of the last present value when
 * {@link #hasLastPresent}, and when {@link #hasState}: {@link #history} (the depth and the
 * number of samples) and each sample's {@link #value}, {@link #count} of the operators, and per
 * operator {@link #kind}, then {@link #valueCount} values. A
 * value read is in {@link #tag}, {@link #bits} and {@link #ref}, as a monitor's slot holds it.
 * Not thread-safe; one restore each.
 */
public final class SnapshotReader {
  private final SnapshotCodecV3 codec = SnapshotCodecV3.reader();
  private final SnapshotCodec.In in;
  private int descriptor;
  private int streams;
  private int historyDepth;
  private int valueCount;
  private byte tag;
  private long bits;
  private Object ref;

  private SnapshotReader(byte[] bytes) {
    this.in = new SnapshotCodec.In(bytes);
  }

  /**
   * A reader of {@code snapshot}'s streams, standing before its stream count, or null when the
   * snapshot holds no binary form of format version 5 (one built from records, or read in an
   * older version, or one whose content {@link MonitorSnapshot#fromBytes} read into records).
   */
  public static SnapshotReader of(MonitorSnapshot snapshot) {
    byte[] bytes = snapshot.encoded();
    if (bytes == null || snapshot.formatVersion() != SnapshotCodecV3.VERSION5) {
      return null;
    }
    SnapshotReader r = new SnapshotReader(bytes);
    r.header();
    return r;
  }

  /** Past magic, version, flags, program name, key, next tick, revision, failure and count. */
  private void header() {
    SnapshotCodec.In in = this.in;
    in.pos = SnapshotCodec.MAGIC4.length + 1;
    int flags = in.u8("the header flags");
    skipString();
    if ((flags & SnapshotCodecV3.F_KEY_STRING) != 0) {
      skipString();
    } else {
      in.pos += 8;
    }
    in.uvarint("the next tick");
    if ((flags & SnapshotCodecV3.F_REVISION) != 0) {
      in.uvarint("the revision");
      in.uvarint("the revision");
    }
    if ((flags & SnapshotCodecV3.F_FAILURE) != 0) {
      in.uvarint("the failure's tick");
      if (in.u8("the failure's stream flag") == 1) {
        skipString();
      }
      skipString();
    }
    streams = (flags >>> 4) - 1;
    if (streams < 0) {
      streams = count();
    }
  }

  private void skipString() {
    int n = (int) in.uvarint("a string");
    in.pos += n;
  }

  /** The number of streams. */
  public int streamCount() {
    return streams;
  }

  /**
   * Reads a stream's head: whether its name is {@code name} and its fingerprint names
   * {@code fingerprint} ({@link MonitorSnapshot#sameHash}).
   */
  public boolean stream(String name, String fingerprint) {
    SnapshotCodec.In in = this.in;
    byte[] data = in.data;
    int len = (int) in.uvarint("a stream name");
    boolean same = len == name.length();
    for (int i = 0; same && i < len; i++) {
      same = data[in.pos + i] == name.charAt(i); // a name's non-ASCII char matches no byte
    }
    in.pos += len;
    int desc = in.u8("a stream descriptor");
    descriptor = desc;
    if ((desc & 3) == SnapshotCodecV2.ROLE_STRING) {
      skipString();
    }
    if (((desc >>> 2) & 7) == SnapshotCodecV2.TYPE_STRING) {
      skipString();
    }
    String saved;
    if ((desc & SnapshotCodecV3.D_FINGERPRINT_STRING) != 0) {
      saved = in.vstr("a stream fingerprint");
    } else {
      long b = 0;
      for (int i = 0; i < 4; i++) {
        b = b << 8 | (data[in.pos + i] & 0xFF);
      }
      in.pos += 4;
      saved = SnapshotCodecV3.Hash.text(b, 8);
    }
    return same && MonitorSnapshot.sameHash(saved, fingerprint);
  }

  /** Whether the stream just begun has a last present value after its current value. */
  public boolean hasLastPresent() {
    return (descriptor & SnapshotCodecV3.D_LAST_PRESENT) != 0;
  }

  /** Whether the stream just begun has a history depth, samples and operators. */
  public boolean hasState() {
    return (descriptor & SnapshotCodecV3.D_STATE) != 0;
  }

  /** A number of operators. */
  public int count() {
    return (int) in.uvarint("a count");
  }

  /**
   * A stream's history depth (then in {@link #historyDepth}) and number of samples, which it
   * returns.
   */
  public int history() {
    long head = in.uvarint("a history depth");
    historyDepth = (int) (head >>> 1);
    return (head & 1) != 0 ? historyDepth : count();
  }

  /** The history depth {@link #history} read. */
  public int historyDepth() {
    return historyDepth;
  }

  /**
   * An operator's kind, interned (the kind table's literal), with its number of values then in
   * {@link #valueCount}; or null for a kind written as a string (one with a function's
   * positions, or without a code): the records read those.
   */
  public String kind() {
    int head = in.u8("an operator head");
    if (head >= SnapshotCodecV3.PACKED) {
      head -= SnapshotCodecV3.PACKED;
      valueCount = 1 + head / SnapshotCodecV3.PACKED_KINDS;
      return SnapshotCodecV2.KINDS.get(head % SnapshotCodecV3.PACKED_KINDS);
    }
    if (head == 0) {
      return null;
    }
    valueCount = count();
    return SnapshotCodecV2.KINDS.get(head - 1);
  }

  /** The number of values of the operator whose {@link #kind} was read last. */
  public int valueCount() {
    return valueCount;
  }

  /** Reads the next value into {@link #tag}, {@link #bits} and {@link #ref}. */
  public void value() {
    SnapshotCodec.In in = this.in;
    int at = in.pos;
    int t = in.data[at] & 0xFF;
    if (t >= SnapshotCodecV2.T_SMALL) {
      in.pos = at + 1;
      set(Kind.INT, t - SnapshotCodecV2.SMALL_ZERO, null);
      return;
    }
    switch (t) {
      case SnapshotCodecV2.T_NOVAL -> set(Kind.NOVAL, 0, null);
      case SnapshotCodecV2.T_DEFERRED -> set(Kind.DEFERRED, 0, null);
      case SnapshotCodecV2.T_UNIT -> set(Kind.UNIT, 0, null);
      case SnapshotCodecV2.T_FALSE -> set(Kind.BOOL, 0, null);
      case SnapshotCodecV2.T_TRUE -> set(Kind.BOOL, 1, null);
      case SnapshotCodecV2.T_INT -> {
        in.pos = at + 1;
        long x = in.svarint("an Int");
        codec.remember(x);
        set(Kind.INT, x, null);
        return;
      }
      case SnapshotCodecV2.T_FLOAT -> {
        in.pos = at + 1;
        // Through the double, as the record's Value.of(double) and Slot.setValue take it.
        set(Kind.FLOAT, Double.doubleToRawLongBits(Double.longBitsToDouble(in.i64("a Float"))),
            null);
        return;
      }
      default -> {
        int k = t - SnapshotCodecV3.T_RECENT;
        if (k >= 0 && k < SnapshotCodecV3.RECENT) {
          in.pos = at + 1;
          set(Kind.INT, codec.recent(k), null);
          return;
        }
        Value v = codec.value(in, 0); // a Str, List or Map, as the records read it
        set(v.kind(), Kind.bitsOf(v), Kind.refOf(v));
        return;
      }
    }
    in.pos = at + 1;
  }

  private void set(byte t, long b, Object r) {
    tag = t;
    bits = b;
    ref = r;
  }

  /** The {@link Kind} of the value read last. */
  public byte tag() {
    return tag;
  }

  /** The payload of the value read last: an Int, a Float's raw bits, 1 or 0 for a Bool. */
  public long bits() {
    return bits;
  }

  /** The reference of the value read last: a Str's string, a List or Map value; else null. */
  public Object ref() {
    return ref;
  }
}
