package io.dataflow.core.internal;

/**
 * The idle strategy of an owner thread that runs its loop (Agrona's backoff idle strategy): after
 * a cycle without work it spins a little, then yields, and only then parks on the clock
 * ({@link Ingress#parkOwner}). A producer that keeps the owner busy therefore never has to
 * unpark it: the owner finds the next item while it spins, and producers unpark only an owner
 * that is really parked. Parking is what waits for time; the spins and yields bound how much CPU
 * an idle owner burns before that (a few microseconds).
 *
 * <p>Thread-safety: owner thread only.
 */
final class OwnerIdle {
  /** Idle cycles spent spinning before the first yield. */
  static final int SPINS = 64;
  /** Idle cycles spent yielding before the owner parks. */
  static final int YIELDS = 8;

  private int idleCycles; // owner thread only

  /** Work was done: the next idle cycle starts spinning again. */
  void reset() {
    idleCycles = 0;
  }

  /**
   * One idle cycle: spin, yield or park until {@code deadlineNanos} (on the runtime's clock) or
   * until a producer admits an item.
   */
  void idle(Ingress ingress, long deadlineNanos) {
    int n = idleCycles;
    if (n < SPINS) {
      idleCycles = n + 1;
      Thread.onSpinWait();
    } else if (n < SPINS + YIELDS) {
      idleCycles = n + 1;
      Thread.yield();
    } else {
      ingress.parkOwner(deadlineNanos);
    }
  }
}
