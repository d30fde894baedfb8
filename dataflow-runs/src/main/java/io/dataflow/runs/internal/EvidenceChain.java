package io.dataflow.runs.internal;

/**
 * The recovery checkpoint's hash chain: each link hashes the previous link with the next piece
 * of evidence, in a fixed order (definition hash, request hash, source fingerprint, output
 * digest and row count), so the head changes when any piece does. A checkpoint is verified by
 * recomputing the head from what the ledger recorded before the run's end and comparing it with
 * the head computed from what the attempt saw.
 *
 * @param definitionHash the pinned definition
 * @param requestHash the canonical request
 * @param sourceDigest the source fingerprint
 * @param outputDigest the rendered rows
 * @param rowCount the number of rows
 */
public record EvidenceChain(String definitionHash, String requestHash, String sourceDigest,
    String outputDigest, long rowCount) {
  /** The chain's head. */
  public String head() {
    String link = Digests.sha256HexOfParts("dataflow-runs/evidence/1", definitionHash);
    link = Digests.sha256HexOfParts(link, requestHash);
    link = Digests.sha256HexOfParts(link, sourceDigest);
    return Digests.sha256HexOfParts(link, outputDigest, Long.toString(rowCount));
  }

  /**
   * Null when {@code recorded} (what the ledger holds) has the same head as this chain (what
   * the attempt saw); otherwise the first piece of evidence that differs, for the message.
   */
  public String mismatch(EvidenceChain recorded) {
    if (recorded.head().equals(head())) {
      return null;
    }
    if (!definitionHash.equals(recorded.definitionHash)) {
      return "the definition hash differs (ledger " + recorded.definitionHash + ", attempt "
          + definitionHash + ")";
    }
    if (!requestHash.equals(recorded.requestHash)) {
      return "the request hash differs (ledger " + recorded.requestHash + ", attempt "
          + requestHash + ")";
    }
    if (!sourceDigest.equals(recorded.sourceDigest)) {
      return "the source fingerprint differs (ledger " + recorded.sourceDigest + ", attempt "
          + sourceDigest + ")";
    }
    if (!outputDigest.equals(recorded.outputDigest)) {
      return "the output digest differs (ledger " + recorded.outputDigest + ", attempt "
          + outputDigest + ")";
    }
    return "the row count differs (ledger " + recorded.rowCount + ", attempt " + rowCount + ")";
  }
}
