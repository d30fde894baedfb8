package io.dataflow.core;

/**
 * When the engine flushes output. Output ticks are never merged or reordered by either policy;
 * the policy only decides when buffered rows are pushed to their destinations.
 *
 * @param flushEvery flush after this many ticks (1 = after every tick)
 * @param flushEachDelivery also flush after the last tick of every delivered batch that no
 *     other input is queued behind (else after the last of that input): an interactive source
 *     that delivers what it has read before it waits for more sees each output as soon as its
 *     input was evaluated, while a busy one is flushed in blocks
 */
public record ExecutionPolicy(int flushEvery, boolean flushEachDelivery) {
  /** Flush after every tick: lowest latency. */
  public static final ExecutionPolicy SYNCHRONOUS = new ExecutionPolicy(1);
  /** Flush every 256 ticks and at the end of input: highest throughput. */
  public static final ExecutionPolicy BUFFERED = new ExecutionPolicy(256);
  /**
   * Flush every 256 ticks and after each delivered batch: as prompt as {@link #SYNCHRONOUS} for
   * a source that delivers what it read before it waits (a user typing, a pipe that pauses),
   * and nearly as fast as {@link #BUFFERED} for one that is busy.
   */
  public static final ExecutionPolicy INTERACTIVE = new ExecutionPolicy(256, true);

  /** Validates the policy. */
  public ExecutionPolicy {
    if (flushEvery < 1) {
      throw new IllegalArgumentException("flushEvery must be at least 1: " + flushEvery);
    }
  }

  /** Flush after every {@code flushEvery} ticks (and at the end of input). */
  public ExecutionPolicy(int flushEvery) {
    this(flushEvery, false);
  }

  /** Flush every {@code ticks} ticks and at the end of input. */
  public static ExecutionPolicy buffered(int ticks) {
    return new ExecutionPolicy(ticks);
  }

  @Override
  public String toString() {
    return flushEachDelivery ? "Interactive(" + flushEvery + ")"
        : flushEvery == 1 ? "Synchronous" : "Buffered(" + flushEvery + ")";
  }
}
