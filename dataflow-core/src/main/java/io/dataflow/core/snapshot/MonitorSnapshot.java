package io.dataflow.core.snapshot;

import io.dataflow.core.MonitorRevision;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The whole state of a monitor at a tick boundary, immutable, with its versioned binary form
 * (docs/snapshots.md). A monitor produces one with {@code DataflowMonitor.snapshot()} and is
 * rebuilt from one with {@code DataflowMonitor.restore}.
 *
 * <p>A value class (it was a record until the ninth pass of issue 15; the accessors, the
 * constructor, {@code equals}, {@code hashCode} and {@code toString} are a record's): two
 * snapshots are equal when their seven components are. A monitor's snapshot is written
 * straight into its bytes ({@link SnapshotWriter}) and reads its {@link #streams()} from them
 * when they are first asked for (docs/decisions.md, "A monitor's snapshot is written straight
 * into its bytes"); so does a version 5 snapshot of plain content read by {@link #fromBytes},
 * checked without its records, which a restore into the same program reads straight into the
 * monitor's slots ({@link SnapshotReader}; docs/decisions.md, "A restore into the same program
 * reads the snapshot's bytes into the slots").
 */
public final class MonitorSnapshot {
  /**
   * The binary format version a monitor's snapshot is written in; this library reads versions
   * 1 to 5, and writes a snapshot in the version it was read in.
   */
  public static final int FORMAT_VERSION = 5;

  private final int formatVersion;
  private final String programName;
  private final String definitionKey;
  private final long nextTick;
  private final MonitorRevision revision;
  private final Failure failure;
  /** Null until read from {@link #encoded} (a race reads them twice, into equal lists). */
  private List<StreamState> streams;
  /**
   * The binary form in its first {@link #encodedLength} bytes, for a snapshot written by a
   * {@link SnapshotWriter} (its buffer, not trimmed: {@link #toBytes} copies anyway); else null.
   */
  private final byte[] encoded;
  private final int encodedLength;

  /**
   * Validates and copies.
   *
   * @param formatVersion the binary format version this snapshot was read in or will be
   *     written in: {@link #FORMAT_VERSION} for a monitor's snapshot, 1 for one read in
   *     version 1
   * @param programName the name of the program the monitor ran
   * @param definitionKey the program's definition key (a restore into a program with the same
   *     key continues exactly)
   * @param nextTick the number of the next tick to evaluate
   * @param revision the monitor's revision
   * @param failure why the monitor was poisoned, or null when it was healthy
   * @param streams every stream's state, in the program's declaration order
   */
  public MonitorSnapshot(int formatVersion, String programName, String definitionKey,
      long nextTick, MonitorRevision revision, Failure failure, List<StreamState> streams) {
    if (formatVersion < 1 || formatVersion > FORMAT_VERSION) {
      throw new IllegalArgumentException("format version must be 1 to " + FORMAT_VERSION + ": "
          + formatVersion);
    }
    this.formatVersion = formatVersion;
    this.programName = Objects.requireNonNull(programName, "programName");
    this.definitionKey = Objects.requireNonNull(definitionKey, "definitionKey");
    this.revision = Objects.requireNonNull(revision, "revision");
    this.streams = OwnedList.own(streams);
    if (nextTick < 0) {
      throw new IllegalArgumentException("nextTick must not be negative: " + nextTick);
    }
    this.nextTick = nextTick;
    this.failure = failure;
    this.encoded = null;
    this.encodedLength = 0;
  }

  /**
   * A snapshot of the current format written by a {@link SnapshotWriter} into the first
   * {@code length} of {@code bytes}, which nobody writes again.
   */
  MonitorSnapshot(String programName, String definitionKey, long nextTick,
      MonitorRevision revision, Failure failure, byte[] bytes, int length) {
    this.formatVersion = FORMAT_VERSION;
    this.programName = programName;
    this.definitionKey = definitionKey;
    this.nextTick = nextTick;
    this.revision = revision;
    this.failure = failure;
    this.encoded = bytes;
    this.encodedLength = length;
  }

  /**
   * The binary format version this snapshot was read in or will be written in:
   * {@link #FORMAT_VERSION} for a monitor's snapshot, 1 for one read in version 1.
   */
  public int formatVersion() {
    return formatVersion;
  }

  /** The name of the program the monitor ran. */
  public String programName() {
    return programName;
  }

  /**
   * The program's definition key (a restore into a program with the same key continues
   * exactly).
   */
  public String definitionKey() {
    return definitionKey;
  }

  /** The number of the next tick to evaluate. */
  public long nextTick() {
    return nextTick;
  }

  /** The monitor's revision. */
  public MonitorRevision revision() {
    return revision;
  }

  /** Why the monitor was poisoned, or null when it was healthy. */
  public Failure failure() {
    return failure;
  }

  /**
   * Every stream's state, in the program's declaration order (immutable). A monitor's
   * snapshot reads them from its bytes on the first call.
   */
  public List<StreamState> streams() {
    List<StreamState> s = streams;
    if (s == null) {
      s = SnapshotCodec.decode(toBytes()).streams();
      streams = s; // immutable, and its fields are final: safely published by a race too
    }
    return s;
  }

  /** Equal when all seven components are (as a record's). */
  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    return o instanceof MonitorSnapshot other
        && formatVersion == other.formatVersion
        && nextTick == other.nextTick
        && programName.equals(other.programName)
        && definitionKey.equals(other.definitionKey)
        && revision.equals(other.revision)
        && Objects.equals(failure, other.failure)
        && streams().equals(other.streams());
  }

  /** Of all seven components, as a record's. */
  @Override
  public int hashCode() {
    int h = Integer.hashCode(formatVersion);
    h = 31 * h + programName.hashCode();
    h = 31 * h + definitionKey.hashCode();
    h = 31 * h + Long.hashCode(nextTick);
    h = 31 * h + revision.hashCode();
    h = 31 * h + Objects.hashCode(failure);
    return 31 * h + streams().hashCode();
  }

  /** As a record's: {@code MonitorSnapshot[formatVersion=5, programName=..., ...]}. */
  @Override
  public String toString() {
    return "MonitorSnapshot[formatVersion=" + formatVersion + ", programName=" + programName
        + ", definitionKey=" + definitionKey + ", nextTick=" + nextTick + ", revision="
        + revision + ", failure=" + failure + ", streams=" + streams() + "]";
  }

  /**
   * Whether a definition key or fingerprint as a snapshot holds it names the program's or
   * stream's {@code full} one: the same text, or its first 16 hex digits (format version 3 on),
   * the 64-bit prefix of the SHA-256 digest, as {@link #shortHash} makes it, or for a
   * fingerprint (format version 4 on) its first 8, as {@link #shortFingerprint} makes it.
   */
  public static boolean sameHash(String saved, String full) {
    return saved.equals(full)
        || ((saved.length() == SHORT_HASH || saved.length() == SHORT_FINGERPRINT)
            && full.length() > saved.length() && full.startsWith(saved));
  }

  /**
   * A definition key or fingerprint (hex digits) as format version 3 holds it, and a key as
   * version 4 does (its fingerprints: {@link #shortFingerprint}): its first 16 hex digits, 64
   * bits (see docs/decisions.md, "Snapshot format version 3"); shorter text as it is.
   */
  public static String shortHash(String full) {
    return full.length() <= SHORT_HASH ? full : full.substring(0, SHORT_HASH);
  }

  /**
   * A fingerprint (hex digits) as format versions 4 and 5 hold it: its first 8 hex digits, 32 bits
   * (see docs/decisions.md, "Snapshot format version 4"); shorter text as it is.
   */
  public static String shortFingerprint(String full) {
    return full.length() <= SHORT_FINGERPRINT ? full : full.substring(0, SHORT_FINGERPRINT);
  }

  private static final int SHORT_HASH = 16;
  private static final int SHORT_FINGERPRINT = 8;

  /** The state of the stream named {@code name}, or null. */
  public StreamState stream(String name) {
    for (StreamState s : streams()) {
      if (s.name().equals(name)) {
        return s;
      }
    }
    return null;
  }

  /** Writes the binary form (magic, version, content, CRC32C) to {@code out}. */
  public void write(OutputStream out) throws IOException {
    out.write(toBytes());
  }

  /** The binary form as bytes. */
  public byte[] toBytes() {
    return encoded != null ? Arrays.copyOf(encoded, encodedLength) : SnapshotCodec.encode(this);
  }

  /** Writes the binary form to a file (not atomically; replaces the file). */
  public void write(Path file) throws IOException {
    Files.write(file, toBytes());
  }

  /**
   * Reads a snapshot in the binary form.
   *
   * @throws SnapshotException when the input is not a valid snapshot of format version 1 to 4
   * @throws UncheckedIOException when reading the stream fails
   */
  public static MonitorSnapshot read(InputStream in) {
    return SnapshotCodec.read(readBounded(in), true);
  }

  /** Reads a snapshot from bytes in the binary form; see {@link #read(InputStream)}. */
  public static MonitorSnapshot fromBytes(byte[] bytes) {
    return SnapshotCodec.read(bytes, false);
  }

  /**
   * The binary form this snapshot holds (not a copy: nobody writes it), or null: a monitor's
   * snapshot and one read in format version 5 without its records hold it
   * ({@link SnapshotReader}).
   */
  byte[] encoded() {
    return encoded;
  }

  /**
   * Reads a snapshot file; the exception names the file.
   *
   * @throws SnapshotException when the file is not a valid snapshot
   * @throws UncheckedIOException when the file cannot be read
   */
  public static MonitorSnapshot read(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      return read(in);
    } catch (SnapshotException e) {
      throw new SnapshotException(file.toString(), e);
    } catch (IOException e) {
      throw new UncheckedIOException(file + ": " + e.getMessage(), e);
    }
  }

  private static byte[] readBounded(InputStream in) {
    try {
      ByteArrayOutputStream buf = new ByteArrayOutputStream();
      byte[] chunk = new byte[8192];
      int n;
      while ((n = in.read(chunk)) >= 0) {
        if (buf.size() + (long) n > SnapshotCodec.MAX_BYTES) {
          throw new SnapshotException(SnapshotCodec.MAX_BYTES,
              "a snapshot is at most " + SnapshotCodec.MAX_BYTES + " bytes");
        }
        buf.write(chunk, 0, n);
      }
      return buf.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
