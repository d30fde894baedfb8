package io.dataflow.reconfig.internal;

import io.dataflow.monitor.TransferMapping;
import io.dataflow.reconfig.ReconfigurationAck;

/** What happens to the monitor (docs/reconfiguration.md#plan). */
public sealed interface MonitorReconfigurationPlan {
  /** The same definition key: nothing is rebuilt, all state stays. */
  record RetainExact() implements MonitorReconfigurationPlan {}

  /**
   * A fresh monitor, no state moves.
   *
   * @param reason why (context transfer disabled, or the active monitor failed)
   */
  record InstallCold(String reason) implements MonitorReconfigurationPlan {}

  /**
   * A new monitor that takes over the state the mapping says.
   *
   * @param mapping the validated semantic mapping
   */
  record Transfer(TransferMapping mapping) implements MonitorReconfigurationPlan {}

  /** The plan as the acknowledgement names it. */
  default ReconfigurationAck.Plan kind() {
    if (this instanceof RetainExact) {
      return ReconfigurationAck.Plan.RETAIN_EXACT;
    }
    return this instanceof Transfer ? ReconfigurationAck.Plan.TRANSFER
        : ReconfigurationAck.Plan.INSTALL_COLD;
  }
}
