package io.dataflow.runs.internal;

import io.dataflow.core.Clock;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.runs.AttemptStatus;
import io.dataflow.runs.ExternalOutput;
import io.dataflow.runs.FaultPoints;
import io.dataflow.runs.IdempotencyConflictException;
import io.dataflow.runs.Provenance;
import io.dataflow.runs.PublicationResponse;
import io.dataflow.runs.PublicationTarget;
import io.dataflow.runs.Resolution;
import io.dataflow.runs.RunException;
import io.dataflow.runs.RunRecord;
import io.dataflow.runs.RunRequest;
import io.dataflow.runs.RunResult;
import io.dataflow.runs.RunStatus;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;

/**
 * What {@code DurableRuns} delegates to: claiming a run for an attempt (new run, replay, or a
 * retry after a recovered attempt), closing expired attempts, and the operator's reads and
 * resolution. The attempt itself is {@link AttemptRun}.
 *
 * <h2>Implementation note: deciding from the mark</h2>
 *
 * An expired attempt is closed under the run's row lock, by whoever looks first, from the
 * durable-mutation mark alone: without it the attempt never called the target (its next write
 * would have been the mark, and the lock orders it), so it is closed as recovered and the run
 * may run again; with it the run becomes outcome unknown. Neither a timeout nor a missing
 * reference decides.
 *
 * <p>Thread-safety: safe from any thread (every call works in its own ledger transactions).
 */
public final class RunEngine implements AutoCloseable {
  private final Ledger ledger;
  private final Clock clock;
  private final Duration lease;
  private final FaultPoints faults;

  private RunEngine(Ledger ledger, Clock clock, Duration lease, FaultPoints faults) {
    this.ledger = ledger;
    this.clock = clock;
    this.lease = lease;
    this.faults = faults;
  }

  /** Opens and migrates the ledger. */
  public static RunEngine open(String url, Properties properties, Clock clock, Duration lease,
      FaultPoints faults) {
    return new RunEngine(Ledger.open(url, properties), clock, lease, faults);
  }

  long now() {
    return clock.instant().toEpochMilli();
  }

  long leaseUntil(long now) {
    return now + lease.toMillis();
  }

  /** A claim: this call runs attempt {@code attempt} of {@code runId}, or replays the run. */
  private record Claim(String runId, int attempt, boolean replay) {}

  /** Starts or replays a run. */
  public RunResult start(RunRequest request, PublicationTarget target) {
    DataflowProgram program = Evaluation.compile(request); // a bad specification records nothing
    String definitionHash = definitionHash(request);
    String requestJson = requestJson(request, target);
    String requestHash = Digests.sha256Hex(requestJson);
    String accessDigest = Digests.sha256HexOfParts("ledger", ledger.description(), ledger.user(),
        "target", target == null ? "" : target.description(),
        target == null ? "" : target.accessIdentity());
    Provenance provenance = LibraryInfo.provenance(request.invocation());
    Claim claim = ledger.tx(c -> {
      long now = now();
      Optional<String> existing = ledger.lockByKey(c, request.idempotencyKey());
      if (existing.isEmpty()) {
        String runId = UUID.randomUUID().toString();
        ledger.insertRun(c, new Ledger.NewRun(runId, request.idempotencyKey(), request.mode(),
            request.specificationName(), definitionHash, requestHash, requestJson, accessDigest,
            provenance, target == null ? null : target.description()), now, leaseUntil(now));
        return new Claim(runId, 1, false);
      }
      String runId = existing.get();
      Ledger.Pinned pinned = ledger.pinned(c, runId);
      if (pinned.mode() != request.mode()) {
        throw new IdempotencyConflictException(request.idempotencyKey(), runId,
            "mode " + pinned.mode());
      }
      if (!pinned.requestHash().equals(requestHash)) {
        throw new IdempotencyConflictException(request.idempotencyKey(), runId,
            "request hash " + pinned.requestHash() + " (this request's is " + requestHash + ")");
      }
      closeIfExpired(c, runId, now);
      Ledger.Current cur = ledger.current(c, runId);
      if (cur.runStatus() != RunStatus.PENDING) {
        return new Claim(runId, cur.attempt(), true);
      }
      int next = cur.attempt() + 1;
      ledger.insertAttempt(c, runId, next, provenance, now, leaseUntil(now));
      ledger.updateRun(c, runId, now, "current_attempt", next, "status", RunStatus.RUNNING);
      ledger.event(c, runId, next, now, "retry", "attempt " + next + " began after attempt "
          + cur.attempt() + " was recovered (" + provenance.invocation() + " on "
          + provenance.host() + ", process " + provenance.process() + ")");
      return new Claim(runId, next, false);
    });
    if (claim.replay()) {
      return new RunResult(show(claim.runId()), true, List.of());
    }
    return new AttemptRun(this, ledger, faults, request, program, target, claim.runId(),
        claim.attempt()).run();
  }

  /**
   * Closes the run's current attempt when its lease expired at {@code now} (call with the run
   * locked): recovered before the mark, abandoned after it.
   *
   * @return true when it closed one
   */
  private boolean closeIfExpired(Connection c, String runId, long now) throws SQLException {
    ledger.lock(c, runId);
    Ledger.Current cur = ledger.current(c, runId);
    if (cur.status() != AttemptStatus.RUNNING || cur.leaseExpiresAt() > now) {
      return false;
    }
    if (!cur.durableMutation()) {
      String note = "lease expired before dispatch: proven absent (no durable mutation), closed"
          + " as recovered";
      ledger.closeAttempt(c, runId, cur.attempt(), AttemptStatus.RECOVERED, note, now);
      ledger.updateRun(c, runId, now, "status", RunStatus.PENDING);
      ledger.event(c, runId, cur.attempt(), now, "recovered", note);
    } else {
      String note = "lease expired after dispatch started: not retried; inspect the sink with"
          + " idempotency key '" + cur.key() + "' and output digest " + cur.outputDigest();
      ledger.closeAttempt(c, runId, cur.attempt(), AttemptStatus.ABANDONED, note, now);
      ledger.updateRun(c, runId, now, "status", RunStatus.OUTCOME_UNKNOWN, "external_output",
          ExternalOutput.UNKNOWN, "failure", note);
      ledger.event(c, runId, cur.attempt(), now, "outcome-unknown", note);
    }
    return true;
  }

  /** The definition hash: the specification text and its language edition and typing mode. */
  static String definitionHash(RunRequest r) {
    return Digests.sha256HexOfParts("dataflow-runs/definition/1", r.languageEdition(),
        r.typingMode().name(), r.specification());
  }

  /** The canonical JSON of the request: what its hash is over (no credentials in it). */
  static String requestJson(RunRequest r, PublicationTarget target) {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("name", r.specificationName());
    spec.put("text", r.specification());
    spec.put("languageEdition", r.languageEdition());
    spec.put("typingMode", r.typingMode().name());
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("specification", spec);
    json.put("input", new LinkedHashMap<String, Object>(r.input().description()));
    json.put("mode", r.mode().name());
    json.put("options", new LinkedHashMap<String, Object>(r.options()));
    json.put("target", target == null ? null : JdbcUrls.redact(target.description()));
    return CanonicalJson.write(json);
  }

  /** Every run, newest first (expired attempts closed first). */
  public List<RunRecord> list() {
    reconcile();
    return ledger.tx(c -> {
      List<RunRecord> runs = new ArrayList<>();
      for (String id : ledger.runIds(c)) {
        runs.add(ledger.load(c, id));
      }
      return runs;
    });
  }

  /** One run (its expired attempt closed first). */
  public RunRecord show(String runId) {
    return ledger.tx(c -> {
      closeIfExpired(c, runId, now());
      return ledger.load(c, runId);
    });
  }

  /** The run of a key. */
  public Optional<RunRecord> findByKey(String key) {
    Optional<String> id = ledger.tx(c -> ledger.runIdOfKey(c, key));
    return id.map(this::show);
  }

  /** Inspects a target for a run's publication. */
  public Optional<PublicationResponse> inspect(String runId, PublicationTarget target) {
    RunRecord run = show(runId);
    if (run.outputDigest() == null) {
      throw new RunException("run " + runId + " recorded no output digest: it never got as far"
          + " as preparing a publication, so there is nothing to look for");
    }
    try {
      return target.inspect(run.idempotencyKey(), run.outputDigest());
    } catch (RunException | UnsupportedOperationException e) {
      throw e;
    } catch (Exception e) {
      throw new RunException("run " + runId + ": cannot inspect " + target.description() + ": "
          + e.getMessage(), e);
    }
  }

  /** An operator's resolution. */
  public RunRecord resolve(String runId, Resolution as, String evidence) {
    return ledger.tx(c -> {
      long now = now();
      closeIfExpired(c, runId, now);
      RunRecord run = ledger.load(c, runId);
      if (!run.unresolved()) {
        throw new RunException("run " + runId + " is " + run.status() + ", not unresolved:"
            + " only an OUTCOME_UNKNOWN run is resolved by an operator");
      }
      RunStatus status = as == Resolution.SUCCEEDED ? RunStatus.SUCCEEDED : RunStatus.FAILED;
      ExternalOutput external = as == Resolution.SUCCEEDED ? ExternalOutput.CREATED
          : ExternalOutput.NONE;
      ledger.updateRun(c, runId, now, "status", status, "resolution", as,
          "resolution_evidence", evidence, "external_output", external);
      ledger.event(c, runId, run.currentAttempt().number(), now, "resolved",
          "operator resolved as " + as + ": " + evidence);
      return ledger.load(c, runId);
    });
  }

  /** Closes expired attempts. */
  public List<RunRecord> reconcile() {
    List<String> ids = ledger.tx(c -> ledger.expired(c, now()));
    List<RunRecord> changed = new ArrayList<>();
    for (String id : ids) {
      RunRecord r = ledger.tx(c -> closeIfExpired(c, id, now()) ? ledger.load(c, id) : null);
      if (r != null) {
        changed.add(r);
      }
    }
    return changed;
  }

  /** The ledger URL without credentials. */
  public String ledgerDescription() {
    return ledger.description();
  }

  @Override
  public void close() {
    ledger.close();
  }
}
