package io.dataflow.core.snapshot;

import io.dataflow.core.Kind;
import io.dataflow.core.MonitorRevision;
import io.dataflow.core.Value;
import java.util.Objects;

/**
 * Writes a snapshot in the current binary format ({@link MonitorSnapshot#FORMAT_VERSION})
 * straight from a monitor's state, without the {@link StreamState} and {@link OperatorState}
 * records: what {@code DataflowMonitor.snapshot()} uses (docs/decisions.md, "A monitor's
 * snapshot is written straight into its bytes"). The {@link MonitorSnapshot} it
 * {@link #finish finishes} holds the bytes and reads its streams from them when asked.
 *
 * <p>The calls follow the format's order (docs/snapshots.md): per stream, {@link #beginStream}
 * (name, role, type, fingerprint), its current value, its last present value when it has one,
 * and when it has state: {@link #history} (the depth and the number of samples) and the
 * samples newest first, {@link #count} of the operators, and per operator
 * {@link #operator} (kind and value count) and its values. A stream can also be written whole
 * from its record ({@link #stream}). The writer checks only the number of streams; a snapshot
 * written out of order fails when its streams are read. Not thread-safe; one snapshot each.
 */
public final class SnapshotWriter {
  private final SnapshotCodecV3 codec = SnapshotCodecV3.writer();
  private final SnapshotCodec.Out out;
  private final String programName;
  private final String definitionKey;
  private final long nextTick;
  private final MonitorRevision revision;
  private final Failure failure;
  private final int streams;
  private int written;

  /**
   * Starts a snapshot of {@code streams} streams.
   *
   * @param sizeHint the bytes the snapshot is expected to take (the buffer grows past it)
   * @throws IllegalArgumentException as {@link MonitorSnapshot}'s constructor does
   */
  public SnapshotWriter(String programName, String definitionKey, long nextTick,
      MonitorRevision revision, Failure failure, int streams, int sizeHint) {
    this.programName = Objects.requireNonNull(programName, "programName");
    this.definitionKey = Objects.requireNonNull(definitionKey, "definitionKey");
    this.revision = Objects.requireNonNull(revision, "revision");
    if (nextTick < 0) {
      throw new IllegalArgumentException("nextTick must not be negative: " + nextTick);
    }
    if (streams < 0) {
      throw new IllegalArgumentException("streams must not be negative: " + streams);
    }
    this.nextTick = nextTick;
    this.failure = failure;
    this.streams = streams;
    this.out = new SnapshotCodec.Out(Math.max(sizeHint, 64));
    codec.header(out, programName, definitionKey, nextTick, revision, failure, streams);
  }

  /** A whole stream from its record. */
  public void stream(StreamState s) {
    count();
    codec.streamWhole(out, s);
  }

  /**
   * A stream's name, role, declared type (or null) and fingerprint; {@code lastPresent} says
   * whether a last present value follows the current value, {@code state} whether a history
   * and operators follow (a history depth above 0 or at least one operator).
   */
  public void beginStream(String name, String role, String declaredType, String fingerprint,
      boolean lastPresent, boolean state) {
    count();
    codec.streamHead(out, Objects.requireNonNull(name, "name"),
        Objects.requireNonNull(role, "role"), declaredType,
        Objects.requireNonNull(fingerprint, "fingerprint"), lastPresent, state);
  }

  private void count() {
    if (written == streams) {
      throw new IllegalStateException("more than the " + streams + " streams announced");
    }
    written++;
  }

  /** A number of operators. */
  public void count(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("a count must not be negative: " + n);
    }
    out.uvarint(n);
  }

  /** A history depth and the number of its samples (at most the depth), which follow. */
  public void history(int depth, int samples) {
    if (samples < 0 || samples > depth) {
      throw new IllegalArgumentException("a history of depth " + depth + " cannot hold "
          + samples + " samples");
    }
    codec.history(out, depth, samples);
  }

  /** An operator's kind and the number of its values, which follow. */
  public void operator(String kind, int values) {
    if (values < 0) {
      throw new IllegalArgumentException("a count must not be negative: " + values);
    }
    codec.operator(out, kind, values);
  }

  /** A value. */
  public void value(Value v) {
    codec.value(out, v);
  }

  /** An Int value (what {@code value(Value.of(x))} writes). */
  public void intValue(long x) {
    codec.intValue(out, x);
  }

  /**
   * A value as a monitor holds it unboxed: a {@link Kind} tag, the payload bits (an Int, a
   * Float's raw bits, 1 or 0 for a Bool) and the reference of a Str, List or Map; what
   * {@code value(Kind.box(tag, bits, ref))} writes.
   */
  public void value(byte tag, long bits, Object ref) {
    switch (tag) {
      case Kind.NOVAL -> out.u8(SnapshotCodecV2.T_NOVAL);
      case Kind.DEFERRED -> out.u8(SnapshotCodecV2.T_DEFERRED);
      case Kind.UNIT -> out.u8(SnapshotCodecV2.T_UNIT);
      case Kind.BOOL -> out.u8(bits != 0 ? SnapshotCodecV2.T_TRUE : SnapshotCodecV2.T_FALSE);
      case Kind.INT -> codec.intValue(out, bits);
      // Through the double, as boxing it does (a signalling NaN's bits as the box keeps them).
      case Kind.FLOAT -> SnapshotCodecV3.floatValue(out,
          Double.doubleToRawLongBits(Double.longBitsToDouble(bits)));
      default -> codec.value(out, Kind.box(tag, bits, ref));
    }
  }

  /**
   * The snapshot, holding the bytes written (with their checksum).
   *
   * @throws IllegalStateException when fewer streams were written than announced
   */
  public MonitorSnapshot finish() {
    if (written != streams) {
      throw new IllegalStateException(written + " of the " + streams
          + " streams announced were written");
    }
    out.finishUntrimmed();
    return new MonitorSnapshot(programName, definitionKey, nextTick, revision, failure,
        out.buf, out.pos);
  }

  /** The bytes written so far (for a size hint of the next snapshot). */
  public int size() {
    return out.pos;
  }
}
