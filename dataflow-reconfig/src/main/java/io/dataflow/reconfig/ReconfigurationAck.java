package io.dataflow.reconfig;

import io.dataflow.core.MonitorRevision;

/**
 * The acknowledgement of a reconfiguration request, delivered after every step of the cutover
 * was applied and before any tick admitted after the request is evaluated. It carries both
 * revisions and both change flags; the detailed report of what state moved goes to
 * {@link ReconfigurableDataflowRuntimeBuilder#transferReports}.
 *
 * @param accepted false when the request was rejected and the runtime kept running (only with
 *     {@link RejectPolicy#KEEP_RUNNING})
 * @param monitorRevision the monitor revision after the request (the same type as
 *     {@link io.dataflow.core.ExitReport#monitorRevision()})
 * @param interfaceRevision the interface revision after the request
 * @param monitorChanged the definition key changed
 * @param interfaceChanged the interface revision advanced
 * @param plan {@code RetainExact}, {@code Transfer} or {@code InstallCold} (null if rejected)
 * @param effectiveTick the first tick the new configuration evaluates
 * @param reason why the request was rejected, or null
 * @param origin where the request came from
 */
public record ReconfigurationAck(boolean accepted, MonitorRevision monitorRevision,
    long interfaceRevision, boolean monitorChanged, boolean interfaceChanged, Plan plan,
    long effectiveTick, String reason, String origin) {

  /** What happened to the monitor (docs/reconfiguration.md#plan). */
  public enum Plan {
    /** The same definition key: the monitor and all its state stay. */
    RETAIN_EXACT("RetainExact"),
    /** A new monitor that took over the state of the streams that match. */
    TRANSFER("Transfer"),
    /** A fresh monitor; no state moved. */
    INSTALL_COLD("InstallCold");

    private final String label;

    Plan(String label) {
      this.label = label;
    }

    /** The name the documentation and the logs use ({@code Transfer}, ...). */
    @Override
    public String toString() {
      return label;
    }
  }

  /** The CLI's one-line rendering. */
  public String toLine() {
    if (!accepted) {
      return "ack rejected monitor_revision=" + monitorRevision.root() + " interface_revision="
          + interfaceRevision + " reason=" + reason;
    }
    return "ack monitor_revision=" + monitorRevision.root() + " interface_revision="
        + interfaceRevision
        + " monitor_changed=" + monitorChanged + " interface_changed=" + interfaceChanged;
  }
}
