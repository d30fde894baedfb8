package io.dataflow.pipeline;

import io.dataflow.core.RuntimeStatus;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One view of a keyed pipeline, published by its controller thread after reading each driver's
 * published counters once.
 *
 * @param run what every runtime reports: state, ticks in and out (all keys), records waiting in
 *     the drivers' queues, the first error, the monitor revision, the clock reading, the age of
 *     the last commit
 * @param lanesByDriver the lanes (partitions) each driver owns, by driver index
 * @param pausedLanes the lanes paused at the source (backpressure)
 * @param pendingByLane records admitted but not yet acknowledged, per lane
 * @param keysResident keys with state, all drivers
 * @param keysExpired keys forgotten by idle expiry so far
 * @param acknowledged per partition, the position up to which every record was acknowledged
 * @param committed per partition, the last committed position
 */
public record PipelineStatus(RuntimeStatus run, List<List<Integer>> lanesByDriver,
    Set<Integer> pausedLanes, Map<Integer, Long> pendingByLane, long keysResident,
    long keysExpired, Map<Integer, Long> acknowledged, Map<Integer, Long> committed) {

  /** Copies the collections. */
  public PipelineStatus {
    lanesByDriver = lanesByDriver.stream().map(List::copyOf).toList();
    pausedLanes = Set.copyOf(pausedLanes);
    pendingByLane = Map.copyOf(pendingByLane);
    acknowledged = Map.copyOf(acknowledged);
    committed = Map.copyOf(committed);
  }

  /**
   * The periodic status line: the runtime fields of {@link RuntimeStatus#line}, then
   * {@code lanes=4 paused=[2] keys=1000 expired=0}.
   */
  public String line(PipelineStatus earlier) {
    int lanes = lanesByDriver.stream().mapToInt(List::size).sum();
    return run.line(earlier == null ? null : earlier.run) + " lanes=" + lanes + " paused="
        + new java.util.TreeSet<>(pausedLanes) + " keys=" + keysResident + " expired="
        + keysExpired;
  }
}
