package io.dataflow.pipeline.io;

import io.dataflow.core.Tick;
import io.dataflow.pipeline.spi.PartitionedSource;
import io.dataflow.pipeline.spi.SourceRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A partitioned source that producer threads feed: {@link #offer} puts a keyed tick on the
 * partition its key hashes to ({@code floorMod(key.hashCode(), partitions)}), up to a capacity
 * per partition; {@link #endOfInput()} makes the source bounded. Offsets count the records
 * offered to each partition, so they only replay within one process (hand a resumed pipeline
 * the same source).
 *
 * <p>Thread-safety: {@link #offer} and {@link #endOfInput()} from any thread; the rest from the
 * pipeline's controller.
 */
public final class QueuePartitionedSource implements PartitionedSource {
  private final int capacity;
  private final List<Partition> partitions = new ArrayList<>();
  private final Set<Integer> paused = new TreeSet<>();
  private volatile boolean ended;
  private int cursor;

  private static final class Partition {
    final ConcurrentLinkedQueue<SourceRecord> queue = new ConcurrentLinkedQueue<>();
    final AtomicInteger size = new AtomicInteger();
    long nextOffset;
    long start;
  }

  /** A source of {@code partitions} partitions holding at most {@code capacity} records each. */
  public QueuePartitionedSource(int partitions, int capacity) {
    if (partitions < 1 || capacity < 1) {
      throw new IllegalArgumentException("partitions and capacity must be positive");
    }
    this.capacity = capacity;
    for (int i = 0; i < partitions; i++) {
      this.partitions.add(new Partition());
    }
  }

  /**
   * Offers a tick of {@code key}; false (counted by the caller, never dropped silently) when
   * its partition is full.
   *
   * @throws IllegalStateException after {@link #endOfInput()}
   */
  public boolean offer(Object key, Tick tick) {
    if (ended) {
      throw new IllegalStateException("the source's input has ended");
    }
    int p = Math.floorMod(Objects.requireNonNull(key, "key").hashCode(), partitions.size());
    Partition part = partitions.get(p);
    if (part.size.get() >= capacity) {
      return false;
    }
    synchronized (part) { // offsets in queue order
      part.size.incrementAndGet();
      part.queue.add(new SourceRecord(p, part.nextOffset++, key, tick));
    }
    return true;
  }

  /** No more offers: the source ends once every record was polled. */
  public void endOfInput() {
    ended = true;
  }

  @Override
  public void open(Rebalance rebalance) {
    Set<Integer> all = new TreeSet<>();
    for (int p = 0; p < partitions.size(); p++) {
      all.add(p);
    }
    Map<Integer, Long> positions = rebalance.assigned(all);
    for (int p = 0; p < partitions.size(); p++) {
      partitions.get(p).start = positions.getOrDefault(p, 0L);
    }
  }

  @Override
  public List<SourceRecord> poll(int max) {
    List<SourceRecord> out = new ArrayList<>();
    int n = partitions.size();
    for (int i = 0; i < n && out.size() < max; i++) {
      int p = (cursor + i) % n;
      if (paused.contains(p)) {
        continue;
      }
      Partition part = partitions.get(p);
      SourceRecord r;
      while (out.size() < max && (r = part.queue.poll()) != null) {
        part.size.decrementAndGet();
        if (r.offset() >= part.start) {
          out.add(r);
        }
      }
    }
    cursor = (cursor + 1) % n;
    return out;
  }

  @Override
  public void pause(Set<Integer> lanes) {
    paused.addAll(lanes);
  }

  @Override
  public void resume(Set<Integer> lanes) {
    paused.removeAll(lanes);
  }

  @Override
  public boolean isEnded(int partition) {
    return ended && partitions.get(partition).queue.isEmpty();
  }

  @Override
  public boolean isExhausted() {
    if (!ended) {
      return false;
    }
    for (Partition p : partitions) {
      if (!p.queue.isEmpty()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void close() {}
}
