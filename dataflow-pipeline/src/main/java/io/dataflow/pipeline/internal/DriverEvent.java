package io.dataflow.pipeline.internal;

import io.dataflow.pipeline.spi.LaneCheckpoint;
import java.util.List;
import java.util.Set;

/** What a driver tells the controller, on the controller's unbounded event queue. */
sealed interface DriverEvent {
  /** These lanes reached their pending ceiling: pause them at the source. */
  record PauseLanes(Set<Integer> lanes) implements DriverEvent {}

  /** These lanes fell below the resume watermark: resume them at the source. */
  record ResumeLanes(Set<Integer> lanes) implements DriverEvent {}

  /** The driver failed: fatal for the pipeline (first fatal wins). */
  record Fatal(String thread, String component, Throwable error) implements DriverEvent {}

  /** The lanes' state at a checkpoint barrier (epoch -1: a stop or shutdown barrier). */
  record LaneSnapshots(long epoch, List<LaneCheckpoint> lanes) implements DriverEvent {}
}
