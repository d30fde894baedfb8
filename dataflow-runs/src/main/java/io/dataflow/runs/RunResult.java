package io.dataflow.runs;

import io.dataflow.io.OutputRow;
import java.util.List;

/**
 * What {@link DurableRuns#start} returns.
 *
 * @param run the run as the ledger holds it after the call
 * @param replayed true when the idempotency key named an existing run and this call ran
 *     nothing new (the run may still be running elsewhere, or be unresolved)
 * @param rows the rows this call computed (ephemeral: never stored in atomic mode); empty for a
 *     replay
 */
public record RunResult(RunRecord run, boolean replayed, List<OutputRow> rows) {
  /** Copies the rows. */
  public RunResult {
    rows = List.copyOf(rows);
  }
}
