package io.dataflow.core;

import java.util.concurrent.ThreadFactory;

/**
 * How a {@link Source} delivers into the runtime's ingress queue. Items keep their order per
 * source; data, control items, the end and a failure are all ordered.
 *
 * <p>Nothing is dropped silently: {@link #offer} returns false when the queue is full (and the
 * runtime counts it); {@link #submit} waits until there is room or the deadline passes.
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

  /** Signals that this source has no more input. */
  void complete();

  /** Signals that this source failed; the run fails with this error. */
  void fail(Throwable error);

  /** True once the runtime stopped accepting input: a source should stop producing. */
  boolean isClosed();
}
