package io.dataflow.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.dataflow.core.SystemClock;
import io.dataflow.runs.AttemptStatus;
import io.dataflow.runs.DurableRuns;
import io.dataflow.runs.FaultPoint;
import io.dataflow.runs.RunRecord;
import io.dataflow.runs.RunStatus;
import io.dataflow.testkit.ManualClock;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A crash at every fault point, then a restart and a replay (issue 18 §5, docs/durable-runs.md):
 * {@code dataflow runs start} runs in a child JVM started from this module's class path and is
 * halted at the point by {@code DATAFLOW_FAULT} ({@code Runtime.halt}: no finally block, no
 * shutdown hook). The restart is another child JVM. The crashed attempt's lease expires without
 * waiting: the test looks at the ledger once on a {@link ManualClock} a day ahead, which closes
 * the expired attempt as the next look of any process after the lease would.
 */
class RunsCrashTest {
  private static final String KEY = "nightly-2026-12-01";
  private static final Duration CHILD_TIMEOUT = Duration.ofSeconds(60);

  @TempDir
  Path dir;
  Path spec;
  Path input;
  Path target;
  String ledger;

  record Child(int status, String out, String err) {}

  @BeforeEach
  void files() throws IOException {
    spec = Files.writeString(dir.resolve("sum.dsrv"), RunsCliTest.SPEC);
    input = Files.writeString(dir.resolve("sum.input"), RunsCliTest.TRACE);
    target = dir.resolve("published");
    ledger = "jdbc:h2:file:" + dir.resolve("ledger");
  }

  /** Points before the durable-mutation mark: the crashed attempt is proven absent. */
  private static boolean beforeDispatch(FaultPoint p) {
    return p.compareTo(FaultPoint.DISPATCH_STARTED) < 0;
  }

  @ParameterizedTest(name = "forward recovery, crash at {0}")
  @EnumSource(FaultPoint.class)
  void forwardRecoveryCrashThenRestartAndReplay(FaultPoint point) throws Exception {
    String[] start = {"runs", "start", spec.toString(), "--input-file", input.toString(),
        "--idempotency-key", KEY, "--publish", "dir:" + target, "--ledger", ledger};
    Child crash = child(Map.of("DATAFLOW_FAULT", point.id()), start);
    String runId = assertHaltedAt(point, crash);
    RunRecord crashed = read(ledger);
    assertThat(crashed.runId()).isEqualTo(runId);
    assertThat(crashed.durableMutation()).as("dispatch mark").isEqualTo(!beforeDispatch(point));
    int publishedAtCrash = RunsCliTest.publications(target).size();
    assertThat(publishedAtCrash).as("publications at the crash")
        .isEqualTo(point.compareTo(FaultPoint.AFTER_DISPATCH) >= 0 ? 1 : 0);

    if (point == FaultPoint.AFTER_SUCCESS_COMMIT) {
      assertThat(crashed.status()).isEqualTo(RunStatus.SUCCEEDED);
      Child restart = child(Map.of(), start);
      assertThat(restart.status()).as(restart.err()).isZero();
      assertThat(restart.out()).isEqualTo("run " + runId + " succeeded\n");
      assertThat(restart.err()).contains("replayed, nothing was run or published");
      assertThat(RunsCliTest.publications(target)).hasSize(1);
      return;
    }
    assertThat(crashed.status()).isEqualTo(RunStatus.RUNNING);
    assertThat(crashed.currentAttempt().status()).isEqualTo(AttemptStatus.RUNNING);

    // A replay while the crashed attempt's lease runs: the run is still someone's, nothing runs.
    CliTest.Result early = RunsCliTest.cli(start);
    assertThat(early.status()).as(early.err()).isEqualTo(RunsCli.RUNNING);
    assertThat(early.out()).isEqualTo("run " + runId + " running\n");
    assertThat(RunsCliTest.publications(target)).hasSize(publishedAtCrash);

    expireLeases(ledger);
    Child restart = child(Map.of(), start);
    if (beforeDispatch(point)) {
      // Proven absent: closed as recovered, retried under attempt 2, published exactly once.
      assertThat(restart.status()).as(restart.err()).isZero();
      assertThat(restart.out()).isEqualTo("run " + runId + " succeeded\n");
      assertThat(restart.err()).contains("ran as attempt 2");
      RunRecord run = read(ledger);
      assertThat(run.attempts()).extracting(a -> a.status())
          .containsExactly(AttemptStatus.RECOVERED, AttemptStatus.SUCCEEDED);
      assertThat(RunsCliTest.publications(target)).hasSize(1);
      assertThat(RunsCliTest.publications(target).get(0).resolve("rows.txt"))
          .hasContent(RunsCliTest.ROWS);
      assertThat(RunsCliTest.publications(target).get(0).resolve("publication.properties"))
          .content().contains("run-id=" + runId);
      return;
    }
    // At or after dispatch: outcome unknown, never retried, published at most once.
    RunRecord run = read(ledger);
    assertThat(restart.status()).as(restart.err()).isEqualTo(RunsCli.OUTCOME_UNKNOWN);
    assertThat(restart.out()).isEqualTo("run " + runId + " outcome_unknown\n");
    assertThat(restart.err()).contains("replayed, nothing was run or published")
        .contains("inspect the sink for idempotency key '" + KEY + "' and output digest "
            + run.outputDigest());
    assertThat(run.outputDigest()).matches("[0-9a-f]{64}");
    assertThat(run.attempts()).extracting(a -> a.status())
        .containsExactly(AttemptStatus.ABANDONED);
    assertThat(RunsCliTest.publications(target)).hasSize(publishedAtCrash);
    assertOperatorResolves(run, publishedAtCrash == 1, start);
  }

  /** The operator's view and decision of an unresolved run, then its replay. */
  private void assertOperatorResolves(RunRecord run, boolean published, String[] start)
      throws IOException {
    String id = run.runId();
    CliTest.Result list = RunsCliTest.cli("runs", "list", "--ledger", ledger);
    assertThat(list.out()).isEqualTo(id + "  " + KEY + "  outcome_unknown  attempts=1"
        + "  UNRESOLVED\n");
    CliTest.Result show = RunsCliTest.cli("runs", "show", id, "--ledger", ledger);
    assertThat(show.status()).isZero();
    assertThat(show.out()).contains("status              outcome_unknown  UNRESOLVED\n")
        .contains("external output     unknown\n");
    assertThat(show.err()).contains("warning: run " + id + " is UNRESOLVED: dispatch to dir:"
            + target + " started at ")
        .contains("warning: inspect the sink for idempotency key '" + KEY
            + "' and output digest " + run.outputDigest() + "\n")
        .contains(published ? "warning: dir:" + target + " holds a publication of this key and"
            + " digest: " : "warning: dir:" + target + " holds no publication of this key and"
            + " digest\n")
        .endsWith("warning: then record what it holds: dataflow runs resolve " + id
            + " --as succeeded|failed --evidence TEXT\n");

    String as = published ? "succeeded" : "failed";
    CliTest.Result resolve = RunsCliTest.cli("runs", "resolve", id, "--as", as, "--evidence",
        "the operator looked in " + target, "--ledger", ledger);
    assertThat(resolve).isEqualTo(new CliTest.Result(0, "run " + id + " " + as + "\n", ""));
    CliTest.Result replay = RunsCliTest.cli(start);
    assertThat(replay.status()).isEqualTo(published ? 0 : 1);
    assertThat(replay.out()).isEqualTo("run " + id + " " + as + "\n");
    assertThat(RunsCliTest.publications(target)).hasSize(published ? 1 : 0);
    assertThat(read(ledger).resolutionEvidence())
        .isEqualTo("the operator looked in " + target);
  }

  /**
   * Atomic mode on the default ledger ({@code ./dataflow-runs} in the child's directory): every
   * crash before the success commit is retried under a new attempt.
   */
  @ParameterizedTest(name = "atomic, crash at {0}")
  @EnumSource(value = FaultPoint.class, names = {"AFTER_LEDGER_BEGIN", "AFTER_EVALUATION",
      "BEFORE_SUCCESS_COMMIT", "AFTER_SUCCESS_COMMIT"})
  void atomicCrashOnTheDefaultLedgerThenRestart(FaultPoint point) throws Exception {
    String[] start = {"runs", "start", spec.toString(), "--input-file", input.toString(),
        "--idempotency-key", KEY};
    String defaultLedger = "jdbc:h2:file:" + dir.resolve("dataflow-runs");
    String runId = assertHaltedAt(point, child(Map.of("DATAFLOW_FAULT", point.id()), start));
    assertThat(dir.resolve("dataflow-runs.mv.db")).as("the default ledger").exists();
    boolean succeeded = point == FaultPoint.AFTER_SUCCESS_COMMIT;
    assertThat(read(defaultLedger).status())
        .isEqualTo(succeeded ? RunStatus.SUCCEEDED : RunStatus.RUNNING);
    expireLeases(defaultLedger);
    Child restart = child(Map.of(), start);
    assertThat(restart.status()).as(restart.err()).isZero();
    assertThat(restart.out()).isEqualTo("run " + runId + " succeeded\n");
    RunRecord run = read(defaultLedger);
    assertThat(run.attempts()).extracting(a -> a.status()).containsExactly(succeeded
        ? new AttemptStatus[] {AttemptStatus.SUCCEEDED}
        : new AttemptStatus[] {AttemptStatus.RECOVERED, AttemptStatus.SUCCEEDED});
    assertThat(run.rowCount()).isEqualTo(3);
    assertThat(target).as("an atomic run publishes nothing").doesNotExist();
  }

  /** The child halted at {@code point}: status 137, nothing on stdout; returns the run id. */
  private static String assertHaltedAt(FaultPoint point, Child crash) {
    assertThat(crash.status()).as("exit status (stderr: %s)", crash.err())
        .isEqualTo(RunsCli.HALTED);
    assertThat(crash.out()).as("a crash prints no status").isEmpty();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("dataflow: DATAFLOW_FAULT="
        + point.id() + ": halting at " + point.id() + " \\(run ([0-9a-f-]{36}), attempt 1\\)\n")
        .matcher(crash.err());
    assertThat(m.matches()).as("stderr of the crash: %s", crash.err()).isTrue();
    return m.group(1);
  }

  /** The one run of the ledger, read now (on the system clock, as the CLI would). */
  private static RunRecord read(String url) {
    try (DurableRuns runs = DurableRuns.open(url)) {
      List<RunRecord> all = runs.list();
      assertThat(all).hasSize(1);
      return all.get(0);
    }
  }

  /** Closes every expired attempt, looking on a clock a day past every lease. */
  private static void expireLeases(String url) {
    ManualClock later = new ManualClock(0, SystemClock.INSTANCE.instant().plus(Duration.ofDays(1)));
    try (DurableRuns runs = DurableRuns.builder().ledger(url).clock(later).open()) {
      runs.reconcile();
    }
  }

  /**
   * Runs {@code dataflow args} in a child JVM in {@link #dir}, from this JVM's class path, with
   * {@code env} added to the environment; waits for it (bounded).
   */
  private Child child(Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
        "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    command.addAll(Arrays.asList(args));
    File out = Files.createTempFile(dir, "stdout", ".txt").toFile();
    File err = Files.createTempFile(dir, "stderr", ".txt").toFile();
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
        .redirectOutput(out).redirectError(err);
    pb.environment().remove(RunsCli.FAULT);
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(CHILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail("dataflow " + String.join(" ", args) + " did not end within " + CHILD_TIMEOUT);
    }
    return new Child(p.exitValue(), Files.readString(out.toPath(), StandardCharsets.UTF_8),
        Files.readString(err.toPath(), StandardCharsets.UTF_8));
  }
}
