package io.dataflow.runs;

/**
 * Thrown by a {@link PublicationTarget} whose answer is conclusive that nothing was published
 * (the sink refused the publication: a key already used for another output digest, a schema the
 * rows do not fit, ...). The run becomes {@link RunStatus#FAILED} with
 * {@link ExternalOutput#NONE}. Any other exception from a dispatch is inconclusive.
 */
public class PublicationRejectedException extends RunException {
  private static final long serialVersionUID = 1L;

  /** A conclusive refusal, saying why. */
  public PublicationRejectedException(String message) {
    super(message);
  }

  /** A conclusive refusal, saying why, with the sink's error. */
  public PublicationRejectedException(String message, Throwable cause) {
    super(message, cause);
  }
}
