package io.dataflow.pipeline.internal;

import io.dataflow.pipeline.spi.LaneCheckpoint;
import io.dataflow.pipeline.spi.SourceRecord;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.TreeMap;

/**
 * One lane's accounts, kept by the controller: the offsets of the records admitted to the lane
 * in order (by admission sequence), which of them are acknowledged, the acknowledged position
 * (after the longest acknowledged prefix: never past an unacknowledged record), and the lane's
 * state checkpoints waiting until everything before them is acknowledged.
 *
 * <p>Thread-safety: controller thread only.
 */
final class LaneLedger {
  final int lane;
  final PendingCeilingGate gate;
  final int driver;
  /**
   * The offsets of the admitted, not yet prefix-acknowledged records, by sequence, as segments
   * of consecutive offsets (a ring of pairs: the segment's first sequence and its offset): a
   * chunk of consecutive offsets costs one entry, not one per record.
   */
  private long[] segSeq = new long[16];
  private long[] segOffset = new long[16];
  private int segHead;
  private int segCount;
  private long admitted;
  /** The offset of the last record admitted (valid when {@link #admitted} > 0). */
  private long lastOffset;
  private long ackedPrefix;
  /** Acknowledged ranges past the prefix (from, to exclusive), waiting for the gap to close. */
  private final TreeMap<Long, Long> ahead = new TreeMap<>();
  private long aheadCount;
  /** The offset after the last record of the acknowledged prefix; -1 before the first. */
  private long ackedPosition;
  private final ArrayDeque<LaneCheckpoint> candidates = new ArrayDeque<>();
  private LaneCheckpoint committed;

  LaneLedger(int lane, int driver, PendingCeilingGate gate, LaneCheckpoint restored) {
    this.lane = lane;
    this.driver = driver;
    this.gate = gate;
    this.committed = restored;
    this.ackedPosition = restored == null ? -1 : restored.position();
  }

  /** Admits the record at {@code offset}; returns its sequence in the lane. */
  long admit(long offset) {
    store(offset, 1);
    gate.set(pending());
    return admitted - 1;
  }

  /**
   * Admits a chunk of the lane's records, in order, with one write of the gate. Offsets of a
   * partition increase, so a chunk whose last offset is its first plus its length minus one
   * holds consecutive offsets: one segment, and no record but the two ends is read.
   */
  void admit(SourceRecord[] chunk) {
    int n = chunk.length;
    long first = chunk[0].offset();
    if (chunk[n - 1].offset() - first == n - 1) {
      store(first, n);
    } else {
      for (SourceRecord r : chunk) {
        store(r.offset(), 1);
      }
    }
    gate.set(pending());
  }

  /** Admits {@code n} records at consecutive offsets from {@code offset}. */
  private void store(long offset, int n) {
    if (segCount == 0 || offset != lastOffset + 1) {
      if (segCount == segSeq.length) {
        long[] seqs = new long[segCount * 2];
        long[] offs = new long[segCount * 2];
        for (int i = 0; i < segCount; i++) {
          seqs[i] = segSeq[(segHead + i) & (segCount - 1)];
          offs[i] = segOffset[(segHead + i) & (segCount - 1)];
        }
        segSeq = seqs;
        segOffset = offs;
        segHead = 0;
      }
      int at = (segHead + segCount) & (segSeq.length - 1);
      segSeq[at] = admitted;
      segOffset[at] = offset;
      segCount++;
    }
    admitted += n;
    lastOffset = offset + n - 1;
  }

  /** The offset of the record at sequence {@code seq} (admitted, past the acked prefix). */
  private long offsetAt(long seq) {
    // Segments before the one holding seq are behind the acknowledged prefix: drop them.
    while (segCount > 1 && segSeq[(segHead + 1) & (segSeq.length - 1)] <= seq) {
      segHead = (segHead + 1) & (segSeq.length - 1);
      segCount--;
    }
    return segOffset[segHead] + (seq - segSeq[segHead]);
  }

  /** Withdraws the last {@code n} admissions (their records could not be handed over). */
  void retract(int n) {
    admitted -= n;
    while (segCount > 0 && segSeq[(segHead + segCount - 1) & (segSeq.length - 1)] >= admitted) {
      segCount--;
    }
    if (segCount > 0) {
      int last = (segHead + segCount - 1) & (segSeq.length - 1);
      lastOffset = segOffset[last] + (admitted - 1 - segSeq[last]);
    }
    gate.set(pending());
  }

  /** Records the acknowledgement of sequences {@code from} (inclusive) to {@code to}. */
  void acknowledged(long from, long to) {
    if (from < ackedPrefix || to > admitted || from >= to || overlapsAhead(from, to)) {
      throw new IllegalStateException("lane " + lane + ": acknowledgement of records " + from
          + ".." + to + " outside the unacknowledged " + ackedPrefix + ".." + admitted);
    }
    if (from == ackedPrefix) {
      advance(to);
      for (Map.Entry<Long, Long> e; (e = ahead.firstEntry()) != null
          && e.getKey() == ackedPrefix; ) {
        ahead.pollFirstEntry();
        aheadCount -= e.getValue() - e.getKey();
        advance(e.getValue());
      }
    } else {
      ahead.put(from, to);
      aheadCount += to - from;
    }
    gate.set(pending());
  }

  private boolean overlapsAhead(long from, long to) {
    Map.Entry<Long, Long> before = ahead.floorEntry(to - 1);
    return before != null && before.getValue() > from;
  }

  private void advance(long to) {
    ackedPosition = offsetAt(to - 1) + 1;
    ackedPrefix = to;
  }

  /** Records admitted and not yet acknowledged. */
  long pending() {
    return admitted - ackedPrefix - aheadCount;
  }

  /** The position after the acknowledged prefix, or -1 when nothing was acknowledged. */
  long ackedPosition() {
    return ackedPosition;
  }

  /** A state checkpoint taken at a barrier, to commit once everything before it is acked. */
  void offer(LaneCheckpoint candidate) {
    candidates.addLast(candidate);
  }

  /**
   * The newest checkpoint that is fully acknowledged and newer than the committed one, or null;
   * older candidates are dropped.
   */
  LaneCheckpoint committable() {
    LaneCheckpoint best = null;
    while (!candidates.isEmpty() && candidates.peekFirst().position() <= ackedPosition) {
      best = candidates.pollFirst();
    }
    return best == null || (committed != null && best.position() <= committed.position())
        ? null : best;
  }

  /** Called once {@code c} persisted. */
  void committed(LaneCheckpoint c) {
    committed = c;
  }

  /** The committed position, or -1. */
  long committedPosition() {
    return committed == null ? -1 : committed.position();
  }
}
