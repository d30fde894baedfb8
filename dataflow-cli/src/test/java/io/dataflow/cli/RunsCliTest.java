package io.dataflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.testkit.ManualClock;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dataflow runs} in-process (docs/cli.md#runs): what start, list, show and resolve print,
 * replays, exit statuses and usage errors. The crashes are {@link RunsCrashTest}'s.
 */
class RunsCliTest {
  static final String SPEC = "in x\nout z\nz = default(z[1], 0) + x\n";
  static final String TRACE = "0: x = 1\n1: x = 2\n2: x = 3\n";
  static final String ROWS = "z[0] = Int(1)\nz[1] = Int(3)\nz[2] = Int(6)\n";
  static final Pattern RUN_LINE = Pattern.compile("run ([0-9a-f-]{36}) ([a-z_]+)\n");

  @TempDir
  Path dir;
  Path spec;
  Path input;
  String ledger;

  @BeforeEach
  void files() throws IOException {
    spec = Files.writeString(dir.resolve("sum.dsrv"), SPEC);
    input = Files.writeString(dir.resolve("sum.input"), TRACE);
    ledger = "jdbc:h2:file:" + dir.resolve("ledger");
  }

  /** The command line in {@code env} (pipes, the clock and variables given). */
  static CliTest.Result cli(Environment env, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Cli.run(args, new ByteArrayInputStream(new byte[0]),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), env);
    return new CliTest.Result(status, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  static CliTest.Result cli(String... args) {
    return cli(Environment.pipes(), args);
  }

  /** {@code runs start} of the sum over its trace under {@code key}, plus {@code more}. */
  CliTest.Result start(String key, String... more) {
    return cli(startArgs(key, more));
  }

  String[] startArgs(String key, String... more) {
    String[] args = {"runs", "start", spec.toString(), "--input-file", input.toString(),
        "--idempotency-key", key, "--ledger", ledger};
    String[] all = Arrays.copyOf(args, args.length + more.length);
    System.arraycopy(more, 0, all, args.length, more.length);
    return all;
  }

  /** The run id of a {@code run ID STATUS} line, checking the status. */
  static String runId(CliTest.Result r, String status) {
    Matcher m = RUN_LINE.matcher(r.out());
    assertThat(m.matches()).as("stdout %s (stderr %s)", r.out(), r.err()).isTrue();
    assertThat(m.group(2)).as("status printed").isEqualTo(status);
    return m.group(1);
  }

  /** The publication directories of a directory target. */
  static List<Path> publications(Path target) throws IOException {
    if (!Files.isDirectory(target)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(target)) {
      return s.filter(p -> p.getFileName().toString().startsWith("publication-")).sorted()
          .toList();
    }
  }

  @Test
  void anAtomicRunPrintsItsIdAndStatusAndAReplayOfItsKeyRunsNothing() {
    CliTest.Result first = start("nightly-1");
    assertThat(first.status()).as(first.err()).isZero();
    assertThat(first.err()).isEmpty();
    String id = runId(first, "succeeded");

    CliTest.Result replay = start("nightly-1");
    assertThat(replay.status()).isZero();
    assertThat(replay.out()).isEqualTo(first.out());
    assertThat(replay.err()).isEqualTo("dataflow: idempotency key 'nightly-1' names run " + id
        + ": replayed, nothing was run or published\n");

    CliTest.Result list = cli("runs", "list", "--ledger", ledger);
    assertThat(list).isEqualTo(new CliTest.Result(0,
        id + "  nightly-1  succeeded  attempts=1\n", ""));

    CliTest.Result show = cli("runs", "show", id, "--ledger", ledger);
    assertThat(show.status()).isZero();
    assertThat(show.err()).isEmpty();
    assertThat(show.out()).startsWith("run                 " + id + "\n"
            + "idempotency key     nightly-1\n"
            + "status              succeeded\n"
            + "mode                atomic\n"
            + "specification       sum.dsrv\n"
            + "target              -\n")
        .containsPattern("definition hash     [0-9a-f]{64}\n")
        .containsPattern("request hash        [0-9a-f]{64}\n")
        .containsPattern("provenance          cli on .+, process [0-9]+, dataflow ")
        .contains("rows                3\n")
        .containsPattern("output digest       [0-9a-f]{64}\n")
        .containsPattern("checkpoint          [0-9a-f]{64}\n")
        .contains("external output     none\n")
        .containsPattern("attempts\n  1  succeeded  started [^\n]+  ended [^\n]+\n$");
  }

  @Test
  void aForwardRecoveryRunPublishesOnceAndAReplayNeverPublishesAgain() throws IOException {
    Path target = dir.resolve("out");
    CliTest.Result first = start("nightly-2", "--publish", "dir:" + target);
    assertThat(first.status()).as(first.err()).isZero();
    String id = runId(first, "succeeded");
    List<Path> published = publications(target);
    assertThat(published).hasSize(1);
    assertThat(published.get(0).resolve("rows.txt")).hasContent(ROWS);

    // The publication is taken away: a replay must not dispatch again to put it back.
    deleteTree(target);
    CliTest.Result replay = start("nightly-2", "--publish", "dir:" + target);
    assertThat(replay.status()).isZero();
    assertThat(runId(replay, "succeeded")).isEqualTo(id);
    assertThat(replay.err()).contains("replayed, nothing was run or published");
    assertThat(target).doesNotExist();

    CliTest.Result show = cli("runs", "show", id, "--ledger", ledger);
    assertThat(show.out()).contains("mode                forward-recovery\n")
        .contains("target              dir:" + target + "\n")
        .contains("publication         " + published.get(0).resolve("publication.properties"))
        .contains("materialization     " + published.get(0).resolve("rows.txt"))
        .containsPattern("dispatch started    [0-9]{4}-")
        .containsPattern("publication digest  [0-9a-f]{64}\n")
        .contains("external output     created\n");
    assertThat(show.err()).isEmpty();
  }

  @Test
  void aRunThatFailsExitsOneAndIsRecordedFailed() throws IOException {
    spec = Files.writeString(dir.resolve("div.dsrv"), "in x\nout z\nz = 10 / x\n");
    input = Files.writeString(dir.resolve("div.input"), "0: x = 1\n1: x = 0\n");
    CliTest.Result r = start("div");
    assertThat(r.status()).isEqualTo(1);
    String id = runId(r, "failed");
    assertThat(r.err()).startsWith("dataflow: run " + id + " failed: evaluation failed: ")
        .contains("division by zero");
    assertThat(cli("runs", "list", "--ledger", ledger).out())
        .isEqualTo(id + "  div  failed  attempts=1\n");
    // A replay exits with the recorded status' code.
    CliTest.Result replay = start("div");
    assertThat(replay.status()).isEqualTo(1);
    assertThat(runId(replay, "failed")).isEqualTo(id);
  }

  @Test
  void aSpecificationThatDoesNotCompileIsStatusTwoAndRecordsNothing() throws IOException {
    spec = Files.writeString(dir.resolve("bad.dsrv"), "in x\nout z\nz = y\n");
    CliTest.Result r = start("bad");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("bad.dsrv:3:5: ");
    CliTest.Result list = cli("runs", "list", "--ledger", ledger);
    assertThat(list.status()).isZero();
    assertThat(list.out()).isEmpty();
    assertThat(list.err()).isEqualTo("dataflow: no runs in " + ledger + "\n");
  }

  @Test
  void missingFilesAreStatusTwoAndRecordNothing() {
    input = dir.resolve("none.input");
    CliTest.Result r = start("k");
    assertThat(r).isEqualTo(new CliTest.Result(2, "", input + ": cannot read: no such file\n"));
  }

  @Test
  void aKeyGivenWithAnotherRequestIsStatusTwoAndLeavesItsRun() throws IOException {
    String id = runId(start("shared"), "succeeded");
    input = Files.writeString(dir.resolve("other.input"), "0: x = 5\n");
    CliTest.Result r = start("shared");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("dataflow: idempotency key 'shared' belongs to run " + id);
    assertThat(cli("runs", "list", "--ledger", ledger).out())
        .isEqualTo(id + "  shared  succeeded  attempts=1\n");
  }

  @Test
  void showAndResolveOfARunTheLedgerDoesNotHoldOrThatIsNotUnresolvedAreStatusTwo() {
    String id = runId(start("done"), "succeeded");
    assertThat(cli("runs", "show", "no-such-run", "--ledger", ledger)).isEqualTo(
        new CliTest.Result(2, "", "dataflow: no run 'no-such-run' in the ledger\n"));
    CliTest.Result resolve = cli("runs", "resolve", id, "--as", "failed", "--evidence",
        "looked", "--ledger", ledger);
    assertThat(resolve.status()).isEqualTo(2);
    assertThat(resolve.err()).startsWith("dataflow: run " + id + " is SUCCEEDED, not"
        + " unresolved");
    assertThat(cli("runs", "list", "--ledger", ledger).out()).contains("  succeeded  ");
  }

  @Test
  void theLeaseIsTakenOnTheCommandLinesClockForTheGivenDuration() {
    ManualClock clock = new ManualClock();
    Environment env = new Environment(clock, false, false);
    String id = runId(cli(env, startArgs("leased", "--lease", "5m")), "succeeded");
    Instant at = clock.instant();
    CliTest.Result show = cli(env, "runs", "show", id, "--ledger", ledger);
    assertThat(show.out()).contains("created             " + at + "\n")
        .contains("  1  succeeded  started " + at + "  lease until "
            + at.plus(Duration.ofMinutes(5)) + "  ended " + at + "\n");
  }

  @Test
  void aFaultPointTheRunDoesNotPassIsReportedAndTheRunCompletes() {
    // An atomic run never dispatches: the point is named, checked and not reached.
    Environment env = Environment.pipes().withVariables(Map.of("DATAFLOW_FAULT",
        "before-dispatch"));
    CliTest.Result r = cli(env, startArgs("atomic-fault"));
    assertThat(r.status()).isZero();
    runId(r, "succeeded");
    assertThat(r.err()).isEqualTo("warning: DATAFLOW_FAULT=before-dispatch was not reached\n");
  }

  @Test
  void anUnknownFaultPointIsAUsageErrorNamingThePoints() {
    Environment env = Environment.pipes().withVariables(Map.of("DATAFLOW_FAULT", "mid-air"));
    CliTest.Result r = cli(env, startArgs("k"));
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("dataflow: DATAFLOW_FAULT names no fault point: 'mid-air'"
        + " (the points: after-ledger-begin, after-evaluation, before-checkpoint-commit,"
        + " before-dispatch, dispatch-started, after-dispatch, before-success-commit,"
        + " after-success-commit) (see dataflow --help)\n" + START_USAGE);
    assertThat(dir.resolve("ledger.mv.db")).as("nothing opened").doesNotExist();
  }

  @Test
  void theLedgersUserAndPasswordComeFromTheEnvironmentAndNeverShow() {
    Environment owner = Environment.pipes().withVariables(Map.of("DATAFLOW_LEDGER_USER",
        "operator", "DATAFLOW_LEDGER_PASSWORD", "s3cret-pw"));
    CliTest.Result r = cli(owner, startArgs("with-credentials"));
    assertThat(r.status()).as(r.err()).isZero();
    CliTest.Result stranger = cli(Environment.pipes().withVariables(Map.of(
        "DATAFLOW_LEDGER_USER", "operator", "DATAFLOW_LEDGER_PASSWORD", "wrong-pw")),
        "runs", "list", "--ledger", ledger);
    assertThat(stranger.status()).isEqualTo(1);
    assertThat(stranger.err()).startsWith("dataflow: cannot open the ledger " + ledger)
        .doesNotContain("wrong-pw");
    CliTest.Result list = cli(owner, "runs", "list", "--ledger", ledger);
    assertThat(list.out()).contains("  with-credentials  succeeded  attempts=1\n");
    assertThat(cli(owner, "runs", "show", runId(r, "succeeded"), "--ledger", ledger).out())
        .doesNotContain("s3cret-pw").doesNotContain("operator");
  }

  static final String RUNS_USAGE =
      "Usage: dataflow runs start|list|show|resolve ... [--ledger JDBC-URL]\n";
  static final String START_USAGE = "Usage: dataflow runs start SPEC --input-file F"
      + " --idempotency-key K [--publish dir:PATH] [--mode atomic|forward-recovery]"
      + " [--lease DURATION] [--ledger JDBC-URL]\n";
  static final String LIST_USAGE = "Usage: dataflow runs list [--ledger JDBC-URL]\n";
  static final String SHOW_USAGE = "Usage: dataflow runs show RUN [--ledger JDBC-URL]\n";
  static final String RESOLVE_USAGE = "Usage: dataflow runs resolve RUN --as succeeded|failed"
      + " --evidence TEXT [--ledger JDBC-URL]\n";

  @Test
  void usageErrorsNameTheProblemThenPrintTheUsageLine() {
    String[] start = {"runs", "start", "a.dsrv", "--input-file", "b", "--idempotency-key", "k"};
    String[][] cases = {
        {"runs needs a subcommand: start, list, show or resolve", RUNS_USAGE, "runs"},
        {"unknown command 'runs frobnicate'", RUNS_USAGE, "runs", "frobnicate"},
        {"runs start needs a SPEC file", START_USAGE, "runs", "start"},
        {"runs start needs --input-file F", START_USAGE,
            "runs", "start", "a.dsrv", "--idempotency-key", "k"},
        {"runs start needs --idempotency-key K", START_USAGE,
            "runs", "start", "a.dsrv", "--input-file", "b"},
        {"--idempotency-key must have 1 to 256 characters and not be blank", START_USAGE,
            "runs", "start", "a.dsrv", "--input-file", "b", "--idempotency-key", " "},
        {"--publish must be dir:PATH, not 'table:t'", START_USAGE, "--publish", "table:t"},
        {"--mode must be atomic or forward-recovery, not 'eager'", START_USAGE,
            "--mode", "eager"},
        {"--mode forward-recovery needs --publish dir:PATH", START_USAGE,
            "--mode", "forward-recovery"},
        {"--publish needs --mode forward-recovery (an atomic run publishes nothing)",
            START_USAGE, "--publish", "dir:out", "--mode", "atomic"},
        {"--lease must be a positive duration such as 5s or 500ms, not '0s'", START_USAGE,
            "--lease", "0s"},
        {"--ledger must be a JDBC URL (jdbc:h2:..., jdbc:postgresql:...), not 'x.db'",
            LIST_USAGE, "runs", "list", "--ledger", "x.db"},
        {"unexpected argument 'extra'", LIST_USAGE, "runs", "list", "extra"},
        {"runs show needs RUN", SHOW_USAGE, "runs", "show"},
        {"runs resolve needs --as succeeded|failed", RESOLVE_USAGE,
            "runs", "resolve", "r", "--evidence", "e"},
        {"--as must be succeeded or failed, not 'maybe'", RESOLVE_USAGE,
            "runs", "resolve", "r", "--as", "maybe", "--evidence", "e"},
        {"--evidence must say what the sink showed", RESOLVE_USAGE,
            "runs", "resolve", "r", "--as", "failed", "--evidence", " "},
    };
    for (String[] c : cases) {
      String[] args = Arrays.copyOfRange(c, 2, c.length);
      if (!args[0].equals("runs")) { // options added to a complete start
        String[] all = Arrays.copyOf(start, start.length + args.length);
        System.arraycopy(args, 0, all, start.length, args.length);
        args = all;
      }
      CliTest.Result r = cli(args);
      String what = String.join(" ", args);
      assertThat(r.status()).as(what).isEqualTo(2);
      assertThat(r.out()).as(what).isEmpty();
      assertThat(r.err()).as(what).isEqualTo("dataflow: " + c[0] + " (see dataflow --help)\n"
          + c[1]);
    }
  }

  @Test
  void everyRunsCommandHasItsOwnHelpWithTheExitStatuses() {
    for (String command : new String[] {"start", "list", "show", "resolve"}) {
      CliTest.Result help = cli("runs", command, "--help");
      assertThat(help.status()).as(command).isZero();
      assertThat(help.err()).as(command).isEmpty();
      assertThat(help.out()).as(command).startsWith("Usage: dataflow runs " + command + " ")
          .contains("--ledger=JDBC-URL").contains("-h, --help")
          .contains("3 outcome unknown");
    }
    assertThat(cli("runs", "--help").out()).startsWith(RUNS_USAGE);
    assertThat(cli("--help").out()).contains("runs start SPEC --input-file F");
  }

  static void deleteTree(Path root) throws IOException {
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
