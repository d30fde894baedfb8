package io.dataflow.core.snapshot;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * What a runtime writes at a checkpoint (a file of a checkpoint directory,
 * docs/snapshots.md#checkpoints): taken between two ingress items on the owner thread,
 * so it is consistent with every tick evaluated before it and with none after. The monitor's
 * snapshot, each source's position (items taken: {@code Source.resumeAfter}), the specification
 * in force, and the definition key of the specification the run started with (a resume with
 * another starting specification follows the transfer rules instead).
 *
 * <p>Binary form: the magic {@code DFCP}, a format version (1), the fields, then a CRC32C of
 * everything before it. Reading checks every length against what is left.
 *
 * @param sequence the checkpoint's number in its directory
 * @param positions items taken from each source, by source name
 * @param baseKey the definition key of the specification the run was started with
 * @param specificationName the name of the specification in force (for messages)
 * @param specification its text, or null when the monitor has none
 * @param snapshot the monitor's state
 */
public record RuntimeCheckpoint(long sequence, Map<String, Long> positions, String baseKey,
    String specificationName, String specification, MonitorSnapshot snapshot) {
  private static final byte[] MAGIC = {'D', 'F', 'C', 'P'};
  private static final int VERSION = 1;
  /** The largest checkpoint file a reader accepts (the snapshot codec's own limit). */
  public static final long MAX_BYTES = 1L << 30;

  /** Validates and copies. */
  public RuntimeCheckpoint {
    positions = Map.copyOf(positions);
    Objects.requireNonNull(baseKey, "baseKey");
    Objects.requireNonNull(specificationName, "specificationName");
    Objects.requireNonNull(snapshot, "snapshot");
  }

  /** The binary form. */
  public byte[] toBytes() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.write(MAGIC);
      out.writeInt(VERSION);
      out.writeLong(sequence);
      Map<String, Long> sorted = new TreeMap<>(positions);
      out.writeInt(sorted.size());
      for (Map.Entry<String, Long> e : sorted.entrySet()) {
        string(out, e.getKey());
        out.writeLong(e.getValue());
      }
      string(out, baseKey);
      string(out, specificationName);
      out.writeBoolean(specification != null);
      if (specification != null) {
        string(out, specification);
      }
      byte[] snap = snapshot.toBytes();
      out.writeInt(snap.length);
      out.write(snap);
      CRC32C crc = new CRC32C();
      crc.update(bytes.toByteArray());
      out.writeInt((int) crc.getValue());
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
  }

  private static void string(DataOutputStream out, String s) throws IOException {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  /**
   * Reads a checkpoint.
   *
   * @throws SnapshotException naming the byte offset and the reason when it is truncated,
   *     corrupted, of another format version or not a checkpoint
   */
  public static RuntimeCheckpoint fromBytes(byte[] bytes) {
    if (bytes.length > MAX_BYTES) {
      throw bad(0, bytes.length + " bytes is more than a checkpoint may hold (" + MAX_BYTES + ")");
    }
    ByteBuffer in = ByteBuffer.wrap(bytes);
    try {
      if (bytes.length < MAGIC.length + 8) {
        throw bad(0, "too short for a checkpoint (" + bytes.length + " bytes)");
      }
      for (byte m : MAGIC) {
        if (in.get() != m) {
          throw bad(0, "not a runtime checkpoint (wrong magic)");
        }
      }
      int version = in.getInt();
      if (version != VERSION) {
        throw bad(4, "checkpoint format version " + version + " (this library reads "
            + VERSION + ")");
      }
      CRC32C crc = new CRC32C();
      crc.update(bytes, 0, bytes.length - 4);
      if ((int) crc.getValue() != ByteBuffer.wrap(bytes, bytes.length - 4, 4).getInt()) {
        throw bad(bytes.length - 4, "checksum mismatch");
      }
      ByteBuffer body = ByteBuffer.wrap(bytes, 8, bytes.length - 12).slice();
      long sequence = body.getLong();
      if (sequence < 1) {
        throw bad(8, "checkpoint sequence " + sequence);
      }
      int n = count(body, 12);
      Map<String, Long> positions = new TreeMap<>();
      for (int i = 0; i < n; i++) {
        int at = 8 + body.position();
        String source = string(body);
        long position = body.getLong();
        if (position < 0 || positions.put(source, position) != null) {
          throw bad(at, "bad position " + position + " of source '" + source + "'");
        }
      }
      String baseKey = string(body);
      String name = string(body);
      int flagAt = 8 + body.position();
      byte flag = body.get();
      if (flag != 0 && flag != 1) {
        throw bad(flagAt, "flag byte " + flag + " (expected 0 or 1)");
      }
      String spec = flag == 1 ? string(body) : null;
      int len = count(body, 1);
      int snapshotAt = 8 + body.position();
      byte[] snap = new byte[len];
      body.get(snap);
      if (body.hasRemaining()) {
        throw bad(8 + body.position(), body.remaining() + " bytes after the snapshot");
      }
      MonitorSnapshot snapshot;
      try {
        snapshot = MonitorSnapshot.fromBytes(snap);
      } catch (SnapshotException e) {
        // Offsets of the checkpoint file, not of the snapshot inside it.
        throw bad(snapshotAt + Math.max(0, e.offset()), "in its snapshot: " + e.getMessage());
      }
      return new RuntimeCheckpoint(sequence, positions, baseKey, name, spec, snapshot);
    } catch (java.nio.BufferUnderflowException e) {
      throw bad(bytes.length, "truncated checkpoint");
    }
  }

  /** A count or length, checked against what is left (each element takes at least {@code min}). */
  private static int count(ByteBuffer in, int min) {
    int at = in.position();
    int n = in.getInt();
    if (n < 0 || (long) n * min > in.remaining()) {
      throw bad(8 + at, "length " + n + " exceeds the " + in.remaining() + " bytes left");
    }
    return n;
  }

  private static String string(ByteBuffer in) {
    int n = count(in, 1);
    int at = in.position();
    byte[] b = new byte[n];
    in.get(b);
    try {
      // Strict: malformed UTF-8 is damage, not something to replace silently.
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
          .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(b)).toString();
    } catch (java.nio.charset.CharacterCodingException e) {
      throw bad(8 + at, "malformed UTF-8 in a string");
    }
  }

  private static SnapshotException bad(long offset, String reason) {
    return new SnapshotException(offset, "checkpoint: " + reason);
  }
}
