/**
 * Durable bounded runs (docs/durable-runs.md). {@link io.dataflow.runs.DurableRuns} is the entry:
 * opened on a ledger's JDBC URL, it runs a {@link io.dataflow.runs.RunRequest} (pinned
 * specification, finite {@link io.dataflow.runs.RunInput}, idempotency key,
 * {@link io.dataflow.runs.RunMode}) as fenced {@link io.dataflow.runs.Attempt}s and returns a
 * {@link io.dataflow.runs.RunRecord} ({@link io.dataflow.runs.RunStatus}); it also lists, shows,
 * inspects and resolves runs for an operator. Forward-recovery runs publish to a
 * {@link io.dataflow.runs.PublicationTarget} ({@link io.dataflow.runs.DirectoryTarget},
 * {@link io.dataflow.runs.JdbcTableTarget}). {@link io.dataflow.runs.FaultPoints} is the seam
 * crash tests use. Errors are {@link io.dataflow.runs.RunException}s
 * ({@link io.dataflow.runs.FencedException}, ...).
 *
 * <p>Not here: the JDBC ledger, the attempt's steps, the evaluation, hashes and URL redaction
 * ({@code io.dataflow.runs.internal}); the schema ({@code io/dataflow/runs/migration}, Flyway);
 * the command line {@code bin/dataflow runs} (dataflow-cli).
 */
package io.dataflow.runs;
