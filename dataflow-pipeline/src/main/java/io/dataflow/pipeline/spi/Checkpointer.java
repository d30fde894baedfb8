package io.dataflow.pipeline.spi;

import java.io.IOException;
import java.util.Map;

/**
 * Where a pipeline's commits persist. Only the controller thread calls it.
 */
public interface Checkpointer {
  /** The last committed checkpoint of every partition that has one. */
  Map<Integer, LaneCheckpoint> load() throws IOException;

  /**
   * Commits these partitions' checkpoints, all or none (the others keep theirs); when this
   * returns they survive a crash.
   */
  void commit(Map<Integer, LaneCheckpoint> lanes) throws IOException;

  /**
   * Keeps the committed checkpoints for inspection but never loads them again (a failure made
   * them untrustworthy); never deletes them.
   *
   * @return true when they were set aside; false when this checkpointer cannot (the default)
   */
  default boolean setAside(String reason) throws IOException {
    return false;
  }
}
