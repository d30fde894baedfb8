package io.dataflow.core;

/**
 * When the engine flushes output. Output ticks are never merged or reordered by either policy;
 * the policy only decides when buffered rows are pushed to their destinations.
 *
 * @param flushEvery flush after this many ticks (1 = after every tick)
 */
public record ExecutionPolicy(int flushEvery) {
  /** Flush after every tick: lowest latency. */
  public static final ExecutionPolicy SYNCHRONOUS = new ExecutionPolicy(1);
  /** Flush every 256 ticks and at the end of input: highest throughput. */
  public static final ExecutionPolicy BUFFERED = new ExecutionPolicy(256);

  /** Validates the policy. */
  public ExecutionPolicy {
    if (flushEvery < 1) {
      throw new IllegalArgumentException("flushEvery must be at least 1: " + flushEvery);
    }
  }

  /** Flush every {@code ticks} ticks and at the end of input. */
  public static ExecutionPolicy buffered(int ticks) {
    return new ExecutionPolicy(ticks);
  }

  @Override
  public String toString() {
    return flushEvery == 1 ? "Synchronous" : "Buffered(" + flushEvery + ")";
  }
}
