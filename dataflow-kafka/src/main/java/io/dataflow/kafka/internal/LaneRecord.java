package io.dataflow.kafka.internal;

import io.dataflow.pipeline.spi.LaneCheckpoint;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * A lane checkpoint as a value of the state topic: the magic {@code DFKL}, version 1, the
 * partition ({@code i32}), the position ({@code i64}), the specification (a {@code u32} byte
 * length and UTF-8), the lane's state (a {@code u32} length and the bytes of the pipeline's lane
 * state encoding) and a CRC-32C of everything before it. The record's key is
 * {@code <input topic>/<partition>}.
 */
public final class LaneRecord {
  private static final int MAGIC = 0x44464b4c; // "DFKL"
  private static final int VERSION = 1;

  private LaneRecord() {}

  /** The state topic key of a partition of {@code topic}. */
  public static String key(String topic, int partition) {
    return topic + "/" + partition;
  }

  /** Encodes a checkpoint. */
  public static byte[] encode(LaneCheckpoint c) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + c.state().length);
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(MAGIC);
      out.writeShort(VERSION);
      out.writeInt(c.partition());
      out.writeLong(c.position());
      byte[] spec = c.specification().getBytes(StandardCharsets.UTF_8);
      out.writeInt(spec.length);
      out.write(spec);
      out.writeInt(c.state().length);
      out.write(c.state());
      CRC32C crc = new CRC32C();
      crc.update(bytes.toByteArray());
      out.writeInt((int) crc.getValue());
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException(e); // a byte array stream does not fail
    }
  }

  /**
   * Decodes a checkpoint.
   *
   * @throws IOException naming the reason when the bytes are not one
   */
  public static LaneCheckpoint decode(byte[] value) throws IOException {
    if (value.length < 4 + 2 + 4 + 8 + 4 + 4 + 4) {
      throw new IOException("a lane record of " + value.length + " bytes is truncated");
    }
    CRC32C crc = new CRC32C();
    crc.update(value, 0, value.length - 4);
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(value));
    if (in.readInt() != MAGIC) {
      throw new IOException("not a lane record (bad magic)");
    }
    int version = in.readUnsignedShort();
    if (version != VERSION) {
      throw new IOException("lane record version " + version + " is not supported");
    }
    int partition = in.readInt();
    long position = in.readLong();
    byte[] spec = readBytes(in, value.length);
    byte[] state = readBytes(in, value.length);
    int stored = in.readInt();
    if (stored != (int) crc.getValue() || in.available() != 0) {
      throw new IOException("lane record of partition " + partition + ": checksum mismatch");
    }
    return new LaneCheckpoint(partition, position, new String(spec, StandardCharsets.UTF_8),
        state);
  }

  private static byte[] readBytes(DataInputStream in, int limit) throws IOException {
    int n = in.readInt();
    if (n < 0 || n > limit) {
      throw new IOException("lane record: bad length " + n);
    }
    return in.readNBytes(n);
  }
}
