package io.dataflow.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.runs.internal.Digests;
import io.dataflow.testkit.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The contract of durable runs, run against every ledger database (H2 in a file, PostgreSQL):
 * a subclass supplies a fresh, empty ledger per test. Crashes are simulated in-process: the
 * fault hook throws at a point, which abandons the attempt exactly as a halt there would leave
 * the ledger; time moves on a {@link ManualClock}.
 */
abstract class DurableRunsContract {
  static final String SPEC = "in x\nout z\nz = default(z[1], 0) + x";
  static final String TRACE = "0: x = 1\n1: x = 2\n2: x = 3\n3: x = 3\n4: x = 10\n";
  static final String RENDERED =
      "z[0] = Int(1)\nz[1] = Int(3)\nz[2] = Int(6)\nz[3] = Int(9)\nz[4] = Int(19)\n";
  static final Duration LEASE = Duration.ofSeconds(30);

  /** The crash of a simulated process: thrown by a fault hook, never caught by the library. */
  static final class Crash extends Error {
    private static final long serialVersionUID = 1L;

    Crash(FaultPoint point) {
      super("simulated crash at " + point);
    }
  }

  @TempDir
  Path tmp;

  final ManualClock clock = new ManualClock(0, Instant.parse("2026-03-01T00:00:00Z"));
  final List<DurableRuns> opened = new ArrayList<>();
  String url;
  Properties properties;

  /** A fresh, empty ledger: its URL. */
  abstract String freshLedgerUrl() throws Exception;

  /** Connection properties of the ledger (none by default). */
  Properties ledgerProperties() {
    return new Properties();
  }

  @BeforeEach
  void freshLedger() throws Exception {
    url = freshLedgerUrl();
    properties = ledgerProperties();
  }

  @AfterEach
  void closeLedgers() {
    opened.forEach(DurableRuns::close);
  }

  DurableRuns open(FaultPoints faults) {
    DurableRuns runs = DurableRuns.builder().ledger(url, properties).clock(clock)
        .leaseDuration(LEASE).faultPoints(faults).open();
    opened.add(runs);
    return runs;
  }

  DurableRuns open() {
    return open(FaultPoints.NONE);
  }

  static RunRequest request(String key, RunMode mode) {
    return RunRequest.builder().specification("counter.dsrv", SPEC)
        .input(RunInput.trace("counter.trace", TRACE)).idempotencyKey(key).mode(mode).build();
  }

  /** A hook that crashes the first time an attempt reaches {@code point}. */
  static FaultPoints crashOnceAt(FaultPoint point) {
    AtomicInteger crashes = new AtomicInteger();
    return (p, runId, attempt) -> {
      if (p == point && crashes.getAndIncrement() == 0) {
        throw new Crash(p);
      }
    };
  }

  /** A directory target that counts its dispatches. */
  final class CountingTarget implements PublicationTarget {
    final DirectoryTarget dir = DirectoryTarget.of(tmp.resolve("published"));
    final AtomicInteger dispatches = new AtomicInteger();

    @Override
    public String description() {
      return dir.description();
    }

    @Override
    public Set<Capability> capabilities() {
      return dir.capabilities();
    }

    @Override
    public PublicationResponse publish(Publication p) throws Exception {
      dispatches.incrementAndGet();
      return dir.publish(p);
    }

    @Override
    public Optional<PublicationResponse> inspect(String key, String digest) throws Exception {
      return dir.inspect(key, digest);
    }
  }

  void expireLease() {
    clock.advance(LEASE.plusSeconds(1));
  }

  // ---- atomic mode ----

  @Test
  void atomicRunCommitsItsProjectionWithAVerifiedCheckpointAndKeepsRowsEphemeral()
      throws Exception {
    RunResult r = open().start(request("k-atomic", RunMode.ATOMIC));

    RunRecord run = r.run();
    assertThat(r.replayed()).isFalse();
    assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(run.rowCount()).isEqualTo(5L);
    assertThat(run.outputDigest()).isEqualTo(Digests.sha256Hex(RENDERED));
    assertThat(run.sourceDigest()).isEqualTo(Digests.sha256Hex(TRACE));
    assertThat(run.checkpointHash()).matches("[0-9a-f]{64}");
    assertThat(run.externalOutput()).isEqualTo(ExternalOutput.NONE);
    assertThat(run.durableMutation()).isFalse();
    assertThat(run.attempts()).extracting(Attempt::number, Attempt::status)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(1, AttemptStatus.SUCCEEDED));
    assertThat(run.provenance().invocation()).isEqualTo(Invocation.API);
    assertThat(r.rows()).hasSize(5);
    assertThat(r.rows().get(4).values().get("z")).hasToString("Int(19)");
    assertThat(single("SELECT bounded_result FROM dataflow_run")).as("rows stay ephemeral")
        .isNull();
    assertThat(single("SELECT chain_hash FROM dataflow_run_checkpoint"))
        .isEqualTo(run.checkpointHash());
  }

  @ParameterizedTest
  @EnumSource(value = FaultPoint.class, names = {"AFTER_LEDGER_BEGIN", "AFTER_EVALUATION",
      "BEFORE_SUCCESS_COMMIT"})
  void atomicRunCrashedBeforeItsCommitIsRecoveredAndRetriedOnceTheLeaseExpires(FaultPoint point) {
    DurableRuns runs = open(crashOnceAt(point));
    RunRequest req = request("k-" + point, RunMode.ATOMIC);
    assertThatThrownBy(() -> runs.start(req)).isInstanceOf(Crash.class);

    RunResult early = runs.start(req);
    assertThat(early.replayed()).as("the lease still holds").isTrue();
    assertThat(early.run().status()).isEqualTo(RunStatus.RUNNING);

    expireLease();
    RunResult retried = runs.start(req);
    assertThat(retried.replayed()).isFalse();
    assertThat(retried.run().status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(retried.run().attempts()).extracting(Attempt::status)
        .containsExactly(AttemptStatus.RECOVERED, AttemptStatus.SUCCEEDED);
    assertThat(retried.run().runId()).isEqualTo(early.run().runId());
  }

  // ---- forward recovery ----

  @Test
  void forwardRunPublishesOnceAndCommitsTheReferencesWithSuccess() throws Exception {
    CountingTarget target = new CountingTarget();
    RunRecord run = open().start(request("k-fwd", RunMode.FORWARD_RECOVERY), target).run();

    assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(run.externalOutput()).isEqualTo(ExternalOutput.CREATED);
    assertThat(run.durableMutation()).isTrue();
    assertThat(run.publicationDigest()).matches("[0-9a-f]{64}");
    assertThat(run.response().datasource()).isEqualTo(target.description());
    assertThat(Files.readString(Path.of(run.response().materialization())))
        .isEqualTo(RENDERED);
    assertThat(target.inspect("k-fwd", run.outputDigest())).contains(run.response());
    assertThat(target.dispatches).hasValue(1);
    assertThat(single("SELECT bounded_result FROM dataflow_run")).isEqualTo(RENDERED);
  }

  @Test
  void replayOfAKeyReturnsTheExistingRunAndNeverPublishesAgain() {
    CountingTarget target = new CountingTarget();
    DurableRuns runs = open();
    RunRecord first = runs.start(request("k-replay", RunMode.FORWARD_RECOVERY), target).run();
    RunResult again = open().start(request("k-replay", RunMode.FORWARD_RECOVERY), target);

    assertThat(again.replayed()).isTrue();
    assertThat(again.run().runId()).isEqualTo(first.runId());
    assertThat(again.run().status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(again.rows()).isEmpty();
    assertThat(target.dispatches).hasValue(1);
  }

  @Test
  void aKeyGivenWithAnotherRequestIsAConflictAndLeavesTheRun() {
    DurableRuns runs = open();
    runs.start(request("k-conflict", RunMode.ATOMIC));
    RunRequest other = RunRequest.builder().specification("counter.dsrv", SPEC + "\n")
        .input(RunInput.trace("counter.trace", TRACE)).idempotencyKey("k-conflict").build();

    assertThatThrownBy(() -> runs.start(other)).isInstanceOf(IdempotencyConflictException.class)
        .hasMessageContaining("k-conflict");
    assertThat(runs.list()).singleElement().extracting(RunRecord::status)
        .isEqualTo(RunStatus.SUCCEEDED);
  }

  @Test
  void replayOfAKeyWhileItsFirstAttemptStillRunsReturnsTheRunningRunWithoutRunning() {
    CountingTarget target = new CountingTarget();
    AtomicReference<RunResult> duringFirst = new AtomicReference<>();
    AtomicReference<DurableRuns> self = new AtomicReference<>();
    DurableRuns runs = open((p, runId, attempt) -> {
      if (p == FaultPoint.AFTER_EVALUATION && duringFirst.get() == null) {
        duringFirst.set(self.get().start(request("k-live", RunMode.FORWARD_RECOVERY), target));
      }
    });
    self.set(runs);

    RunRecord first = runs.start(request("k-live", RunMode.FORWARD_RECOVERY), target).run();

    assertThat(duringFirst.get().replayed()).isTrue();
    assertThat(duringFirst.get().run().status()).isEqualTo(RunStatus.RUNNING);
    assertThat(duringFirst.get().run().runId()).isEqualTo(first.runId());
    assertThat(first.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(first.attempts()).hasSize(1);
    assertThat(target.dispatches).hasValue(1);
  }

  @ParameterizedTest
  @EnumSource(value = FaultPoint.class, names = {"AFTER_LEDGER_BEGIN", "AFTER_EVALUATION",
      "BEFORE_CHECKPOINT_COMMIT", "BEFORE_DISPATCH"})
  void crashBeforeDispatchIsProvenAbsentClosedAsRecoveredAndRetried(FaultPoint point) {
    CountingTarget target = new CountingTarget();
    DurableRuns runs = open(crashOnceAt(point));
    RunRequest req = request("k-" + point, RunMode.FORWARD_RECOVERY);
    assertThatThrownBy(() -> runs.start(req, target)).isInstanceOf(Crash.class);
    assertThat(target.dispatches).hasValue(0);

    expireLease();
    RunResult retried = runs.start(req, target);

    assertThat(retried.replayed()).isFalse();
    RunRecord run = retried.run();
    assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(run.attempts()).extracting(Attempt::status)
        .containsExactly(AttemptStatus.RECOVERED, AttemptStatus.SUCCEEDED);
    assertThat(run.attempts().get(0).note()).contains("proven absent");
    assertThat(target.dispatches).hasValue(1);
  }

  @ParameterizedTest
  @EnumSource(value = FaultPoint.class, names = {"DISPATCH_STARTED", "AFTER_DISPATCH",
      "BEFORE_SUCCESS_COMMIT"})
  void crashAtOrAfterDispatchIsNeverRetriedAndWaitsForTheOperator(FaultPoint point)
      throws Exception {
    CountingTarget target = new CountingTarget();
    DurableRuns runs = open(crashOnceAt(point));
    RunRequest req = request("k-" + point, RunMode.FORWARD_RECOVERY);
    assertThatThrownBy(() -> runs.start(req, target)).isInstanceOf(Crash.class);
    int dispatched = point == FaultPoint.DISPATCH_STARTED ? 0 : 1;
    assertThat(target.dispatches).hasValue(dispatched);

    expireLease();
    RunResult replay = runs.start(req, target);

    assertThat(replay.replayed()).isTrue();
    RunRecord run = replay.run();
    assertThat(run.status()).isEqualTo(RunStatus.OUTCOME_UNKNOWN);
    assertThat(run.unresolved()).isTrue();
    assertThat(run.externalOutput()).isEqualTo(ExternalOutput.UNKNOWN);
    assertThat(run.attempts()).extracting(Attempt::status)
        .containsExactly(AttemptStatus.ABANDONED);
    assertThat(run.failure()).contains(req.idempotencyKey()).contains(run.outputDigest());
    assertThat(runs.start(req, target).run().status()).isEqualTo(RunStatus.OUTCOME_UNKNOWN);
    assertThat(target.dispatches).as("never published again").hasValue(dispatched);

    Optional<PublicationResponse> found = runs.inspect(run.runId(), target);
    assertThat(found.isPresent()).isEqualTo(dispatched == 1);
    RunRecord resolved = runs.resolve(run.runId(),
        found.isPresent() ? Resolution.SUCCEEDED : Resolution.FAILED,
        found.map(f -> "found " + f.publication()).orElse("no publication under the key"));
    assertThat(resolved.status()).isEqualTo(found.isPresent() ? RunStatus.SUCCEEDED
        : RunStatus.FAILED);
    assertThat(resolved.resolutionEvidence()).isNotBlank();
    assertThat(runs.start(req, target).run().status()).isEqualTo(resolved.status());
    assertThatThrownBy(() -> runs.resolve(run.runId(), Resolution.FAILED, "again"))
        .isInstanceOf(RunException.class).hasMessageContaining("not unresolved");
  }

  @Test
  void crashAfterTheSuccessCommitLeavesASucceededRunThatAReplayReturns() {
    CountingTarget target = new CountingTarget();
    DurableRuns runs = open(crashOnceAt(FaultPoint.AFTER_SUCCESS_COMMIT));
    RunRequest req = request("k-after", RunMode.FORWARD_RECOVERY);
    assertThatThrownBy(() -> runs.start(req, target)).isInstanceOf(Crash.class);
    expireLease();

    RunResult replay = runs.start(req, target);
    assertThat(replay.replayed()).isTrue();
    assertThat(replay.run().status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(target.dispatches).hasValue(1);
  }

  @Test
  void dispatchWithoutAConclusiveResponseIsOutcomeUnknownAndNotRetried() {
    AtomicInteger calls = new AtomicInteger();
    PublicationTarget timesOut = new FailingTarget(calls,
        new IOException("read timed out"));
    DurableRuns runs = open();
    RunRequest req = request("k-timeout", RunMode.FORWARD_RECOVERY);

    RunRecord run = runs.start(req, timesOut).run();
    assertThat(run.status()).isEqualTo(RunStatus.OUTCOME_UNKNOWN);
    assertThat(run.externalOutput()).isEqualTo(ExternalOutput.UNKNOWN);
    assertThat(run.failure()).contains("read timed out").contains("k-timeout");
    assertThat(runs.start(req, timesOut).replayed()).isTrue();
    assertThat(calls).hasValue(1);
  }

  @Test
  void aConclusiveRejectionFailsTheRunWithNoExternalOutput() {
    AtomicInteger calls = new AtomicInteger();
    RunRecord run = open().start(request("k-rejected", RunMode.FORWARD_RECOVERY),
        new FailingTarget(calls, new PublicationRejectedException("schema mismatch"))).run();

    assertThat(run.status()).isEqualTo(RunStatus.FAILED);
    assertThat(run.externalOutput()).isEqualTo(ExternalOutput.NONE);
    assertThat(run.failure()).contains("schema mismatch");
  }

  @Test
  void aTargetWithoutThePublicationCapabilityFailsBeforeDispatch() {
    AtomicInteger calls = new AtomicInteger();
    PublicationTarget readOnly = new FailingTarget(calls, new IOException("unreachable")) {
      @Override
      public Set<Capability> capabilities() {
        return Set.of(Capability.INSPECTION);
      }
    };
    RunRecord run = open().start(request("k-readonly", RunMode.FORWARD_RECOVERY), readOnly)
        .run();

    assertThat(run.status()).isEqualTo(RunStatus.FAILED);
    assertThat(run.externalOutput()).isEqualTo(ExternalOutput.NONE);
    assertThat(run.durableMutation()).isFalse();
    assertThat(run.failure()).contains("no publication capability")
        .contains("no external output was created");
    assertThat(calls).hasValue(0);
  }

  @Test
  void aFailedEvidenceChainPreventsTheSuccessProjection() {
    CountingTarget target = new CountingTarget();
    DurableRuns runs = open((p, runId, attempt) -> {
      if (p == FaultPoint.BEFORE_SUCCESS_COMMIT) {
        execute("UPDATE dataflow_run SET bounded_result = 'z[0] = Int(666)\n' WHERE run_id = '"
            + runId + "'");
      }
    });
    RunRecord run = runs.start(request("k-chain", RunMode.FORWARD_RECOVERY), target).run();

    assertThat(run.status()).isEqualTo(RunStatus.OUTCOME_UNKNOWN);
    assertThat(run.checkpointHash()).isNull();
    assertThat(run.failure()).contains("evidence chain verification failed");
    assertThat(run.response()).as("the conclusive response is kept as evidence").isNotNull();
    assertThat(count("dataflow_run_checkpoint")).isZero();
  }

  @Test
  void aFailedEvidenceChainFailsAnAtomicRun() {
    DurableRuns runs = open((p, runId, attempt) -> {
      if (p == FaultPoint.BEFORE_SUCCESS_COMMIT) {
        execute("UPDATE dataflow_run SET definition_hash = '" + "0".repeat(64)
            + "' WHERE run_id = '" + runId + "'");
      }
    });
    RunRecord run = runs.start(request("k-chain-atomic", RunMode.ATOMIC)).run();

    assertThat(run.status()).isEqualTo(RunStatus.FAILED);
    assertThat(run.failure()).contains("definition hash differs");
    assertThat(count("dataflow_run_checkpoint")).isZero();
  }

  @Test
  void aBadInputFailsTheRunAndABadSpecificationRecordsNothing() {
    DurableRuns runs = open();
    RunRequest badInput = RunRequest.builder().specification("counter.dsrv", SPEC)
        .input(RunInput.trace("bad.trace", "0: y = 1\n")).idempotencyKey("k-bad").build();
    RunRecord run = runs.start(badInput).run();
    assertThat(run.status()).isEqualTo(RunStatus.FAILED);
    assertThat(run.failure()).contains("bad.trace:1").contains("'y' is not an input");

    RunRequest badSpec = RunRequest.builder().specification("bad.dsrv", "out z\nz = nope")
        .input(RunInput.trace("t", TRACE)).idempotencyKey("k-bad-spec").build();
    assertThatThrownBy(() -> runs.start(badSpec))
        .isInstanceOf(io.dataflow.monitor.SpecException.class);
    assertThat(runs.findByKey("k-bad-spec")).isEmpty();
  }

  // ---- leases and fencing ----

  @Test
  void aStaleAttemptIsFencedOnceANewerAttemptTookTheRunOver() {
    AtomicReference<DurableRuns> self = new AtomicReference<>();
    AtomicReference<RunResult> newer = new AtomicReference<>();
    DurableRuns runs = open((p, runId, attempt) -> {
      if (p == FaultPoint.BEFORE_SUCCESS_COMMIT && attempt == 1) {
        // Attempt 1 stalls past its lease; attempt 2 takes the run over and finishes.
        expireLease();
        newer.set(self.get().start(request("k-fenced", RunMode.ATOMIC)));
      }
    });
    self.set(runs);

    assertThatThrownBy(() -> runs.start(request("k-fenced", RunMode.ATOMIC)))
        .isInstanceOf(FencedException.class)
        .satisfies(e -> assertThat(((FencedException) e).currentAttempt()).isEqualTo(2));

    assertThat(newer.get().replayed()).isFalse();
    RunRecord run = runs.findByKey("k-fenced").orElseThrow();
    assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(run.attempts()).extracting(Attempt::status)
        .containsExactly(AttemptStatus.RECOVERED, AttemptStatus.SUCCEEDED);
    assertThat(count("dataflow_run_checkpoint")).as("one commit").isEqualTo(1);
  }

  @Test
  void anAttemptWithinItsLeaseIsNotTakenOver() {
    AtomicReference<DurableRuns> self = new AtomicReference<>();
    AtomicReference<RunResult> during = new AtomicReference<>();
    DurableRuns runs = open((p, runId, attempt) -> {
      if (p == FaultPoint.BEFORE_SUCCESS_COMMIT && during.get() == null) {
        clock.advance(LEASE.minusSeconds(1));
        during.set(self.get().start(request("k-held", RunMode.ATOMIC)));
      }
    });
    self.set(runs);

    RunRecord run = runs.start(request("k-held", RunMode.ATOMIC)).run();
    assertThat(during.get().replayed()).isTrue();
    assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(run.attempts()).hasSize(1);
  }

  @Test
  void theLeaseExpiresOnTheClockAndEachWriteRenewsIt() {
    DurableRuns runs = open(crashOnceAt(FaultPoint.AFTER_EVALUATION));
    RunRequest req = request("k-lease", RunMode.ATOMIC);
    assertThatThrownBy(() -> runs.start(req)).isInstanceOf(Crash.class);
    Attempt first = runs.findByKey("k-lease").orElseThrow().currentAttempt();
    assertThat(first.leaseExpiresAt()).isEqualTo(clock.instant().plus(LEASE));

    clock.advance(LEASE.minusMillis(1));
    assertThat(runs.reconcile()).isEmpty();
    clock.advance(Duration.ofMillis(1));
    assertThat(runs.reconcile()).singleElement().satisfies(r -> {
      assertThat(r.status()).isEqualTo(RunStatus.PENDING);
      assertThat(r.currentAttempt().status()).isEqualTo(AttemptStatus.RECOVERED);
    });
  }

  @Test
  void twoProcessesRacingToRetryARunCreateOneAttempt() throws Exception {
    RunRequest req = request("k-race", RunMode.ATOMIC);
    assertThatThrownBy(() -> open(crashOnceAt(FaultPoint.AFTER_EVALUATION)).start(req))
        .isInstanceOf(Crash.class);
    expireLease();
    DurableRuns a = open();
    DurableRuns b = open();
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<RunResult> fa = pool.submit(() -> {
        go.await();
        return a.start(req);
      });
      Future<RunResult> fb = pool.submit(() -> {
        go.await();
        return b.start(req);
      });
      go.countDown();
      RunResult ra = fa.get(60, TimeUnit.SECONDS);
      RunResult rb = fb.get(60, TimeUnit.SECONDS);
      assertThat(List.of(ra.replayed(), rb.replayed())).containsExactlyInAnyOrder(true, false);
    } finally {
      pool.shutdownNow();
    }
    RunRecord run = a.findByKey("k-race").orElseThrow();
    assertThat(run.status()).isEqualTo(RunStatus.SUCCEEDED);
    assertThat(run.attempts()).extracting(Attempt::status)
        .containsExactly(AttemptStatus.RECOVERED, AttemptStatus.SUCCEEDED);
  }

  @Test
  void twoProcessesStartingOneKeyAtOnceRecordOneRun() throws Exception {
    DurableRuns a = open();
    DurableRuns b = open();
    CountDownLatch go = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<RunResult>> fs = new ArrayList<>();
      for (DurableRuns r : List.of(a, b)) {
        fs.add(pool.submit(() -> {
          go.await();
          return r.start(request("k-twin", RunMode.ATOMIC));
        }));
      }
      go.countDown();
      RunResult r0 = fs.get(0).get(60, TimeUnit.SECONDS);
      RunResult r1 = fs.get(1).get(60, TimeUnit.SECONDS);
      assertThat(r0.run().runId()).isEqualTo(r1.run().runId());
      assertThat(List.of(r0.replayed(), r1.replayed())).containsExactlyInAnyOrder(true, false);
    } finally {
      pool.shutdownNow();
    }
    assertThat(a.list()).hasSize(1);
  }

  // ---- the operator's view ----

  @Test
  void listAndShowReportEveryRunWithItsAttempts() {
    DurableRuns runs = open();
    RunRecord one = runs.start(request("k-1", RunMode.ATOMIC)).run();
    clock.advance(Duration.ofSeconds(1));
    RunRecord two = runs.start(request("k-2", RunMode.FORWARD_RECOVERY),
        new CountingTarget()).run();

    assertThat(runs.list()).extracting(RunRecord::runId).containsExactly(two.runId(),
        one.runId());
    RunRecord shown = runs.show(one.runId());
    assertThat(shown).isEqualTo(one);
    assertThatThrownBy(() -> runs.show("nope")).isInstanceOf(UnknownRunException.class);
    assertThatThrownBy(() -> runs.resolve(one.runId(), Resolution.FAILED, "x"))
        .isInstanceOf(RunException.class);
  }

  // ---- helpers ----

  /** A target whose dispatch throws {@code error}. */
  static class FailingTarget implements PublicationTarget {
    final AtomicInteger calls;
    final Exception error;

    FailingTarget(AtomicInteger calls, Exception error) {
      this.calls = calls;
      this.error = error;
    }

    @Override
    public String description() {
      return "failing:test";
    }

    @Override
    public Set<Capability> capabilities() {
      return Set.of(Capability.PUBLICATION);
    }

    @Override
    public PublicationResponse publish(Publication p) throws Exception {
      calls.incrementAndGet();
      throw error;
    }
  }

  Connection connect() throws SQLException {
    return DriverManager.getConnection(url, properties);
  }

  String single(String sql) throws SQLException {
    try (Connection c = connect(); PreparedStatement s = c.prepareStatement(sql);
        ResultSet rs = s.executeQuery()) {
      assertThat(rs.next()).as("a row from %s", sql).isTrue();
      return rs.getString(1);
    }
  }

  long count(String table) {
    try (Connection c = connect();
        PreparedStatement s = c.prepareStatement("SELECT COUNT(*) FROM " + table);
        ResultSet rs = s.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }

  void execute(String sql) {
    try (Connection c = connect(); PreparedStatement s = c.prepareStatement(sql)) {
      s.executeUpdate();
    } catch (SQLException e) {
      throw new AssertionError(e);
    }
  }
}
