package io.dataflow.core;

/**
 * One consistent view of a runtime, published by the owner thread: every field describes the
 * same moment.
 *
 * @param state the lifecycle state
 * @param ticksIn ticks evaluated
 * @param ticksOut tick rows written
 * @param queueDepth items waiting in the ingress queue
 * @param rejectedOffers offers refused because the queue was full
 * @param lastError the first fatal error's message, or null
 * @param monitorRevision the monitor revision
 * @param interfaceRevision the interface revision
 * @param atNanos the runtime clock's reading when this status was published
 * @param lastCheckpointNanos the clock's reading when the newest checkpoint was written, or -1
 *     when none was
 */
public record RuntimeStatus(RuntimeState state, long ticksIn, long ticksOut, int queueDepth,
    long rejectedOffers, String lastError, MonitorRevision monitorRevision,
    long interfaceRevision, long atNanos, long lastCheckpointNanos) {

  /**
   * The periodic status line: every field from this one status, rates against {@code earlier}
   * (an earlier status of the same runtime, or null for none):
   * {@code status state=RUNNING ticks_in=1200 (240/s) ticks_out=1200 (240/s) queue=0
   * rejected=0 monitor_revision=1 interface_revision=0}.
   */
  public String line(RuntimeStatus earlier) {
    StringBuilder sb = new StringBuilder("status state=").append(state)
        .append(" ticks_in=").append(ticksIn);
    rate(sb, earlier == null ? -1 : ticksIn - earlier.ticksIn, earlier);
    sb.append(" ticks_out=").append(ticksOut);
    rate(sb, earlier == null ? -1 : ticksOut - earlier.ticksOut, earlier);
    sb.append(" queue=").append(queueDepth).append(" rejected=").append(rejectedOffers)
        .append(" monitor_revision=").append(monitorRevision.root())
        .append(" interface_revision=").append(interfaceRevision);
    if (lastCheckpointNanos >= 0) {
      sb.append(" last_checkpoint=")
          .append(Math.max(0, (atNanos - lastCheckpointNanos) / 1_000_000)).append("ms_ago");
    }
    if (lastError != null) {
      sb.append(" error=").append(lastError);
    }
    return sb.toString();
  }

  private void rate(StringBuilder sb, long delta, RuntimeStatus earlier) {
    long nanos = earlier == null ? 0 : atNanos - earlier.atNanos;
    if (delta >= 0 && nanos > 0) {
      sb.append(" (").append(Math.round(delta * 1e9 / nanos)).append("/s)");
    }
  }
}
