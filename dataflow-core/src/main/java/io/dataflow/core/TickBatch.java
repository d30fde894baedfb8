package io.dataflow.core;

import java.util.List;

/**
 * A delivery unit of one or more logical ticks, in order. Batch boundaries never change
 * logical time: a batch of three ticks is evaluated as three ticks.
 *
 * <p>Thread-safety: immutable.
 */
public final class TickBatch {
  private final List<Tick> ticks;

  private TickBatch(List<Tick> ticks) {
    this.ticks = ticks;
  }

  /** A batch of the given ticks. */
  public static TickBatch of(Tick... ticks) {
    return new TickBatch(List.of(ticks));
  }

  /** A batch of the given ticks (copied). */
  public static TickBatch of(List<Tick> ticks) {
    return new TickBatch(List.copyOf(ticks));
  }

  /** The ticks, in order. */
  public List<Tick> ticks() {
    return ticks;
  }

  /** The number of ticks. */
  public int size() {
    return ticks.size();
  }

  @Override
  public String toString() {
    return "TickBatch" + ticks;
  }
}
