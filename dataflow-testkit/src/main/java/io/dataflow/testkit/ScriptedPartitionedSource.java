package io.dataflow.testkit;

import io.dataflow.core.Tick;
import io.dataflow.pipeline.spi.PartitionedSource;
import io.dataflow.pipeline.spi.SourceRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A partitioned source for pipeline tests: records per partition (offset = index), every
 * partition assigned at open, polled one partition after another in a fixed round; scripted faults: revoke partitions after the n-th poll (a rebalance mid-flight),
 * stay open after the last record (an unbounded source), fail the n-th poll.
 *
 * <p>Thread-safety: building and scripting on the test thread; then the controller only
 * (the test reads {@link #paused()} and {@link #polls()} between steps).
 */
public final class ScriptedPartitionedSource implements PartitionedSource {
  private final List<List<SourceRecord>> partitions = new ArrayList<>();
  private long[] next;
  private final Set<Integer> assigned = new TreeSet<>();
  private final Set<Integer> paused = new TreeSet<>();
  private final List<Set<Integer>> pauses = new ArrayList<>();
  private Rebalance rebalance;
  private int polls;
  private int revokeAtPoll = -1;
  private Set<Integer> toRevoke = Set.of();
  private int failAtPoll = -1;
  private boolean unbounded;
  private int cursor;
  private Map<Integer, Long> openedAt = Map.of();

  /** A source of {@code n} empty partitions. */
  public ScriptedPartitionedSource(int n) {
    for (int i = 0; i < n; i++) {
      partitions.add(new ArrayList<>());
    }
  }

  /** Appends a record for {@code key} to {@code partition}. */
  public ScriptedPartitionedSource add(int partition, Object key, Tick tick) {
    List<SourceRecord> p = partitions.get(partition);
    p.add(new SourceRecord(partition, p.size(), key, tick));
    return this;
  }

  /** Revokes {@code lanes} during poll number {@code poll} (1-based). */
  public ScriptedPartitionedSource revokingAt(int poll, Set<Integer> lanes) {
    revokeAtPoll = poll;
    toRevoke = Set.copyOf(lanes);
    return this;
  }

  /** Fails poll number {@code poll} (1-based) with an I/O error. */
  public ScriptedPartitionedSource failingAt(int poll) {
    failAtPoll = poll;
    return this;
  }

  /** Never reports the end: the pipeline runs until shut down. */
  public ScriptedPartitionedSource unbounded() {
    unbounded = true;
    return this;
  }

  @Override
  public void open(Rebalance r) {
    rebalance = r;
    next = new long[partitions.size()];
    for (int p = 0; p < partitions.size(); p++) {
      assigned.add(p);
    }
    Map<Integer, Long> positions = r.assigned(Set.copyOf(assigned));
    openedAt = Map.copyOf(positions);
    for (int p = 0; p < partitions.size(); p++) {
      next[p] = positions.getOrDefault(p, 0L);
    }
  }

  @Override
  public List<SourceRecord> poll(int max) throws java.io.IOException {
    polls++;
    if (polls == failAtPoll) {
      throw new java.io.IOException("scripted failure of poll " + polls);
    }
    if (polls == revokeAtPoll) {
      assigned.removeAll(toRevoke);
      rebalance.revoked(toRevoke);
    }
    List<SourceRecord> out = new ArrayList<>();
    int n = partitions.size();
    int idle = 0;
    while (out.size() < max && idle < n) {
      int p = cursor;
      cursor = (cursor + 1) % n;
      if (!assigned.contains(p) || paused.contains(p) || next[p] >= partitions.get(p).size()) {
        idle++;
        continue;
      }
      out.add(partitions.get(p).get((int) next[p]++));
      idle = 0;
    }
    return out;
  }

  @Override
  public void pause(Set<Integer> lanes) {
    paused.addAll(lanes);
    pauses.add(Set.copyOf(lanes));
  }

  @Override
  public void resume(Set<Integer> lanes) {
    paused.removeAll(lanes);
  }

  @Override
  public boolean isEnded(int partition) {
    return !unbounded && next != null && next[partition] >= partitions.get(partition).size();
  }

  @Override
  public boolean isExhausted() {
    if (unbounded || next == null) {
      return false;
    }
    for (int p : assigned) {
      if (!isEnded(p)) {
        return false;
      }
    }
    return true;
  }

  /** Partitions paused now. */
  public Set<Integer> paused() {
    return Set.copyOf(paused);
  }

  /** Every pause request so far, in order. */
  public List<Set<Integer>> pauses() {
    return List.copyOf(pauses);
  }

  /** The number of records of each partition. */
  public Map<Integer, Long> positionsAtEnd() {
    Map<Integer, Long> out = new java.util.TreeMap<>();
    for (int p = 0; p < partitions.size(); p++) {
      out.put(p, (long) partitions.get(p).size());
    }
    return out;
  }

  /** Polls so far. */
  public int polls() {
    return polls;
  }

  /** The positions the source was opened at (the committed ones). */
  public Map<Integer, Long> openedAt() {
    return openedAt;
  }

  @Override
  public void close() {}
}
