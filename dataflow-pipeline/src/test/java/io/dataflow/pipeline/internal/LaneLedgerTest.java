package io.dataflow.pipeline.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.Tick;
import io.dataflow.pipeline.spi.LaneCheckpoint;
import io.dataflow.pipeline.spi.SourceRecord;
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

  /**
   * Seeded: chunks of consecutive and of gapped offsets (one segment or one per record),
   * withdrawn chunks and acknowledgements in any order give the same positions as the record
   * by record model. Catches: a segment that covers a gap, a withdrawal that leaves a stale
   * segment or last offset behind.
   */
  @Test
  void chunksAndWithdrawalsKeepEveryRecordsOffset() {
    for (long seed = 0; seed < 300; seed++) {
      Random r = new Random(seed);
      LaneLedger l = new LaneLedger(0, 0, new PendingCeilingGate(0, 10, 5), null);
      List<Long> offsets = new ArrayList<>();
      long offset = r.nextInt(5);
      long acked = 0;
      boolean[] done = new boolean[4000];
      for (int step = 0; step < 60; step++) {
        int n = 1 + r.nextInt(20);
        boolean gaps = r.nextInt(3) == 0;
        SourceRecord[] chunk = new SourceRecord[n];
        long at = offset + (r.nextInt(4) == 0 ? 1 + r.nextInt(3) : 0);
        for (int i = 0; i < n; i++) {
          chunk[i] = new SourceRecord(0, at, "k",
              Tick.empty());
          at += gaps ? 1 + r.nextInt(3) : 1;
        }
        l.admit(chunk);
        if (r.nextInt(5) == 0) {
          l.retract(n); // not handed over: as if never admitted
        } else {
          for (SourceRecord c : chunk) {
            offsets.add(c.offset());
          }
          offset = at;
        }
        assertThat(l.pending()).as("seed %s", seed).isEqualTo(offsets.size() - countDone(done,
            offsets.size()));
        // Acknowledge a random unacknowledged range ending at or before the last admitted.
        if (offsets.size() > acked && r.nextBoolean()) {
          long from = acked + r.nextInt((int) (offsets.size() - acked));
          while (done[(int) from]) {
            from++;
            if (from == offsets.size()) {
              break;
            }
          }
          if (from < offsets.size()) {
            long to = from + 1;
            while (to < offsets.size() && !done[(int) to] && r.nextInt(4) != 0) {
              to++;
            }
            l.acknowledged(from, to);
            for (long i = from; i < to; i++) {
              done[(int) i] = true;
            }
            while (acked < offsets.size() && done[(int) acked]) {
              acked++;
            }
          }
        }
        assertThat(l.ackedPosition()).as("seed %s step %s", seed, step)
            .isEqualTo(acked == 0 ? -1 : offsets.get((int) acked - 1) + 1);
      }
    }
  }

  /** Catches: a withdrawal that leaves the withdrawn chunk's last offset as the lane's last. */
  @Test
  void aChunkAfterAWithdrawnOneStartsItsOwnSegment() {
    LaneLedger l = ledger();
    l.admit(chunk(0, 1, 2, 3, 4));
    l.admit(chunk(5, 6));
    l.retract(2);
    l.admit(chunk(7, 8)); // 5 and 6 went elsewhere: 7 does not follow 4
    l.acknowledged(0, 7);
    assertThat(l.ackedPosition()).isEqualTo(9);
    assertThat(l.pending()).isZero();
  }

  private static SourceRecord[] chunk(long... offsets) {
    SourceRecord[] c =
        new SourceRecord[offsets.length];
    for (int i = 0; i < c.length; i++) {
      c[i] = new SourceRecord(3, offsets[i], "k",
          Tick.empty());
    }
    return c;
  }

  private static int countDone(boolean[] done, int n) {
    int c = 0;
    for (int i = 0; i < n; i++) {
      c += done[i] ? 1 : 0;
    }
    return c;
  }
}
