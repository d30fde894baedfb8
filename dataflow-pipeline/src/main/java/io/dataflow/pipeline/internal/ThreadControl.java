package io.dataflow.pipeline.internal;

import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.TransferMapping;
import io.dataflow.pipeline.spi.LaneCheckpoint;
import java.util.Set;

/**
 * What the controller tells a driver, on the driver's unbounded control queue (sending never
 * blocks the controller's poll loop). A message with a {@code position} takes effect once the
 * driver has taken exactly that many chunks from its data queue: the same point of every lane,
 * after every record the controller had handed over when it sent the message.
 */
sealed interface ThreadControl {
  /** The driver's data-queue position at which this takes effect (0: at once). */
  long position();

  /**
   * The driver now owns {@code lane}: its keys' state starts from {@code restored} (null: no
   * checkpoint, every key starts fresh).
   */
  record AddLane(int lane, PendingCeilingGate gate, LaneCheckpoint restored, long position)
      implements ThreadControl {}

  /**
   * Revocation: evaluate what was handed over, flush, checkpoint the lanes' state, arrive at
   * the barrier once per lane; then take no more of their records.
   */
  record StopLanes(Set<Integer> lanes, Barrier barrier, long deadline, long position)
      implements ThreadControl {}

  /** The end of these lanes' input: send the partial batch now, without the idle flush. */
  record FlushNow(Set<Integer> lanes, long position) implements ThreadControl {}

  /** Forget these lanes (delivered, acknowledged and committed): bookkeeping only. */
  record DropLanes(Set<Integer> lanes, long position) implements ThreadControl {}

  /** Checkpoint every lane's state here (epoch {@code epoch}); no flush needed. */
  record CheckpointLanes(long epoch, long position) implements ThreadControl {}

  /**
   * Stop: evaluate what was handed over (unless {@code abort}: a fatal error or a cancel), flush,
   * checkpoint every lane (unless aborting), arrive at the barrier, finish.
   */
  record Shutdown(Barrier barrier, long deadline, boolean abort, long position)
      implements ThreadControl {}

  /**
   * Move every key of every lane to {@code target} ({@code mapping} null: cold), then arrive
   * at the barrier with the lanes and keys moved.
   */
  record Reconfigure(DataflowProgram target, TransferMapping mapping, Barrier barrier,
      long position) implements ThreadControl {}
}
