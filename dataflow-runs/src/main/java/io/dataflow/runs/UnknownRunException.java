package io.dataflow.runs;

/** No run with the given id is in the ledger. */
public class UnknownRunException extends RunException {
  private static final long serialVersionUID = 1L;

  /** The run {@code runId} is not in the ledger. */
  public UnknownRunException(String runId) {
    super("no run '" + runId + "' in the ledger");
  }
}
