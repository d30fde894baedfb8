/**
 * The machinery behind {@code io.dataflow.runs}: {@code RunEngine} (start, replay, reconcile,
 * resolve), {@code AttemptRun} (one attempt's steps and fault points), {@code Ledger} (JDBC
 * transactions, every attempt write fenced by its token), {@code Evaluation} (the pinned
 * specification over the finite input with a {@code DataflowMonitor}), {@code EvidenceChain},
 * {@code CanonicalJson}, {@code Digests} and {@code JdbcUrls} (credentials never reach the
 * ledger). Not exported.
 *
 * <p>Not here: the public types (in {@code io.dataflow.runs}); the runtime's owner loop (this
 * module evaluates a bounded input in the caller's thread and needs none).
 */
package io.dataflow.runs.internal;
