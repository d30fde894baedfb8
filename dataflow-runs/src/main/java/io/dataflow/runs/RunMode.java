package io.dataflow.runs;

/**
 * How a durable run ends (docs/durable-runs.md#modes).
 *
 * <ul>
 *   <li>{@link #ATOMIC}: nothing leaves the run. The rows are recomputable and stay ephemeral;
 *       the terminal projection (status, row count, output digest) and the verified recovery
 *       checkpoint commit in one ledger transaction, so a crash at any point before it is
 *       retried safely under the next attempt.
 *   <li>{@link #FORWARD_RECOVERY}: the bounded result is published to a
 *       {@link PublicationTarget}. Before dispatch the ledger records the result and its digests;
 *       once dispatch may have started (the run's first durable mutation) the run is never
 *       retried automatically: without a conclusive response it becomes
 *       {@link RunStatus#OUTCOME_UNKNOWN} for an operator to resolve.
 * </ul>
 */
public enum RunMode {
  /** No publication: the terminal projection and the checkpoint commit together. */
  ATOMIC,
  /** Publication to a target, recovered forward from the ledger, never repeated. */
  FORWARD_RECOVERY
}
