package io.dataflow.runs;

import io.dataflow.io.OutputRow;
import java.util.List;

/**
 * What an attempt dispatches to a {@link PublicationTarget}: the bounded result (the rows and
 * their rendering) with the digests already committed to the ledger before dispatch.
 *
 * @param runId the run
 * @param attempt the attempt dispatching it
 * @param idempotencyKey the run's stable idempotency key: a target keeps it so that a second
 *     dispatch under the same key publishes nothing new, and so that inspection finds it
 * @param publicationDigest the publication-idempotency digest (SHA-256 hex over the key and the
 *     output digest)
 * @param outputDigest the SHA-256 hex of {@link #rendered()}
 * @param sourceDigest the SHA-256 hex of the input's bytes
 * @param rows the output rows, in tick order
 * @param rendered the rows in the text output format ({@code z[0] = Int(1)}, one line per value)
 */
public record Publication(String runId, int attempt, String idempotencyKey,
    String publicationDigest, String outputDigest, String sourceDigest, List<OutputRow> rows,
    String rendered) {
  /** Copies the rows. */
  public Publication {
    rows = List.copyOf(rows);
  }

  /** The number of rows. */
  public long rowCount() {
    return rows.size();
  }
}
