package io.dataflow.runs;

import java.util.Optional;
import java.util.Set;

/**
 * Where a {@link RunMode#FORWARD_RECOVERY forward-recovery} run publishes its bounded result:
 * {@link DirectoryTarget}, {@link JdbcTableTarget}, or your own.
 *
 * <p>The contract a target keeps so that a publication never happens twice:
 *
 * <ul>
 *   <li>{@link #publish} keeps the publication's idempotency key with it; a second call with the
 *       same key and output digest publishes nothing new and answers with the first
 *       publication's references; the same key with another digest is a
 *       {@link PublicationRejectedException}.
 *   <li>Returning normally is a conclusive response. A {@link PublicationRejectedException} is a
 *       conclusive "nothing was published". Any other exception (a timeout, a reset connection)
 *       is inconclusive: the run becomes {@link RunStatus#OUTCOME_UNKNOWN}.
 *   <li>{@link #inspect} finds an earlier publication by key and digest, for an operator.
 * </ul>
 *
 * <p>Thread-safety: called from the thread running the attempt; one call at a time per run.
 */
public interface PublicationTarget {
  /** What a target can do. */
  enum Capability {
    /** It publishes idempotently under a key (required to dispatch). */
    PUBLICATION,
    /** It can find an earlier publication by key and output digest. */
    INSPECTION
  }

  /**
   * The target as recorded in the ledger: {@code dir:/srv/out}, {@code jdbc-table:...}. It must
   * not contain a credential; the library also strips URL user info and password parameters.
   */
  String description();

  /** What this target can do; without {@link Capability#PUBLICATION} a run fails before dispatch. */
  Set<Capability> capabilities();

  /**
   * The identity behind the target's credentials (a user name, a role), never the credential:
   * the ledger records only a digest of it, as part of the access-context digest. Empty when
   * the target uses no credentials.
   */
  default String accessIdentity() {
    return "";
  }

  /**
   * Publishes the bounded result, idempotently under {@link Publication#idempotencyKey()}.
   *
   * @return the conclusive response: where the publication is
   * @throws PublicationRejectedException when the sink conclusively published nothing
   * @throws Exception when the outcome is not known (the run becomes outcome unknown)
   */
  PublicationResponse publish(Publication publication) throws Exception;

  /**
   * Looks for an earlier publication under {@code idempotencyKey} with {@code outputDigest}.
   *
   * @return its references, or empty when the sink has none
   * @throws UnsupportedOperationException when the target lacks {@link Capability#INSPECTION}
   * @throws Exception when the sink cannot be read
   */
  default Optional<PublicationResponse> inspect(String idempotencyKey, String outputDigest)
      throws Exception {
    throw new UnsupportedOperationException(description() + " cannot be inspected");
  }
}
