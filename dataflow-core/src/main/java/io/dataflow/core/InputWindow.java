package io.dataflow.core;

import java.time.Duration;
import java.util.Objects;

/**
 * How the runtime groups arriving ticks before evaluating them, driven by the clock.
 *
 * <ul>
 *   <li>{@link #none()}: every tick is evaluated as it arrives (the default).
 *   <li>{@link #batch(int, Duration)}: whole ticks accumulate and are evaluated together when
 *       {@code maxTicks} are pending or {@code maxDelay} has passed since the first one. Ticks
 *       are never merged.
 *   <li>{@link #atomicStep(Duration)}: everything that arrives within {@code maxDelay} of the
 *       first update is reduced to one tick (per name, the last update wins). This is the one
 *       policy that merges ticks; choose it only when arrival boundaries carry no meaning.
 * </ul>
 * A control item flushes the pending window first.
 *
 * @param kind the policy
 * @param maxTicks size trigger for {@code BATCH}
 * @param maxDelay time trigger for {@code BATCH} and {@code ATOMIC_STEP}
 */
public record InputWindow(Kind kind, int maxTicks, Duration maxDelay) {
  /** The window policies. */
  public enum Kind {
    /** No window. */
    NONE,
    /** Accumulate whole ticks. */
    BATCH,
    /** Reduce a window to one tick. */
    ATOMIC_STEP
  }

  private static final InputWindow NONE = new InputWindow(Kind.NONE, 1, Duration.ZERO);

  /** Validates the window. */
  public InputWindow {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(maxDelay, "maxDelay");
    if (maxTicks < 1) {
      throw new IllegalArgumentException("maxTicks must be at least 1: " + maxTicks);
    }
    if (maxDelay.isNegative()) {
      throw new IllegalArgumentException("maxDelay must not be negative: " + maxDelay);
    }
  }

  /** No window: evaluate each tick as it arrives. */
  public static InputWindow none() {
    return NONE;
  }

  /** Accumulate up to {@code maxTicks} whole ticks or {@code maxDelay}, whichever first. */
  public static InputWindow batch(int maxTicks, Duration maxDelay) {
    return new InputWindow(Kind.BATCH, maxTicks, maxDelay);
  }

  /** Reduce everything arriving within {@code maxDelay} to one tick, last update wins. */
  public static InputWindow atomicStep(Duration maxDelay) {
    return new InputWindow(Kind.ATOMIC_STEP, Integer.MAX_VALUE, maxDelay);
  }
}
