package io.dataflow.core;

/**
 * How far a monitor has been reconfigured.
 *
 * @param root the number of accepted root reconfiguration requests (RetainExact included);
 *     this is the {@code monitor_revision} of an acknowledgement
 * @param properties the number of dynamic-property bodies installed inside the running
 *     monitor ({@code dynamic}/{@code defer} receiving a new text)
 */
public record MonitorRevision(long root, long properties) {
  /** The revision of a monitor that was never reconfigured. */
  public static final MonitorRevision INITIAL = new MonitorRevision(0, 0);

  /** This revision with the root counter advanced by one. */
  public MonitorRevision nextRoot() {
    return new MonitorRevision(root + 1, properties);
  }
}
