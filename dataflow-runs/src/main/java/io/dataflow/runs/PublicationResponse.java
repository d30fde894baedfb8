package io.dataflow.runs;

import java.util.Objects;

/**
 * A target's conclusive response to a dispatch: where the publication is. It commits with the
 * run's {@link RunStatus#SUCCEEDED} state and its verified checkpoint, in one transaction. None
 * of the references may carry a credential (they are recorded in the ledger).
 *
 * @param publication the publication itself (a marker file, a table row's key, ...)
 * @param datasource where it was published (a directory, a database and table, without
 *     credentials)
 * @param materialization what holds the rows (a file, a table row, ...)
 */
public record PublicationResponse(String publication, String datasource, String materialization) {
  /** Checks that every reference is given. */
  public PublicationResponse {
    Objects.requireNonNull(publication, "publication");
    Objects.requireNonNull(datasource, "datasource");
    Objects.requireNonNull(materialization, "materialization");
  }
}
