package io.dataflow.reconfig.internal;

import io.dataflow.core.DataflowException;
import io.dataflow.core.FatalReason;
import io.dataflow.reconfig.CutoverStep;
import java.util.List;

/**
 * A reconfiguration failed part-way through its application. There is no rollback: the steps
 * completed before the failing one stay applied, so the fatal reason names them.
 */
public final class CutoverFailedException extends DataflowException
    implements FatalReason.Explained {
  private static final long serialVersionUID = 1L;
  private final String origin;
  private final List<CutoverStep> applied;

  /** The cutover of the request from {@code origin} failed after the {@code applied} steps. */
  public CutoverFailedException(String origin, List<CutoverStep> applied, Throwable cause) {
    super(DataflowException.describe(cause), cause);
    this.origin = origin;
    this.applied = List.copyOf(applied);
  }

  /** The steps that completed and stay applied, in order. */
  public List<CutoverStep> applied() {
    return applied;
  }

  @Override
  public FatalReason fatalReason(String component) {
    String steps = applied.isEmpty() ? "no step had completed"
        : "the steps " + applied + " stay applied";
    return new FatalReason(FatalReason.Kind.CUTOVER, component, getMessage(),
        "The reconfiguration from " + origin + " failed part-way and was not acknowledged; "
            + steps + ". The checkpoint taken before the request stays resumable: restart from it"
            + " to run the previous configuration, then send the request again.", true);
  }
}
