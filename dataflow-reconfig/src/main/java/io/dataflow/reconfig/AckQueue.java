package io.dataflow.reconfig;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A bounded in-process {@link ReconfigurationAckSink} that other threads read. A full queue or
 * a closed queue fails the delivery (and with it the run): an acknowledgement is never dropped
 * silently.
 *
 * <p>Thread-safety: safe from any thread.
 */
public final class AckQueue implements ReconfigurationAckSink {
  private final BlockingQueue<ReconfigurationAck> queue;
  private volatile boolean closed;

  /**
   * A queue holding up to {@code capacity} undelivered acknowledgements.
   *
   * <p>When it is full (nobody reads it fast enough) or closed, {@link #deliver} throws, and the
   * runtime ends the run with a {@code control} failure after draining its output. This is
   * deliberate: the acknowledgement is the last step of the root cutover, and the cutover's rule
   * is that a step failing after the input was rebound ends the run (no rollback); a cutover
   * whose requester was never told would otherwise look like a success. Everything before the
   * acknowledgement stays applied, and the candidate's ticks are not evaluated. Size the queue
   * for the requests a reader may leave unread, or read it from another thread.
   *
   * @param capacity the number of undelivered acknowledgements it holds (at least 1)
   */
  public AckQueue(int capacity) {
    this.queue = new ArrayBlockingQueue<>(capacity);
  }

  @Override
  public void deliver(ReconfigurationAck ack) {
    if (closed) {
      throw new IllegalStateException("the acknowledgement queue is closed");
    }
    if (!queue.offer(ack)) {
      throw new IllegalStateException("the acknowledgement queue is full ("
          + (queue.size() + queue.remainingCapacity()) + ")");
    }
  }

  /** The next acknowledgement, or null if none. */
  public ReconfigurationAck poll() {
    return queue.poll();
  }

  /** Waits (bounded) for the next acknowledgement; null on timeout. */
  public ReconfigurationAck poll(Duration timeout) throws InterruptedException {
    return queue.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  /** Closes the queue: further deliveries fail (and fail their run). */
  public void close() {
    closed = true;
  }
}
