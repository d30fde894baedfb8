package io.dataflow.pipeline.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.pipeline.spi.LaneCheckpoint;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The acknowledged position of a lane: never past an unacknowledged record. */
class LaneLedgerTest {
  static LaneLedger ledger() {
    return new LaneLedger(3, 0, new PendingCeilingGate(3, 10, 5), null);
  }

  /** Catches: an acknowledged position that jumps over a gap of out-of-order acks. */
  @Test
  void outOfOrderAcknowledgementsAdvanceOnlyOverTheContiguousPrefix() {
    LaneLedger l = ledger();
    for (long offset : new long[] {10, 11, 15, 16, 20}) {
      l.admit(offset);
    }
    assertThat(l.pending()).isEqualTo(5);
    assertThat(l.gate.pending()).isEqualTo(5);
    l.acknowledged(2, 4); // 15 and 16
    assertThat(l.ackedPosition()).isEqualTo(-1);
    assertThat(l.pending()).isEqualTo(3);
    l.acknowledged(0, 1); // 10
    assertThat(l.ackedPosition()).isEqualTo(11);
    l.acknowledged(1, 2); // 11, closing the gap up to 16
    assertThat(l.ackedPosition()).isEqualTo(17);
    l.acknowledged(4, 5);
    assertThat(l.ackedPosition()).isEqualTo(21);
    assertThat(l.pending()).isZero();
    assertThat(l.gate.pending()).isZero();
  }

  /** Catches: acknowledging twice, or what was never admitted. */
  @Test
  void anAcknowledgementOutsideTheUnacknowledgedRangeIsABug() {
    LaneLedger l = ledger();
    l.admit(0);
    l.admit(1);
    l.acknowledged(0, 1);
    assertThatThrownBy(() -> l.acknowledged(0, 1)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("lane 3");
    assertThatThrownBy(() -> l.acknowledged(1, 3)).isInstanceOf(IllegalStateException.class);
    l.admit(2);
    l.acknowledged(2, 3);
    assertThatThrownBy(() -> l.acknowledged(2, 3)).isInstanceOf(IllegalStateException.class);
  }

  /** Catches: committing a checkpoint whose position is past the acknowledged prefix. */
  @Test
  void aCheckpointIsCommittableOnlyOnceEverythingBeforeItIsAcknowledged() {
    LaneLedger l = ledger();
    for (int i = 0; i < 6; i++) {
      l.admit(i);
    }
    l.offer(new LaneCheckpoint(3, 3, "s", new byte[0]));
    l.offer(new LaneCheckpoint(3, 6, "s", new byte[0]));
    assertThat(l.committable()).isNull();
    l.acknowledged(0, 4);
    assertThat(l.committable().position()).isEqualTo(3);
    l.committed(new LaneCheckpoint(3, 3, "s", new byte[0]));
    assertThat(l.committable()).isNull();
    l.acknowledged(4, 6);
    assertThat(l.committable().position()).isEqualTo(6);
  }

  /** Seeded: any order of acknowledgements ends at the last offset + 1, never beyond a gap. */
  @Test
  void anyOrderOfAcknowledgementsIsSafe() {
    for (long seed = 0; seed < 200; seed++) {
      Random r = new Random(seed);
      LaneLedger l = new LaneLedger(0, 0, new PendingCeilingGate(0, 10, 5), null);
      int n = 1 + r.nextInt(300);
      long[] offsets = new long[n];
      long offset = 0;
      for (int i = 0; i < n; i++) {
        offset += 1 + r.nextInt(3);
        offsets[i] = offset;
        l.admit(offset);
      }
      List<long[]> ranges = new ArrayList<>();
      for (int from = 0; from < n; ) {
        int to = Math.min(n, from + 1 + r.nextInt(5));
        ranges.add(new long[] {from, to});
        from = to;
      }
      Collections.shuffle(ranges, r);
      boolean[] acked = new boolean[n];
      for (long[] range : ranges) {
        l.acknowledged(range[0], range[1]);
        for (long i = range[0]; i < range[1]; i++) {
          acked[(int) i] = true;
        }
        int prefix = 0;
        while (prefix < n && acked[prefix]) {
          prefix++;
        }
        assertThat(l.ackedPosition()).as("seed %s", seed)
            .isEqualTo(prefix == 0 ? -1 : offsets[prefix - 1] + 1);
      }
      assertThat(l.pending()).as("seed %s", seed).isZero();
    }
  }
}
