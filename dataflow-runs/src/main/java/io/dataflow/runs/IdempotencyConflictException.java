package io.dataflow.runs;

/**
 * An idempotency key was given with a request other than the one its run was recorded with
 * (another canonical request hash or another mode). The existing run is left as it is; a new
 * request needs a new key.
 */
public class IdempotencyConflictException extends RunException {
  private static final long serialVersionUID = 1L;

  /** The key {@code key}'s run {@code runId} differs: {@code what}. */
  public IdempotencyConflictException(String key, String runId, String what) {
    super("idempotency key '" + key + "' belongs to run " + runId + " with " + what
        + "; use a new key for a new request");
  }
}
