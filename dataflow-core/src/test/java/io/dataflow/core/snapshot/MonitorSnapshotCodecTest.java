package io.dataflow.core.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.dataflow.core.MonitorRevision;
import io.dataflow.core.Value;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MonitorSnapshotCodecTest {
  static MonitorSnapshot sample() {
    List<Value> every = List.of(Value.of(3), Value.of(1.0), Value.of(-0.0), Value.of(Double.NaN),
        Value.of(Double.NEGATIVE_INFINITY), Value.of("ä\u0000𝄞"), Value.TRUE, Value.UNIT,
        Value.NOVAL, Value.DEFERRED, Value.list(Value.of(1), Value.list()),
        Value.map("b", Value.of(2), "a", Value.map()));
    return new MonitorSnapshot(MonitorSnapshot.FORMAT_VERSION, "p", "key", 7,
        new MonitorRevision(2, 3), new Failure(6, "z", "division by zero"),
        List.of(new StreamState("x", "input", "Int", "fx", Value.of(1), Value.of(1), 2,
                List.of(Value.of(1), Value.NOVAL), List.of()),
            new StreamState("z", "output", null, "fz", Value.NOVAL, Value.of("s"), 0, List.of(),
                List.of(new OperatorState("Update", every), new OperatorState("Init",
                    List.of(Value.FALSE))))));
  }

  @Test
  void roundTripsEveryValueKindExactly() throws IOException {
    MonitorSnapshot s = sample();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    s.write(out);
    MonitorSnapshot back = MonitorSnapshot.read(new ByteArrayInputStream(out.toByteArray()));
    assertThat(back).isEqualTo(s);
    assertThat(back.toBytes()).isEqualTo(out.toByteArray());
    double negZero = back.stream("z").operators().get(0).values().get(2).asDouble();
    assertThat(Double.doubleToRawLongBits(negZero)).isEqualTo(Double.doubleToRawLongBits(-0.0));
  }

  @Test
  void healthySnapshotWithoutFailureRoundTrips() {
    MonitorSnapshot s = new MonitorSnapshot(1, "p", "k", 0, MonitorRevision.INITIAL, null,
        List.of());
    assertThat(MonitorSnapshot.fromBytes(s.toBytes())).isEqualTo(s);
  }

  @Test
  void everyTruncationIsASnapshotExceptionWithOffset() {
    byte[] bytes = sample().toBytes();
    for (int len = 0; len < bytes.length; len++) {
      byte[] prefix = java.util.Arrays.copyOf(bytes, len);
      Throwable t = catchThrowable(() -> MonitorSnapshot.fromBytes(prefix));
      assertThat(t).as("prefix of %d bytes", len).isExactlyInstanceOf(SnapshotException.class);
      SnapshotException e = (SnapshotException) t;
      assertThat(e.offset()).as("prefix of %d bytes", len).isBetween(0L, (long) len);
      assertThat(e.getMessage()).contains("offset " + e.offset());
    }
  }

  @Test
  void everySingleByteCorruptionIsDetected() {
    byte[] bytes = sample().toBytes();
    for (int i = 0; i < bytes.length; i++) {
      for (int bit : new int[] {0x01, 0x80, 0xFF}) {
        byte[] bad = bytes.clone();
        bad[i] ^= (byte) bit;
        Throwable t = catchThrowable(() -> MonitorSnapshot.fromBytes(bad));
        assertThat(t).as("byte %d ^ %x", i, bit).isExactlyInstanceOf(SnapshotException.class);
        assertThat(t.getMessage()).contains("offset");
      }
    }
  }

  @Test
  void corruptionInTheContentIsReportedAsChecksumMismatch() {
    byte[] bad = sample().toBytes();
    bad[bad.length - 10] ^= 1;
    assertThatThrownBy(() -> MonitorSnapshot.fromBytes(bad))
        .isInstanceOf(SnapshotException.class).hasMessageContaining("checksum mismatch");
  }

  @Test
  void foreignMagicAndFutureVersionsAreRefused() {
    assertThatThrownBy(() -> MonitorSnapshot.fromBytes("{\"json\": true}".getBytes()))
        .isInstanceOf(SnapshotException.class).hasMessageContaining("offset 0")
        .hasMessageContaining("foreign magic");
    byte[] future = sample().toBytes();
    future[9] = 2;
    assertThatThrownBy(() -> MonitorSnapshot.fromBytes(future))
        .isInstanceOf(SnapshotException.class).hasMessageContaining("offset 8")
        .hasMessageContaining("format version 2 is not supported");
  }

  @Test
  void hugeDeclaredLengthsAllocateNothing() {
    byte[] bytes = new MonitorSnapshot(1, "p", "k", 0, MonitorRevision.INITIAL, null, List.of())
        .toBytes();
    // The program name's length is the first field after magic and version: claim 2 GiB.
    byte[] bad = bytes.clone();
    bad[10] = 0x7F;
    bad[11] = (byte) 0xFF;
    bad[12] = (byte) 0xFF;
    bad[13] = (byte) 0xFF;
    long before = usedMemory();
    assertThatThrownBy(() -> MonitorSnapshot.fromBytes(bad))
        .isInstanceOf(SnapshotException.class).hasMessageContaining("exceeds what the remaining");
    assertThat(usedMemory() - before).isLessThan(64L << 20);
  }

  @Test
  void readingAFileNamesTheFile(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("s.snap");
    sample().write(f);
    assertThat(MonitorSnapshot.read(f)).isEqualTo(sample());
    Files.write(f, new byte[] {1, 2, 3});
    assertThatThrownBy(() -> MonitorSnapshot.read(f)).isInstanceOf(SnapshotException.class)
        .hasMessageContaining(f.toString()).hasMessageContaining("offset 0");
  }

  private static long usedMemory() {
    Runtime r = Runtime.getRuntime();
    return r.totalMemory() - r.freeMemory();
  }
}
