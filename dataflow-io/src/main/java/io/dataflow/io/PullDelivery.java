package io.dataflow.io;

import io.dataflow.core.spi.ControlRequest;
import io.dataflow.core.spi.SourceContext;
import io.dataflow.core.TickBatch;

/**
 * How a pull source hands one item to the ingress queue from the owner thread: never waiting
 * (the owner is the only thread that drains the queue), so an item that does not fit stays
 * with the source, which offers it again on its next poll.
 */
final class PullDelivery {
  /** The item that ends a source's input. */
  static final Object END = new Object();

  private PullDelivery() {}

  /**
   * Offers a {@link TickBatch}, a {@link ControlRequest}, {@link #END} or a {@link Throwable}
   * (the source's failure); false when the queue had no room.
   */
  static boolean offer(SourceContext context, Object item) {
    if (item instanceof TickBatch b) {
      return context.offer(b);
    }
    if (item instanceof ControlRequest c) {
      return context.offerControl(c);
    }
    if (item == END) {
      return context.tryComplete();
    }
    return context.tryFail((Throwable) item);
  }

  /** Whether the item is the source's last one (its end or its failure). */
  static boolean isLast(Object item) {
    return item == END || item instanceof Throwable;
  }
}
