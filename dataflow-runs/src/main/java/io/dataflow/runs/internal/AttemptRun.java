package io.dataflow.runs.internal;

import io.dataflow.core.internal.FailureGate;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.runs.AttemptStatus;
import io.dataflow.runs.ExternalOutput;
import io.dataflow.runs.FaultPoint;
import io.dataflow.runs.FaultPoints;
import io.dataflow.runs.FencedException;
import io.dataflow.runs.Publication;
import io.dataflow.runs.PublicationRejectedException;
import io.dataflow.runs.PublicationResponse;
import io.dataflow.runs.PublicationTarget;
import io.dataflow.runs.RunMode;
import io.dataflow.runs.RunRequest;
import io.dataflow.runs.RunResult;
import io.dataflow.runs.RunStatus;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * One fenced attempt of a run, from its claim to its end, in the caller's thread.
 *
 * <h2>Implementation note: the steps</h2>
 *
 * <pre>
 * after-ledger-begin -&gt; capability check -&gt; evaluate -&gt; after-evaluation
 * atomic:   before-success-commit -&gt; [verify chain + projection + checkpoint] -&gt; after-success-commit
 * forward:  before-checkpoint-commit -&gt; [bounded result + digests] -&gt; before-dispatch
 *           -&gt; [durable-mutation mark] -&gt; dispatch-started -&gt; publish -&gt; after-dispatch
 *           -&gt; before-success-commit -&gt; [verify chain + references + projection + checkpoint]
 *           -&gt; after-success-commit
 * </pre>
 *
 * Each bracket is one ledger transaction opened by the fencing check. Fault points are called
 * outside every transaction and outside every catch: whatever a hook throws leaves the ledger
 * as a crash there would. The {@link FailureGate} holds the attempt's first failure and its
 * point of no return, the same vocabulary the runtime's exit report uses.
 *
 * <p>Thread-safety: confined to the thread that runs it.
 */
final class AttemptRun {
  private final RunEngine engine;
  private final Ledger ledger;
  private final FaultPoints faults;
  private final RunRequest request;
  private final DataflowProgram program;
  private final PublicationTarget target;
  private final String runId;
  private final int attempt;
  private final FailureGate gate = new FailureGate();
  private long lastRenew;

  AttemptRun(RunEngine engine, Ledger ledger, FaultPoints faults, RunRequest request,
      DataflowProgram program, PublicationTarget target, String runId, int attempt) {
    this.engine = engine;
    this.ledger = ledger;
    this.faults = faults;
    this.request = request;
    this.program = program;
    this.target = target;
    this.runId = runId;
    this.attempt = attempt;
  }

  RunResult run() {
    lastRenew = engine.now();
    fault(FaultPoint.AFTER_LEDGER_BEGIN);
    if (target != null && !target.capabilities().contains(PublicationTarget.Capability.PUBLICATION)) {
      return fail(target.description() + " has no publication capability: the run failed before"
          + " dispatch and no external output was created", null);
    }
    Evaluation.Result result;
    try {
      result = Evaluation.evaluate(program, request.input(), this::renewIfDue);
    } catch (FencedException e) {
      throw e;
    } catch (IOException | RuntimeException e) {
      gate.fail("evaluation", e);
      return fail("evaluation failed: " + describe(e) + "; no external output was created",
          List.of());
    }
    fault(FaultPoint.AFTER_EVALUATION);
    return request.mode() == RunMode.ATOMIC ? atomic(result) : forward(result);
  }

  private RunResult atomic(Evaluation.Result result) {
    EvidenceChain seen = chain(result);
    fault(FaultPoint.BEFORE_SUCCESS_COMMIT);
    String mismatch = write((c, now) -> {
      Ledger.Evidence e = ledger.evidence(c, runId);
      EvidenceChain recorded = new EvidenceChain(e.definitionHash(), e.requestHash(),
          seen.sourceDigest(), seen.outputDigest(), seen.rowCount());
      String why = seen.mismatch(recorded);
      if (why != null) {
        failIn(c, now, "evidence chain verification failed: " + why + "; no success projection,"
            + " no external output was created", ExternalOutput.NONE, RunStatus.FAILED,
            AttemptStatus.FAILED);
        return why;
      }
      succeedIn(c, now, seen, null);
      return null;
    });
    if (mismatch == null) {
      fault(FaultPoint.AFTER_SUCCESS_COMMIT);
    }
    return new RunResult(engine.show(runId), false, result.rows());
  }

  private RunResult forward(Evaluation.Result result) {
    String publicationDigest = Digests.sha256HexOfParts("dataflow-runs/publication/1",
        request.idempotencyKey(), result.outputDigest());
    long rowCount = result.rows().size();
    fault(FaultPoint.BEFORE_CHECKPOINT_COMMIT);
    write((c, now) -> {
      ledger.updateRun(c, runId, now, "row_count", rowCount, "output_digest",
          result.outputDigest(), "source_digest", result.sourceDigest(), "publication_digest",
          publicationDigest, "bounded_result", result.rendered());
      ledger.event(c, runId, attempt, now, "prepared", rowCount + " rows, output digest "
          + result.outputDigest() + ", publication digest " + publicationDigest);
      return null;
    });
    fault(FaultPoint.BEFORE_DISPATCH);
    write((c, now) -> {
      ledger.updateRun(c, runId, now, "durable_mutation_at", now);
      ledger.event(c, runId, attempt, now, "dispatch-started", "dispatch to "
          + target.description() + " started: from here on the run is never retried");
      return null;
    });
    gate.pointOfNoReturn();
    fault(FaultPoint.DISPATCH_STARTED);
    Publication publication = new Publication(runId, attempt, request.idempotencyKey(),
        publicationDigest, result.outputDigest(), result.sourceDigest(), result.rows(),
        result.rendered());
    PublicationResponse response;
    try {
      response = target.publish(publication);
    } catch (PublicationRejectedException e) {
      gate.fail("target", e);
      return fail(target.description() + " rejected the publication conclusively: "
          + describe(e) + "; no external output was created", result.rows());
    } catch (Exception e) {
      gate.fail("target", e);
      return unknown("dispatch to " + target.description() + " had no conclusive response ("
          + describe(e) + "); not retried: inspect the sink with idempotency key '"
          + request.idempotencyKey() + "' and output digest " + result.outputDigest(),
          result.rows());
    }
    fault(FaultPoint.AFTER_DISPATCH);
    EvidenceChain seen = chain(result);
    fault(FaultPoint.BEFORE_SUCCESS_COMMIT);
    String mismatch = write((c, now) -> {
      Ledger.Evidence e = ledger.evidence(c, runId);
      String why = verify(seen, e);
      if (why != null) {
        storeResponse(c, now, response);
        failIn(c, now, "evidence chain verification failed after a conclusive publication: "
            + why + "; no success projection: compare the publication with the ledger and"
            + " resolve", ExternalOutput.CREATED, RunStatus.OUTCOME_UNKNOWN,
            AttemptStatus.ABANDONED);
        return why;
      }
      succeedIn(c, now, seen, response);
      return null;
    });
    if (mismatch == null) {
      fault(FaultPoint.AFTER_SUCCESS_COMMIT);
    }
    return new RunResult(engine.show(runId), false, result.rows());
  }

  /** Null when the ledger's pre-dispatch evidence (re-digested) matches what was seen. */
  private static String verify(EvidenceChain seen, Ledger.Evidence e) {
    if (e.boundedResult() == null || e.outputDigest() == null || e.sourceDigest() == null
        || e.rowCount() == null) {
      return "the ledger holds no bounded result";
    }
    String stored = Digests.sha256Hex(e.boundedResult());
    if (!stored.equals(e.outputDigest())) {
      return "the recorded bounded result's digest " + stored + " is not the recorded output"
          + " digest " + e.outputDigest();
    }
    return seen.mismatch(new EvidenceChain(e.definitionHash(), e.requestHash(), e.sourceDigest(),
        e.outputDigest(), e.rowCount()));
  }

  private EvidenceChain chain(Evaluation.Result result) {
    return new EvidenceChain(RunEngine.definitionHash(request),
        Digests.sha256Hex(RunEngine.requestJson(request, target)), result.sourceDigest(),
        result.outputDigest(), result.rows().size());
  }

  private void succeedIn(Connection c, long now, EvidenceChain chain, PublicationResponse response)
      throws SQLException {
    ledger.insertCheckpoint(c, runId, attempt, chain, now);
    if (response != null) {
      storeResponse(c, now, response);
    }
    ledger.updateRun(c, runId, now, "status", RunStatus.SUCCEEDED, "row_count",
        chain.rowCount(), "output_digest", chain.outputDigest(), "source_digest",
        chain.sourceDigest(), "checkpoint_hash", chain.head(), "external_output",
        response == null ? ExternalOutput.NONE : ExternalOutput.CREATED);
    ledger.closeAttempt(c, runId, attempt, AttemptStatus.SUCCEEDED, null, now);
    ledger.event(c, runId, attempt, now, "succeeded", "checkpoint " + chain.head()
        + (response == null ? "" : ", publication " + response.publication()));
  }

  private void storeResponse(Connection c, long now, PublicationResponse r) throws SQLException {
    ledger.updateRun(c, runId, now, "publication_ref", JdbcUrls.redact(r.publication()),
        "datasource_ref", JdbcUrls.redact(r.datasource()), "materialization_ref",
        JdbcUrls.redact(r.materialization()));
  }

  private void failIn(Connection c, long now, String why, ExternalOutput external,
      RunStatus status, AttemptStatus attemptStatus) throws SQLException {
    ledger.updateRun(c, runId, now, "status", status, "external_output", external, "failure",
        Ledger.truncate(why));
    ledger.closeAttempt(c, runId, attempt, attemptStatus, why, now);
    ledger.event(c, runId, attempt, now, status.name().toLowerCase(java.util.Locale.ROOT)
        .replace('_', '-'), why);
  }

  private RunResult fail(String why, List<io.dataflow.io.OutputRow> rows) {
    write((c, now) -> {
      failIn(c, now, why, ExternalOutput.NONE, RunStatus.FAILED, AttemptStatus.FAILED);
      return null;
    });
    return new RunResult(engine.show(runId), false, rows == null ? List.of() : rows);
  }

  private RunResult unknown(String why, List<io.dataflow.io.OutputRow> rows) {
    write((c, now) -> {
      failIn(c, now, why, ExternalOutput.UNKNOWN, RunStatus.OUTCOME_UNKNOWN,
          AttemptStatus.ABANDONED);
      return null;
    });
    return new RunResult(engine.show(runId), false, rows);
  }

  /** Renews the lease while evaluating, when half of it has passed (a fenced write). */
  private void renewIfDue() {
    long now = engine.now();
    if (now - lastRenew >= (engine.leaseUntil(now) - now) / 2) {
      write((c, t) -> null);
    }
  }

  /** One fenced transaction of this attempt: the lease is renewed by it. */
  private <T> T write(FencedWork<T> work) {
    T r = ledger.tx(c -> {
      long now = engine.now();
      ledger.fence(c, runId, attempt, engine.leaseUntil(now));
      return work.run(c, now);
    });
    lastRenew = engine.now();
    return r;
  }

  @FunctionalInterface
  private interface FencedWork<T> {
    T run(Connection c, long now) throws SQLException;
  }

  private void fault(FaultPoint point) {
    faults.reached(point, runId, attempt);
  }

  private static String describe(Throwable e) {
    return io.dataflow.core.DataflowException.describe(e);
  }
}
