package io.dataflow.pipeline.io;

import io.dataflow.pipeline.spi.Checkpointer;
import io.dataflow.pipeline.spi.LaneCheckpoint;
import java.util.Map;
import java.util.TreeMap;

/**
 * Commits kept in memory: they survive a pipeline (hand the same checkpointer to the next one)
 * but not the process. The default of a pipeline built without a checkpointer.
 *
 * <p>Thread-safety: safe from any thread (a test reads it while the pipeline commits).
 */
public final class InMemoryCheckpointer implements Checkpointer {
  private final Map<Integer, LaneCheckpoint> committed = new TreeMap<>();
  private long commits;

  @Override
  public synchronized Map<Integer, LaneCheckpoint> load() {
    return Map.copyOf(committed);
  }

  @Override
  public synchronized void commit(Map<Integer, LaneCheckpoint> lanes) {
    committed.putAll(lanes);
    commits++;
  }

  /** The committed position of every partition that has one. */
  public synchronized Map<Integer, Long> positions() {
    Map<Integer, Long> out = new TreeMap<>();
    committed.forEach((p, c) -> out.put(p, c.position()));
    return out;
  }

  /** How many commits were made. */
  public synchronized long commits() {
    return commits;
  }
}
