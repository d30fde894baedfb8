package io.dataflow.reconfig;

/** What happens when a request is rejected or fails to plan. */
public enum RejectPolicy {
  /**
   * The run ends after every earlier row was emitted; nothing after the request is evaluated
   * (the default; docs/reconfiguration.md#plan).
   */
  END_RUN,
  /**
   * The request is acknowledged as rejected and the runtime keeps running the active
   * configuration. Planning is resource-free, so a rejected request has changed nothing.
   */
  KEEP_RUNNING
}
