package io.dataflow.pipeline.internal;

import io.dataflow.core.snapshot.MonitorSnapshot;
import io.dataflow.core.snapshot.SnapshotException;
import io.dataflow.monitor.KeyedMonitor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * The encoding of one lane's keyed state in a {@code LaneCheckpoint}: a magic, a version, then
 * each key (a string or a long) with its monitor snapshot in the snapshot format
 * (docs/snapshots.md), which carries its own checksum.
 */
final class LaneState {
  private static final int MAGIC = 0x44464c53; // "DFLS"
  private static final int VERSION = 1;

  private LaneState() {}

  static byte[] encode(KeyedMonitor keyed) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(MAGIC);
      out.writeInt(VERSION);
      out.writeInt(keyed.size());
      IOException[] failed = new IOException[1];
      keyed.snapshots((key, snapshot) -> {
        try {
          writeKey(out, key);
          byte[] s = snapshot.toBytes();
          out.writeInt(s.length);
          out.write(s);
        } catch (IOException e) {
          failed[0] = e;
        }
      });
      if (failed[0] != null) {
        throw failed[0];
      }
    } catch (IOException e) {
      throw new IllegalStateException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  /**
   * Restores every key of {@code state} into {@code keyed} (the transfer rules apply when the
   * program is another).
   *
   * @throws SnapshotException naming the lane when the state is not a lane state or is damaged
   */
  static void restore(int lane, byte[] state, KeyedMonitor keyed) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(state))) {
      if (in.readInt() != MAGIC) {
        throw new SnapshotException("lane " + lane + ": the checkpoint's state is not a lane"
            + " state (bad magic)");
      }
      int version = in.readInt();
      if (version != VERSION) {
        throw new SnapshotException("lane " + lane + ": lane state version " + version
            + " is not supported (this library reads version " + VERSION + ")");
      }
      int n = in.readInt();
      for (int i = 0; i < n; i++) {
        Object key = readKey(in);
        byte[] s = new byte[in.readInt()];
        in.readFully(s);
        keyed.restore(key, MonitorSnapshot.fromBytes(s));
      }
    } catch (IOException e) {
      SnapshotException x = new SnapshotException("lane " + lane + ": the checkpoint's state is"
          + " truncated: " + e.getMessage());
      x.initCause(e);
      throw x;
    }
  }

  private static void writeKey(DataOutputStream out, Object key) throws IOException {
    if (key instanceof Long l) {
      out.writeByte(1);
      out.writeLong(l);
    } else {
      out.writeByte(0);
      out.writeUTF(key.toString());
    }
  }

  private static Object readKey(DataInputStream in) throws IOException {
    byte tag = in.readByte();
    return switch (tag) {
      case 0 -> in.readUTF();
      case 1 -> in.readLong();
      default -> throw new SnapshotException("unknown key tag " + tag);
    };
  }
}
