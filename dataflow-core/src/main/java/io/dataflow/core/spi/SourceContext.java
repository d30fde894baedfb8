package io.dataflow.core.spi;

import java.util.concurrent.ThreadFactory;
import io.dataflow.core.IngressException;
import io.dataflow.core.TickBatch;
import io.dataflow.core.Clock;

/**
 * How a {@link Source} delivers into the runtime's ingress queue. Items keep their order per
 * source; data, control items, the end and a failure are all ordered.
 *
 * <p>Nothing is dropped silently: {@link #offer} returns false when the queue is full (and the
 * runtime counts it); {@link #submit} waits until there is room or the deadline passes.
 *
 * <p>A pull source runs on the owner thread, the only thread that drains the queue, so it must
 * never wait for room: it uses the methods that do not wait ({@link #offer},
 * {@link #offerControl}, {@link #tryComplete}, {@link #tryFail}), keeps an item that did not
 * fit and delivers it again on its next poll. A waiting method called on the owner thread with
 * a full queue throws {@link IngressException} at once instead of waiting for itself.
 *
 * <p>Thread-safety: safe from any thread.
 */
public interface SourceContext {
  /** The name of the source this context belongs to. */
  String sourceName();

  /** The runtime's clock. */
  Clock clock();

  /** Creates the threads of push-style sources (named, daemon). */
  ThreadFactory threadFactory();

  /** Offers a batch; false when the queue is full or closed. */
  boolean offer(TickBatch batch);

  /**
   * Submits a batch, waiting for room until {@code deadlineNanos} on the clock.
   *
   * @throws IngressException when the deadline passes or the ingress closed
   */
  void submit(TickBatch batch, long deadlineNanos);

  /** Submits a control item, waiting for room until the deadline. */
  void submitControl(ControlRequest request, long deadlineNanos);

  /**
   * Offers a control item without waiting; false when the queue is full or closed (a pull
   * source keeps it and offers it again on its next poll).
   */
  boolean offerControl(ControlRequest request);

  /**
   * Signals the end of this source's input without waiting; false when the queue is full (try
   * again on the next poll). True as well when the run is over and nobody reads it any more.
   */
  boolean tryComplete();

  /**
   * Reports this source's failure without waiting; false when the queue is full (try again on
   * the next poll). True as well when the run is over and nobody reads it any more.
   */
  boolean tryFail(Throwable error);

  /** Signals that this source has no more input. */
  void complete();

  /** Signals that this source failed; the run fails with this error. */
  void fail(Throwable error);

  /** True once the runtime stopped accepting input: a source should stop producing. */
  boolean isClosed();
}
