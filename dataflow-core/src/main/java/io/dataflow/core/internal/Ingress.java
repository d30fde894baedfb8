package io.dataflow.core.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.MpscArrayQueue;
import io.dataflow.core.spi.SourceContext;
import io.dataflow.core.spi.ControlRequest;
import io.dataflow.core.IngressException;
import io.dataflow.core.Tick;
import io.dataflow.core.TickBatch;
import io.dataflow.core.Clock;

/**
 * The bounded multi-producer, single-consumer queue in front of the owner loop. Data batches,
 * single ticks, control items, ends of input and source failures share it, so their order is
 * the order of admission. A full queue refuses an offer (counted, never silently dropped); a
 * blocking submit waits on the clock until a deadline, backing off between checks.
 *
 * <h2>Waking the owner</h2>
 * A producer unparks the owner thread only when the owner announced that it is about to park
 * ({@link #parkOwner}); while the owner is busy, an offer is a queue insert and one read of a
 * flag. The owner sets the flag, checks the queue again and only then parks; a producer inserts
 * and then reads the flag. Both are volatile accesses (the insert is a compare-and-set of the
 * producer index), so at least one side sees the other: the owner sees the item and does not
 * park, or the producer sees the flag and unparks it.
 *
 * <p>Thread-safety: producers on any thread; {@link #poll()} and {@link #parkOwner} on the
 * owner thread only.
 */
final class Ingress {
  /** An item in the queue. */
  sealed interface Item permits Data, Single, Control, End, Failed {
    String source();
  }

  record Data(String source, TickBatch batch) implements Item {}

  /** One tick without a batch around it: the handle's single-tick offers allocate only this. */
  record Single(String source, Tick tick) implements Item {}

  record Control(String source, ControlRequest request) implements Item {}

  record End(String source) implements Item {}

  record Failed(String source, Throwable error) implements Item {}

  private final MpscArrayQueue<Item> queue;
  private final Clock clock;
  private final AtomicLong rejected = new AtomicLong();
  private final AtomicInteger threadCount = new AtomicInteger();
  private final String runtimeName;
  private volatile boolean closed;
  private volatile boolean terminated;
  private volatile Thread owner;
  /** Set by the owner right before it parks, cleared when it runs again (see above). */
  private volatile boolean ownerParked;
  private final AtomicLong wakeups = new AtomicLong(); // unparks by producers (tests read it)

  Ingress(int capacity, Clock clock, String runtimeName) {
    this.queue = new MpscArrayQueue<>(capacity);
    this.clock = clock;
    this.runtimeName = runtimeName;
  }

  int capacity() {
    return queue.capacity();
  }

  /** The thread to wake when an item arrives (the owner thread while it runs). */
  void setOwner(Thread thread) {
    this.owner = thread;
  }

  /**
   * Offers without waiting; false when full or closed. {@code count}: a refusal is counted in
   * {@link #rejectedOffers()} (the handle's offers; a source keeps what did not fit and retries).
   */
  boolean offer(Item item, boolean count) {
    boolean lifecycle = item instanceof End || item instanceof Failed;
    if (terminated || (closed && !lifecycle)) {
      return false;
    }
    if (queue.offer(item)) {
      signal();
      return true;
    }
    if (count) {
      rejected.incrementAndGet();
    }
    return false;
  }

  /** Waits for room until {@code deadlineNanos}; lifecycle items ignore {@link #close()}. */
  void submit(Item item, long deadlineNanos) {
    boolean lifecycle = item instanceof End || item instanceof Failed;
    while (true) {
      if (terminated) {
        // The run is over and reported; nobody will read this item.
        if (lifecycle) {
          return;
        }
        throw new IngressException("the runtime has terminated", true);
      }
      if (closed && !lifecycle) {
        throw new IngressException("the runtime no longer accepts input", true);
      }
      if (queue.offer(item)) {
        signal();
        return;
      }
      if (Thread.currentThread() == owner) {
        // Only the owner drains the queue: waiting here would wait for ourselves.
        rejected.incrementAndGet();
        throw new IngressException("the ingress queue is full (capacity " + capacity()
            + ") and this is the runtime's owner thread, which cannot wait for itself to drain"
            + " it; a pull source offers without waiting and retries on its next poll", false);
      }
      long now = clock.nanoTime();
      if (now - deadlineNanos >= 0 && !lifecycle) {
        rejected.incrementAndGet();
        throw new IngressException("the ingress queue stayed full (capacity " + capacity()
            + ") until the deadline", false);
      }
      signal();
      // The deadline is on the clock; between checks back off without moving it (a producer
      // must never advance a clock that the test or the owner moves).
      clock.backOff();
    }
  }

  /** After an insert: unparks the owner if it is parked or about to park, else nothing. */
  private void signal() {
    if (ownerParked) {
      Thread t = owner;
      if (t != null) {
        wakeups.incrementAndGet();
        LockSupport.unpark(t);
      }
    }
  }

  /** How often producers unparked the owner (only ever an owner that was parked). */
  long ownerWakeups() {
    return wakeups.get();
  }

  /** True while the owner is parked or about to park in {@link #parkOwner}. */
  boolean isOwnerParked() {
    return ownerParked;
  }

  /**
   * Parks the owner thread on the clock until {@code deadlineNanos}, until a producer admits an
   * item, or until something else unparks it (a stop); returns at once when an item is already
   * queued. Owner thread only.
   */
  void parkOwner(long deadlineNanos) {
    ownerParked = true;
    try {
      if (queue.isEmpty()) {
        clock.parkUntil(deadlineNanos);
      }
    } finally {
      ownerParked = false;
    }
  }

  Item poll() {
    return queue.relaxedPoll();
  }

  boolean isEmpty() {
    return queue.isEmpty();
  }

  int size() {
    return queue.size();
  }

  long rejectedOffers() {
    return rejected.get();
  }

  /** Stops admitting data and control items; ends and failures are still admitted. */
  void close() {
    closed = true;
  }

  boolean isClosed() {
    return closed;
  }

  /** The owner loop has ended; nothing will be read any more. */
  void terminate() {
    closed = true;
    terminated = true;
  }

  /**
   * The context handed to a source, or to the runtime's handle ({@code countRefusals}: its
   * refused offers are counted and reported; a source's are retries).
   */
  SourceContext contextFor(String source, boolean countRefusals) {
    return new SourceContext() {
      @Override
      public String sourceName() {
        return source;
      }

      @Override
      public Clock clock() {
        return clock;
      }

      @Override
      public ThreadFactory threadFactory() {
        return r -> {
          Thread t = new Thread(r, runtimeName + "-source-" + source + "-"
              + threadCount.incrementAndGet());
          t.setDaemon(true);
          return t;
        };
      }

      @Override
      public boolean offer(TickBatch batch) {
        return Ingress.this.offer(new Data(source, batch), countRefusals);
      }

      @Override
      public void submit(TickBatch batch, long deadlineNanos) {
        Ingress.this.submit(new Data(source, batch), deadlineNanos);
      }

      @Override
      public void submitControl(ControlRequest request, long deadlineNanos) {
        Ingress.this.submit(new Control(source, request), deadlineNanos);
      }

      @Override
      public boolean offerControl(ControlRequest request) {
        return Ingress.this.offer(new Control(source, request), countRefusals);
      }

      @Override
      public boolean tryComplete() {
        return Ingress.this.offer(new End(source), false) || terminated;
      }

      @Override
      public boolean tryFail(Throwable error) {
        return Ingress.this.offer(new Failed(source, error), false) || terminated;
      }

      @Override
      public void complete() {
        Ingress.this.submit(new End(source), Long.MAX_VALUE);
      }

      @Override
      public void fail(Throwable error) {
        Ingress.this.submit(new Failed(source, error), Long.MAX_VALUE);
      }

      @Override
      public boolean isClosed() {
        return closed;
      }
    };
  }
}
