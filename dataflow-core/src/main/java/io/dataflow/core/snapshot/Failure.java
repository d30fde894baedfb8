package io.dataflow.core.snapshot;

import java.util.Objects;

/**
 * Why a snapshotted monitor was poisoned (the parts of its {@code MonitorException}).
 *
 * @param tick the tick that failed
 * @param stream the stream whose evaluation failed, or null
 * @param reason what went wrong
 */
public record Failure(long tick, String stream, String reason) {
  /** Validates. */
  public Failure {
    Objects.requireNonNull(reason, "reason");
  }
}
