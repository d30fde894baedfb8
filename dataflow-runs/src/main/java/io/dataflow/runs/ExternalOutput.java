package io.dataflow.runs;

/**
 * What the ledger knows about output outside the run: the answer an operator needs first. An
 * outcome never claims more than happened: {@link #NONE} is recorded only when dispatch
 * provably never started or the target conclusively refused.
 */
public enum ExternalOutput {
  /** No external output was created (atomic mode, or no dispatch, or a conclusive refusal). */
  NONE,
  /** Dispatch may have started without a conclusive response: inspect the sink. */
  UNKNOWN,
  /** A conclusive response named the publication. */
  CREATED
}
