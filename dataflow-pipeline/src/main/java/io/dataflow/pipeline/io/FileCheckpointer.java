package io.dataflow.pipeline.io;

import io.dataflow.core.internal.CheckpointStore;
import io.dataflow.pipeline.spi.Checkpointer;
import io.dataflow.pipeline.spi.LaneCheckpoint;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.zip.CRC32;

/**
 * Commits in a directory: every commit writes the whole set of lane checkpoints to a new
 * numbered file (temporary file, fsync, atomic rename, directory fsync), keeping the newest
 * few. A file that cannot be read back (damaged, truncated, another format) is renamed aside,
 * never deleted, and the next older one is used. Format: docs/pipeline.md#checkpoints.
 *
 * <p>Thread-safety: the pipeline's controller thread only.
 */
public final class FileCheckpointer implements Checkpointer {
  private static final int MAGIC = 0x44465043; // "DFPC"
  private static final int VERSION = 1;

  private final CheckpointStore store;
  private final Map<Integer, LaneCheckpoint> current = new TreeMap<>();
  private long sequence = -1;

  /**
   * A checkpointer in {@code dir} (created when missing) keeping the newest {@code keep} files.
   */
  public FileCheckpointer(Path dir, int keep) throws IOException {
    this.store = new CheckpointStore(dir, keep);
  }

  @Override
  public Map<Integer, LaneCheckpoint> load() throws IOException {
    Optional<CheckpointStore.Loaded<Map<Integer, LaneCheckpoint>>> loaded =
        store.latest((file, bytes) -> decode(bytes));
    current.clear();
    if (loaded.isPresent()) {
      current.putAll(loaded.get().content());
      sequence = loaded.get().sequence();
    } else {
      java.util.List<Long> all = store.sequences();
      sequence = all.isEmpty() ? -1 : all.get(all.size() - 1);
    }
    return Map.copyOf(current);
  }

  @Override
  public void commit(Map<Integer, LaneCheckpoint> lanes) throws IOException {
    if (sequence < 0) {
      java.util.List<Long> all = store.sequences();
      sequence = all.isEmpty() ? 0 : all.get(all.size() - 1);
    }
    Map<Integer, LaneCheckpoint> next = new TreeMap<>(current);
    next.putAll(lanes);
    store.write(sequence + 1, encode(next));
    sequence++;
    current.clear();
    current.putAll(next);
  }

  @Override
  public boolean setAside(String reason) throws IOException {
    if (sequence < 0 || !store.sequences().contains(sequence)) {
      return false;
    }
    store.setAside(sequence, reason);
    return true;
  }

  static byte[] encode(Map<Integer, LaneCheckpoint> lanes) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeInt(VERSION);
      out.writeInt(lanes.size());
      for (LaneCheckpoint c : lanes.values()) {
        out.writeInt(c.partition());
        out.writeLong(c.position());
        byte[] spec = c.specification().getBytes(StandardCharsets.UTF_8);
        out.writeInt(spec.length);
        out.write(spec);
        out.writeInt(c.state().length);
        out.write(c.state());
      }
      CRC32 crc = new CRC32();
      crc.update(bytes.toByteArray());
      out.writeLong(crc.getValue());
    } catch (IOException e) {
      throw new IllegalStateException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  static Map<Integer, LaneCheckpoint> decode(byte[] bytes) throws IOException {
    if (bytes.length < 20) {
      throw new IOException("a pipeline checkpoint of " + bytes.length + " bytes is truncated");
    }
    CRC32 crc = new CRC32();
    crc.update(bytes, 0, bytes.length - 8);
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
    if (in.readInt() != MAGIC) {
      throw new IOException("not a pipeline checkpoint (bad magic)");
    }
    int version = in.readInt();
    if (version != VERSION) {
      throw new IOException("pipeline checkpoint version " + version + " is not supported"
          + " (this library reads version " + VERSION + ")");
    }
    long stored = java.nio.ByteBuffer.wrap(bytes, bytes.length - 8, 8).getLong();
    if (stored != crc.getValue()) {
      throw new IOException("the pipeline checkpoint's checksum does not match (damaged)");
    }
    int n = in.readInt();
    Map<Integer, LaneCheckpoint> out = new TreeMap<>();
    for (int i = 0; i < n; i++) {
      int partition = in.readInt();
      long position = in.readLong();
      byte[] spec = new byte[in.readInt()];
      in.readFully(spec);
      byte[] state = new byte[in.readInt()];
      in.readFully(state);
      out.put(partition, new LaneCheckpoint(partition, position,
          new String(spec, StandardCharsets.UTF_8), state));
    }
    return out;
  }
}
