package io.dataflow.reconfig;

/** The application steps of a root cutover, in their fixed order. */
public enum CutoverStep {
  /** Detach removed sources, open added ones, apply input ownership. */
  REBIND_INPUT,
  /** Flush the engine's pending output rows. */
  FLUSH_ENGINE,
  /** Flush affected destinations, remove, add and re-route destinations. */
  REBIND_OUTPUT,
  /** RetainExact, InstallCold or Transfer. */
  APPLY_MONITOR,
  /** Commit the input and output session revisions and the interface revision. */
  COMMIT_REVISIONS,
  /** Rebuild the engine's row layouts for the new monitor. */
  REBUILD_LAYOUTS,
  /** Deliver the acknowledgement. */
  ACKNOWLEDGE
}
