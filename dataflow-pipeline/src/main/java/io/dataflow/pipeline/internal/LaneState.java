package io.dataflow.pipeline.internal;

import io.dataflow.core.snapshot.SnapshotException;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.KeyedMonitor;
import io.dataflow.monitor.SpecException;
import io.dataflow.monitor.TransferMapping;
import io.dataflow.monitor.TypingMode;
import io.dataflow.pipeline.spi.LaneCheckpoint;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * The state of one lane's keys in a {@code LaneCheckpoint}: the keyed monitor's own state
 * format ({@link KeyedMonitor#writeState}: each compact key's state vector, other keys'
 * snapshots), read back by a keyed monitor of the checkpoint's program.
 */
final class LaneState {
  private LaneState() {}

  static byte[] encode(KeyedMonitor keyed) {
    Bytes bytes = new Bytes(64 + 128 * keyed.size());
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      keyed.writeState(out);
    } catch (IOException e) {
      throw new IllegalStateException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  /**
   * A growing byte array without {@link java.io.ByteArrayOutputStream}'s lock per call: a
   * checkpoint of many keys writes several small values per key, and the driver is its only
   * writer.
   */
  private static final class Bytes extends OutputStream {
    private byte[] buf;
    private int size;

    Bytes(int capacity) {
      buf = new byte[capacity];
    }

    private void ensure(int more) {
      if (size + more > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(size + more, buf.length * 2));
      }
    }

    @Override
    public void write(int b) {
      ensure(1);
      buf[size++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      ensure(len);
      System.arraycopy(b, off, buf, size, len);
      size += len;
    }

    byte[] toByteArray() {
      return Arrays.copyOf(buf, size);
    }
  }

  /**
   * The keys of checkpoint {@code c}, on {@code program}: read by a keyed monitor of the
   * checkpoint's own specification, then, when that is another, moved to {@code program} with
   * the transfer rules (as a live reconfiguration would).
   *
   * @throws SnapshotException naming the lane when the state is damaged or does not fit
   */
  static KeyedMonitor restore(LaneCheckpoint c, DataflowProgram program, TypingMode mode,
      long nowNanos) {
    try {
      if (c.specification().equals(program.source())) {
        return read(c, KeyedMonitor.create(program), nowNanos);
      }
      DataflowProgram old = DataflowProgram.compile("<checkpoint of lane " + c.partition() + ">",
          c.specification(), mode);
      KeyedMonitor keyed = read(c, KeyedMonitor.create(old), nowNanos);
      keyed.reconfigure(program, TransferMapping.plan(old, program));
      return keyed;
    } catch (SpecException e) {
      SnapshotException x = new SnapshotException("lane " + c.partition() + ": the checkpoint's"
          + " specification does not compile: " + e.getMessage());
      x.initCause(e);
      throw x;
    }
  }

  private static KeyedMonitor read(LaneCheckpoint c, KeyedMonitor keyed, long nowNanos) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(c.state()))) {
      keyed.readState(in, nowNanos);
      return keyed;
    } catch (SnapshotException e) {
      SnapshotException x = new SnapshotException("lane " + c.partition() + ": "
          + e.getMessage());
      x.initCause(e);
      throw x;
    } catch (IOException e) {
      SnapshotException x = new SnapshotException("lane " + c.partition() + ": the checkpoint's"
          + " state is truncated: " + e.getMessage());
      x.initCause(e);
      throw x;
    }
  }
}
