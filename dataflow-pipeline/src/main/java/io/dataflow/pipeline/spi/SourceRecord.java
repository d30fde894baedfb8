package io.dataflow.pipeline.spi;

import io.dataflow.core.Tick;
import java.util.Objects;

/**
 * One record of a partitioned source: a tick for one key, at a position of one partition.
 *
 * @param partition the partition (the pipeline's lane)
 * @param offset the record's position in its partition; offsets of one partition increase
 * @param key the monitor key (a {@code String} or a {@code Long}; compared with {@code equals})
 * @param tick the input values of the key's next tick (the key itself is not an input)
 */
public record SourceRecord(int partition, long offset, Object key, Tick tick) {
  /** Validates the record. */
  public SourceRecord {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(tick, "tick");
    if (partition < 0 || offset < 0) {
      throw new IllegalArgumentException("partition " + partition + " offset " + offset);
    }
  }
}
