package io.dataflow.pipeline.spi;

import java.util.Objects;

/**
 * What a pipeline commits for one partition: the position to resume from and the state of the
 * partition's keys exactly after the record before it.
 *
 * @param partition the partition
 * @param position the offset of the next record to read (every record before it was
 *     evaluated and its outputs acknowledged)
 * @param specification the text of the specification the state belongs to
 * @param state the keys' monitor state (an opaque encoding of per-key snapshots)
 */
public record LaneCheckpoint(int partition, long position, String specification, byte[] state) {
  /** Validates the checkpoint. */
  public LaneCheckpoint {
    Objects.requireNonNull(specification, "specification");
    Objects.requireNonNull(state, "state");
  }
}
