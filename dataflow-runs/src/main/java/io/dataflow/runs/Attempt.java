package io.dataflow.runs;

import java.time.Instant;

/**
 * One fenced attempt of a run, as the ledger holds it.
 *
 * @param number the attempt number, from 1: its fencing token
 * @param status its state
 * @param startedAt when it began (on the {@code Clock})
 * @param leaseExpiresAt when its lease expires (renewed by each of its writes)
 * @param endedAt when it was closed, or null while running
 * @param note why it was closed (a failure, a recovery, ...), or null
 */
public record Attempt(int number, AttemptStatus status, Instant startedAt, Instant leaseExpiresAt,
    Instant endedAt, String note) {
  /** True when the lease has expired at {@code now} and the attempt is still running. */
  public boolean expiredAt(Instant now) {
    return status == AttemptStatus.RUNNING && !now.isBefore(leaseExpiresAt);
  }
}
