package io.dataflow.pipeline.internal;

/**
 * One lane's backpressure: the records admitted but not yet acknowledged, written by the
 * controller (admission and acknowledgement), read by the lane's driver, which asks for a pause
 * at the ceiling and a resume below the low watermark.
 *
 * <p>Thread-safety: one writer (the controller), readers anywhere.
 */
final class PendingCeilingGate {
  final int lane;
  final int ceiling;
  final int resumeBelow;
  private volatile long pending;
  /** Driver-owned: whether the driver asked for a pause that was not yet lifted. */
  boolean pauseRequested;

  PendingCeilingGate(int lane, int ceiling, int resumeBelow) {
    this.lane = lane;
    this.ceiling = ceiling;
    this.resumeBelow = resumeBelow;
  }

  long pending() {
    return pending;
  }

  /** Controller only. */
  void set(long value) {
    pending = value;
  }
}
