package io.dataflow.runs;

import java.time.Instant;
import java.util.List;

/**
 * A run as the ledger holds it: what {@code runs list} and {@code runs show} print. Hashes and
 * digests are SHA-256 in lower-case hex; a field the run has not reached yet is null.
 *
 * @param runId the run's id
 * @param idempotencyKey its stable idempotency key
 * @param mode atomic or forward recovery
 * @param status its state
 * @param specificationName the specification's name
 * @param definitionHash over the specification text, language edition and typing mode
 * @param requestHash over the canonical JSON of the request
 * @param accessDigest over the identities behind the ledger's and the target's credentials
 * @param provenance who started the run (the first attempt's invocation)
 * @param target the publication target's description, or null in atomic mode
 * @param attempts every attempt, oldest first
 * @param durableMutationAt when dispatch started (the point of no return), or null
 * @param rowCount the number of output rows, once computed and committed
 * @param outputDigest over the rendered rows
 * @param sourceDigest the source fingerprint: over the input's bytes
 * @param publicationDigest the publication-idempotency digest
 * @param response the target's conclusive response, once committed
 * @param checkpointHash the verified evidence chain's head, once committed
 * @param externalOutput what is known about output outside the run
 * @param failure why the run failed or is unresolved, or null
 * @param resolution the operator's decision, or null
 * @param resolutionEvidence the evidence the operator gave, or null
 * @param createdAt when the run was recorded
 * @param updatedAt the last change
 */
public record RunRecord(String runId, String idempotencyKey, RunMode mode, RunStatus status,
    String specificationName, String definitionHash, String requestHash, String accessDigest,
    Provenance provenance, String target, List<Attempt> attempts, Instant durableMutationAt,
    Long rowCount, String outputDigest, String sourceDigest, String publicationDigest,
    PublicationResponse response, String checkpointHash, ExternalOutput externalOutput,
    String failure, Resolution resolution, String resolutionEvidence, Instant createdAt,
    Instant updatedAt) {
  /** Copies the attempts. */
  public RunRecord {
    attempts = List.copyOf(attempts);
  }

  /** True when the run waits for an operator ({@link RunStatus#OUTCOME_UNKNOWN}). */
  public boolean unresolved() {
    return status.isUnresolved();
  }

  /** True once dispatch started: the run's first durable mutation, decided from the ledger. */
  public boolean durableMutation() {
    return durableMutationAt != null;
  }

  /** The newest attempt. */
  public Attempt currentAttempt() {
    return attempts.get(attempts.size() - 1);
  }
}
