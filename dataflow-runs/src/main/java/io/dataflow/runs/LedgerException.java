package io.dataflow.runs;

/**
 * The ledger could not be opened, migrated, read or written (the database is unreachable, the
 * URL is wrong, a transaction failed). The message names the ledger without its credentials.
 */
public class LedgerException extends RunException {
  private static final long serialVersionUID = 1L;

  /** A ledger error with its cause (usually a {@link java.sql.SQLException}). */
  public LedgerException(String message, Throwable cause) {
    super(message, cause);
  }

  /** A ledger error. */
  public LedgerException(String message) {
    super(message);
  }
}
