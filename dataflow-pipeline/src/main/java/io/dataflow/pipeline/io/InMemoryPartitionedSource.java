package io.dataflow.pipeline.io;

import io.dataflow.core.Tick;
import io.dataflow.pipeline.spi.PartitionedSource;
import io.dataflow.pipeline.spi.SourceRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * A bounded partitioned source over records held in memory: every partition is assigned at
 * {@code open}, a record's offset is its index in its partition, and a resumed pipeline starts
 * each partition at its committed position. Polls take runs of records round-robin over the
 * partitions that are not paused (a poll of {@code max} records takes up to
 * {@code max / partitions} from each in turn), so lanes interleave.
 *
 * <p>Thread-safety: building on one thread; then the pipeline's controller only.
 */
public final class InMemoryPartitionedSource implements PartitionedSource {
  private final SourceRecord[][] partitions;
  private final long[] next;
  private final Set<Integer> paused = new TreeSet<>();
  /** The same as {@link #paused}, for the per-record check. */
  private final boolean[] isPaused;
  private int cursor;
  private boolean open;

  private InMemoryPartitionedSource(SourceRecord[][] partitions) {
    this.partitions = partitions;
    this.next = new long[partitions.length];
    this.isPaused = new boolean[partitions.length];
  }

  /** A builder of a source with {@code partitions} partitions. */
  public static Builder builder(int partitions) {
    return new Builder(partitions);
  }

  /** Collects the records, partition by partition, in order. */
  public static final class Builder {
    private final List<List<SourceRecord>> partitions = new ArrayList<>();

    private Builder(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("at least one partition, not " + n);
      }
      for (int i = 0; i < n; i++) {
        partitions.add(new ArrayList<>());
      }
    }

    /** Appends a record for {@code key} to {@code partition}; its offset is its index there. */
    public Builder add(int partition, Object key, Tick tick) {
      List<SourceRecord> p = partitions.get(partition);
      p.add(new SourceRecord(partition, p.size(), key, tick));
      return this;
    }

    /**
     * Appends a record for {@code key} to the partition its key hashes to (the same rule as
     * the JSON Lines source: {@code floorMod(key.hashCode(), partitions)}).
     */
    public Builder add(Object key, Tick tick) {
      return add(Math.floorMod(Objects.requireNonNull(key, "key").hashCode(),
          partitions.size()), key, tick);
    }

    /** The source. */
    public InMemoryPartitionedSource build() {
      // Made again partition by partition, so that each partition's records lie one after
      // another in memory (as a consumer's fetch of one partition would), however the adds
      // interleaved: a poll's run then reads them as a stream.
      SourceRecord[][] copy = new SourceRecord[partitions.size()][];
      for (int p = 0; p < copy.length; p++) {
        List<SourceRecord> records = partitions.get(p);
        copy[p] = new SourceRecord[records.size()];
        for (int i = 0; i < copy[p].length; i++) {
          SourceRecord r = records.get(i);
          copy[p][i] = new SourceRecord(p, r.offset(), r.key(), r.tick());
        }
      }
      return new InMemoryPartitionedSource(copy);
    }
  }

  @Override
  public void open(Rebalance rebalance) {
    open = true;
    Set<Integer> all = new TreeSet<>();
    for (int p = 0; p < partitions.length; p++) {
      all.add(p);
    }
    Map<Integer, Long> positions = rebalance.assigned(all);
    for (int p = 0; p < partitions.length; p++) {
      next[p] = Math.max(0, Math.min(positions.getOrDefault(p, 0L), partitions[p].length));
    }
  }

  @Override
  public List<SourceRecord> poll(int max) {
    List<SourceRecord> out = new ArrayList<>();
    poll(max, (p, records, from, to) -> out.addAll(Arrays.asList(records).subList(from, to)));
    return out;
  }

  /** Hands over runs of the partitions' own arrays: nothing is copied or read per record. */
  @Override
  public int poll(int max, Runs into) {
    int n = partitions.length;
    int run = Math.max(1, max / n);
    int size = 0;
    int idle = 0;
    while (size < max && idle < n) {
      int p = cursor;
      cursor = (cursor + 1) % n;
      SourceRecord[] records = partitions[p];
      int from = (int) next[p];
      if (isPaused[p] || from >= records.length) {
        idle++;
        continue;
      }
      int take = Math.min(Math.min(run, max - size), records.length - from);
      next[p] = from + take;
      size += take;
      idle = 0;
      into.run(p, records, from, from + take);
    }
    return size;
  }

  @Override
  public void pause(Set<Integer> lanes) {
    paused.addAll(lanes);
    lanes.forEach(p -> isPaused[p] = true);
  }

  @Override
  public void resume(Set<Integer> lanes) {
    paused.removeAll(lanes);
    lanes.forEach(p -> isPaused[p] = false);
  }

  @Override
  public boolean isEnded(int partition) {
    return open && next[partition] >= partitions[partition].length;
  }

  @Override
  public boolean isExhausted() {
    for (int p = 0; p < partitions.length; p++) {
      if (!isEnded(p)) {
        return false;
      }
    }
    return open;
  }

  /** The partitions paused right now (for tests of backpressure). */
  public Set<Integer> paused() {
    return Set.copyOf(paused);
  }

  @Override
  public void close() {}
}
