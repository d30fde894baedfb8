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
  /** Offsets of the admitted, not yet prefix-acknowledged records, by sequence (a ring). */
  private long[] offsets = new long[64];
  private long admitted;
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
    store(offset);
    gate.set(pending());
    return admitted - 1;
  }

  /**
   * Admits a chunk of the lane's records, in order: their offsets are kept by sequence, and the
   * gate is written once for the chunk.
   */
  void admit(SourceRecord[] chunk) {
    for (SourceRecord r : chunk) {
      store(r.offset());
    }
    gate.set(pending());
  }

  private void store(long offset) {
    if (admitted - ackedPrefix == offsets.length) {
      long[] bigger = new long[offsets.length * 2];
      for (long s = ackedPrefix; s < admitted; s++) {
        bigger[(int) (s & (bigger.length - 1))] = offsets[(int) (s & (offsets.length - 1))];
      }
      offsets = bigger;
    }
    offsets[(int) (admitted & (offsets.length - 1))] = offset;
    admitted++;
  }

  /** Withdraws the last {@code n} admissions (their records could not be handed over). */
  void retract(int n) {
    admitted -= n;
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
    ackedPosition = offsets[(int) ((to - 1) & (offsets.length - 1))] + 1;
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
