package io.dataflow.pipeline;

import io.dataflow.core.ExitReport;
import java.util.Map;
import org.slf4j.Logger;

/**
 * How a keyed pipeline ended. A bounded source's run is {@code COMPLETED} only when every batch
 * was acknowledged and the final commit persisted; anything less is {@code FAILED}.
 *
 * @param run the outcome, failing component and reason, fatal reason and advice, ticks in and
 *     out, the sink's drain, final revisions and warnings, as for a single runtime
 * @param acknowledged per partition, the position up to which every output was acknowledged
 * @param committed per partition, the final committed position (never past unacknowledged data)
 */
public record PipelineExitReport(ExitReport run, Map<Integer, Long> acknowledged,
    Map<Integer, Long> committed) {
  /** Copies the maps. */
  public PipelineExitReport {
    acknowledged = Map.copyOf(acknowledged);
    committed = Map.copyOf(committed);
  }

  /** True when the run completed. */
  public boolean ok() {
    return run.isCompleted();
  }

  /** The process exit status: 0 when completed, 1 otherwise (failed or cancelled). */
  public int exitCode() {
    return ok() ? 0 : 1;
  }

  /** Logs the outcome once: info when completed, the fatal reason's line otherwise. */
  public void log(Logger log) {
    if (ok()) {
      log.info("{}: completed, {} ticks in, {} ticks out, committed {}", "pipeline",
          run.ticksIn(), run.ticksOut(), new java.util.TreeMap<>(committed));
    } else {
      log.warn("pipeline {}: {} ({}), committed {}", run.outcome(), run.reason(),
          run.component(), new java.util.TreeMap<>(committed));
    }
  }
}
