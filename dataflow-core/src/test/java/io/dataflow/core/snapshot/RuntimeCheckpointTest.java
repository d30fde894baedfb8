package io.dataflow.core.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The checkpoint envelope: it round-trips, and damaged bytes are only ever a typed error. */
class RuntimeCheckpointTest {
  private static RuntimeCheckpoint sample() {
    return new RuntimeCheckpoint(3, Map.of("trace", 12L, "api", 0L), "base-key", "counter.dsrv",
        "in x\nout z\nz = default(z[1], 0) + x", MonitorSnapshotCodecTest.sample());
  }

  @Test
  void roundTripsExactly() {
    RuntimeCheckpoint c = sample();
    RuntimeCheckpoint back = RuntimeCheckpoint.fromBytes(c.toBytes());
    assertThat(back).isEqualTo(c);
    assertThat(back.toBytes()).isEqualTo(c.toBytes());
  }

  @Test
  void everyTruncationAndEveryFlippedByteIsASnapshotExceptionWithAnOffset() {
    byte[] good = sample().toBytes();
    for (int len = 0; len < good.length; len++) {
      byte[] cut = java.util.Arrays.copyOf(good, len);
      assertThatThrownBy(() -> RuntimeCheckpoint.fromBytes(cut)).as("prefix %d", len)
          .isInstanceOf(SnapshotException.class);
    }
    for (int i = 0; i < good.length; i++) {
      byte[] bad = good.clone();
      bad[i] ^= 0x5a;
      int at = i;
      assertThatThrownBy(() -> RuntimeCheckpoint.fromBytes(bad)).as("byte %d", at)
          .isInstanceOf(SnapshotException.class)
          .satisfies(e -> assertThat(((SnapshotException) e).offset()).isNotNegative());
    }
  }
}
