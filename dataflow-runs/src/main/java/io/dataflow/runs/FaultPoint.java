package io.dataflow.runs;

import java.util.Arrays;
import java.util.Optional;

/**
 * A named point in an attempt where a crash tells something apart, in the order an attempt
 * passes them. {@link #id()} is the name used by {@code DATAFLOW_FAULT=<id>}.
 *
 * <p>What a crash at each point leaves (docs/durable-runs.md#crash-rules):
 *
 * <ul>
 *   <li>{@link #AFTER_LEDGER_BEGIN}, {@link #AFTER_EVALUATION}, {@link #BEFORE_CHECKPOINT_COMMIT},
 *       {@link #BEFORE_DISPATCH}: no durable mutation happened; once the lease expires the
 *       attempt is closed as {@link AttemptStatus#RECOVERED} and the run is retried under a new
 *       attempt (in atomic mode every point up to {@link #BEFORE_SUCCESS_COMMIT} is like this).
 *   <li>{@link #DISPATCH_STARTED}, {@link #AFTER_DISPATCH}, {@link #BEFORE_SUCCESS_COMMIT}
 *       (forward recovery): the durable-mutation mark is committed; once the lease expires the
 *       run becomes {@link RunStatus#OUTCOME_UNKNOWN} and is never retried automatically.
 *   <li>{@link #AFTER_SUCCESS_COMMIT}: the run succeeded; a replay returns it.
 * </ul>
 */
public enum FaultPoint {
  /** The run and its attempt (with the lease) are committed; nothing evaluated yet. */
  AFTER_LEDGER_BEGIN("after-ledger-begin"),
  /** The rows are computed, in memory only; nothing more committed. */
  AFTER_EVALUATION("after-evaluation"),
  /**
   * Forward recovery: before the transaction that records the bounded result and its digests
   * ahead of dispatch. Atomic mode has no such transaction and does not pass this point.
   */
  BEFORE_CHECKPOINT_COMMIT("before-checkpoint-commit"),
  /**
   * Forward recovery: the bounded result is committed; the durable-mutation mark is not. A crash
   * here is proven absent: the target was never called.
   */
  BEFORE_DISPATCH("before-dispatch"),
  /**
   * Forward recovery: the durable-mutation mark (dispatch started) is committed; the target has
   * not been called yet, but the ledger can no longer tell, so the run is not retried.
   */
  DISPATCH_STARTED("dispatch-started"),
  /** Forward recovery: the target answered conclusively; nothing of the answer is committed. */
  AFTER_DISPATCH("after-dispatch"),
  /**
   * Before the transaction that verifies the evidence chain and commits the success projection
   * (both modes).
   */
  BEFORE_SUCCESS_COMMIT("before-success-commit"),
  /** The success projection is committed; the attempt only has to return. */
  AFTER_SUCCESS_COMMIT("after-success-commit");

  private final String id;

  FaultPoint(String id) {
    this.id = id;
  }

  /** The point's name: {@code before-dispatch}, ... */
  public String id() {
    return id;
  }

  /** The point named {@code id}, if there is one. */
  public static Optional<FaultPoint> byId(String id) {
    return Arrays.stream(values()).filter(p -> p.id.equals(id)).findFirst();
  }

  @Override
  public String toString() {
    return id;
  }
}
