package io.dataflow.pipeline.internal;

import java.util.Set;

/**
 * A revocation that completes before the call returns, for a source whose rebalance must not
 * finish before the revoked partitions were committed (Kafka's {@code onPartitionsRevoked}).
 * The pipeline's controller implements it; the {@code PartitionedSource.Rebalance} a source is
 * opened with is one when the pipeline runs on its own threads.
 *
 * <p>Thread-safety: the controller thread only, from inside {@code PartitionedSource.poll}.
 */
public interface SynchronousRevocation {
  /**
   * Revokes {@code partitions} like {@code Rebalance.revoked}, then runs the controller's
   * event, acknowledgement, commit and revocation steps (parking on the clock while idle)
   * until the lanes were stopped, their outputs acknowledged and their checkpoints committed,
   * or the close timeout passed (then only the acknowledged prefix is committed, with a
   * warning). Records are neither polled nor handed over meanwhile.
   *
   * @return true when every revoked lane was acknowledged and committed in time
   */
  boolean revokeAndAwait(Set<Integer> partitions);
}
