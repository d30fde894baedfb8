package io.dataflow.io;

import io.dataflow.core.spi.ControlRequest;
import io.dataflow.core.spi.Source;
import io.dataflow.core.spi.SourceContext;
import io.dataflow.core.Tick;
import io.dataflow.core.TickBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A pull-style source over ticks and control items held in memory: the owner loop polls it and
 * it offers a bounded number of batches per poll, then completes. Handy in tests and for
 * replaying recorded input.
 *
 * <p>Thread-safety: owner thread only.
 */
public final class InMemorySource implements Source {
  private static final int BATCHES_PER_POLL = 64;
  private final String name;
  private final List<Object> items;
  private final int batchSize;
  private SourceContext context;
  private int next;
  private boolean completed;
  private Object held;

  private InMemorySource(String name, List<Object> items, int batchSize) {
    this.name = Objects.requireNonNull(name, "name");
    this.items = items;
    this.batchSize = batchSize;
  }

  /** A source delivering {@code ticks} in batches of up to {@code batchSize}. */
  public static InMemorySource ofTicks(String name, List<Tick> ticks, int batchSize) {
    if (batchSize < 1) {
      throw new IllegalArgumentException("batchSize must be at least 1: " + batchSize);
    }
    return new InMemorySource(name, new ArrayList<>(ticks), batchSize);
  }

  /** A source delivering rows (name to value maps) as ticks, one per batch. */
  public static InMemorySource ofRows(String name, List<Map<String, io.dataflow.core.Value>> rows) {
    List<Object> items = new ArrayList<>();
    for (Map<String, io.dataflow.core.Value> r : rows) {
      items.add(Tick.of(r));
    }
    return new InMemorySource(name, items, 1);
  }

  /**
   * A source delivering ticks and control items in the given order ({@link Tick} or
   * {@link ControlRequest} elements).
   */
  public static InMemorySource ofItems(String name, List<?> items) {
    for (Object o : items) {
      if (!(o instanceof Tick) && !(o instanceof ControlRequest)) {
        throw new IllegalArgumentException("not a Tick or ControlRequest: " + o);
      }
    }
    return new InMemorySource(name, new ArrayList<>(items), 1);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void resumeAfter(long items) {
    if (items < 0 || items > this.items.size()) {
      throw new IllegalArgumentException("source '" + name + "' has " + this.items.size()
          + " items; cannot resume after " + items);
    }
    next = (int) items; // an item is one element: a tick or a control item
  }

  @Override
  public void open(SourceContext ctx) {
    this.context = ctx;
  }

  @Override
  public int poll(long nowNanos) {
    if (completed) {
      return 0;
    }
    int work = 0;
    while (!completed && work < BATCHES_PER_POLL) {
      if (held == null) {
        held = nextItem();
      }
      if (!PullDelivery.offer(context, held)) {
        return work; // the queue is full: try again on the next poll
      }
      completed = PullDelivery.isLast(held);
      held = null;
      work++;
    }
    return work;
  }

  private Object nextItem() {
    if (next >= items.size()) {
      return PullDelivery.END;
    }
    if (items.get(next) instanceof ControlRequest c) {
      next++;
      return c;
    }
    List<Tick> batch = new ArrayList<>(batchSize);
    while (next < items.size() && batch.size() < batchSize && items.get(next) instanceof Tick t) {
      batch.add(t);
      next++;
    }
    return TickBatch.of(batch);
  }

  @Override
  public void close() {
    completed = true;
  }
}
