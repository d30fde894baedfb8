package io.dataflow.cli;

import io.dataflow.cli.Commands.Context;
import io.dataflow.cli.Commands.UsageException;
import io.dataflow.runs.DurableRuns;
import io.dataflow.runs.FaultPoint;
import io.dataflow.runs.Resolution;
import io.dataflow.runs.RunMode;
import io.dataflow.runs.RunRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The {@code dataflow runs} commands as picocli parses them: {@code start}, {@code list},
 * {@code show} and {@code resolve} over a durable-runs ledger (docs/cli.md#runs). Usage errors
 * are {@link Commands}' (exit status 2, the project's wording); what the commands do is
 * {@link RunsCli}'s.
 */
final class RunsCommands {
  static final String EXIT_STATUS = "%nExit status: 0 the run succeeded, 1 it failed (or the"
      + " ledger did), 2 the command line,%n             the spec or an argument is invalid,"
      + " 3 outcome unknown (inspect the sink,%n             then runs resolve), 4 still"
      + " running under another attempt.";

  private RunsCommands() {}

  /** {@code dataflow runs} with its subcommands. */
  static CommandLine commandLine(Context ctx) {
    return new CommandLine(new Runs())
        .addSubcommand("start", new Start(ctx))
        .addSubcommand("list", new ListRuns(ctx))
        .addSubcommand("show", new Show(ctx))
        .addSubcommand("resolve", new Resolve(ctx));
  }

  /** What every {@code runs} command shares: the ledger and {@code --help}. */
  static final class LedgerOption {
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;
    String url = DurableRuns.DEFAULT_LEDGER_URL;
    @Option(names = {"-h", "--help"}, usageHelp = true, order = 20,
        description = "print this help and exit")
    boolean help;

    @Option(names = "--ledger", paramLabel = "JDBC-URL", order = 19,
        description = "the ledger: jdbc:h2:... or jdbc:postgresql:... (default: the H2 file"
            + " database ./dataflow-runs)")
    void ledger(String value) {
      if (!value.startsWith("jdbc:")) {
        throw new UsageException(spec, "--ledger must be a JDBC URL (jdbc:h2:...,"
            + " jdbc:postgresql:...), not '" + value + "'");
      }
      url = value;
    }
  }

  /** {@code dataflow runs}: without a subcommand, a usage error. */
  @Command(name = "runs",
      customSynopsis = "dataflow runs start|list|show|resolve ... [--ledger JDBC-URL]",
      description = {"Durable runs: a specification over a finite input, recorded in a ledger,"
          + " published at most once (docs/durable-runs.md)."})
  static final class Runs implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "print this help and exit")
    boolean help;

    @Override
    public Integer call() {
      throw new UsageException(spec, "runs needs a subcommand: start, list, show or resolve");
    }
  }

  @Command(name = "start", sortOptions = false, footer = EXIT_STATUS,
      customSynopsis = {"dataflow runs start SPEC --input-file F --idempotency-key K",
          "                    [--publish dir:PATH] [--mode atomic|forward-recovery]",
          "                    [--lease DURATION] [--ledger JDBC-URL]"},
      description = {"Runs SPEC over the trace file F as a durable run under the idempotency"
          + " key K, and prints its id and final status: run ID STATUS.",
          "With --publish, the rows are published to the directory PATH at most once"
              + " (forward recovery); without it nothing leaves the run (atomic).",
          "A key that names an existing run prints that run's status and exits with its code,"
              + " without running or publishing anything; a run whose attempt expired before"
              + " dispatch is retried under a new attempt.",
          "DATAFLOW_FAULT=<point> halts the process at that fault point, as a crash would"
              + " (for crash tests)."})
  static final class Start implements Callable<Integer> {
    private final Context ctx;
    @Spec
    CommandSpec spec;
    @Parameters(index = "0", paramLabel = "SPEC", description = "the specification file")
    Path specFile;
    @Option(names = "--input-file", paramLabel = "F", required = true, order = 1,
        description = "the trace file")
    Path inputFile;
    @Option(names = "--idempotency-key", paramLabel = "K", required = true, order = 2,
        description = "the run's stable key: a second start with it returns the first run")
    String key;
    private Path publishDir;
    private RunMode mode;
    private Duration lease = DurableRuns.DEFAULT_LEASE;
    @Mixin
    LedgerOption ledger;

    Start(Context ctx) {
      this.ctx = ctx;
    }

    @Option(names = "--publish", paramLabel = "dir:PATH", order = 3,
        description = "publish the rows into the directory PATH (forward recovery)")
    void publish(String value) {
      if (!value.startsWith("dir:") || value.length() == "dir:".length()) {
        throw new UsageException(spec, "--publish must be dir:PATH, not '" + value + "'");
      }
      publishDir = Path.of(value.substring("dir:".length()));
    }

    @Option(names = "--mode", paramLabel = "atomic|forward-recovery", order = 4,
        description = "atomic (the default without --publish) or forward-recovery (with it)")
    void mode(String value) {
      switch (value) {
        case "atomic" -> mode = RunMode.ATOMIC;
        case "forward-recovery" -> mode = RunMode.FORWARD_RECOVERY;
        default -> throw new UsageException(spec,
            "--mode must be atomic or forward-recovery, not '" + value + "'");
      }
    }

    @Option(names = "--lease", paramLabel = "DURATION", order = 5,
        description = "the attempt's lease, renewed as it works (2m); another process takes an"
            + " expired attempt over")
    void lease(String value) {
      lease = Commands.checkDuration(spec, "--lease", value);
    }

    @Override
    public Integer call() {
      if (key.isBlank() || key.length() > RunRequest.MAX_KEY_LENGTH) {
        throw new UsageException(spec, "--idempotency-key must have 1 to "
            + RunRequest.MAX_KEY_LENGTH + " characters and not be blank");
      }
      RunMode m = mode != null ? mode
          : publishDir != null ? RunMode.FORWARD_RECOVERY : RunMode.ATOMIC;
      if (m == RunMode.FORWARD_RECOVERY && publishDir == null) {
        throw new UsageException(spec, "--mode forward-recovery needs --publish dir:PATH");
      }
      if (m == RunMode.ATOMIC && publishDir != null) {
        throw new UsageException(spec, "--publish needs --mode forward-recovery (an atomic run"
            + " publishes nothing)");
      }
      FaultPoint fault = faultPoint(spec, ctx.env().variable(RunsCli.FAULT));
      return RunsCli.start(new RunsCli.StartOptions(specFile, inputFile, key, m, publishDir,
          lease, fault), ledger.url, ctx);
    }
  }

  /**
   * The fault point {@code DATAFLOW_FAULT} names, null when it is unset; a name that is no
   * point is a usage error listing them.
   */
  static FaultPoint faultPoint(CommandSpec spec, String name) {
    if (name == null) {
      return null;
    }
    return FaultPoint.byId(name).orElseThrow(() -> new UsageException(spec, RunsCli.FAULT
        + " names no fault point: '" + name + "' (the points: " + Arrays.stream(
            FaultPoint.values()).map(FaultPoint::id).collect(Collectors.joining(", ")) + ")"));
  }

  @Command(name = "list", footer = EXIT_STATUS,
      customSynopsis = "dataflow runs list [--ledger JDBC-URL]",
      description = {"Prints one line per run, newest first: id, idempotency key, status and"
          + " attempts, and UNRESOLVED for a run whose outcome is unknown."})
  static final class ListRuns implements Callable<Integer> {
    private final Context ctx;
    @Mixin
    LedgerOption ledger;

    ListRuns(Context ctx) {
      this.ctx = ctx;
    }

    @Override
    public Integer call() {
      return RunsCli.list(ledger.url, ctx);
    }
  }

  @Command(name = "show", footer = EXIT_STATUS,
      customSynopsis = "dataflow runs show RUN [--ledger JDBC-URL]",
      description = {"Prints a run: its hashes, digests, references and attempts. For an"
          + " unresolved run, a warning on stderr with the idempotency key and the output"
          + " digest to inspect the sink with."})
  static final class Show implements Callable<Integer> {
    private final Context ctx;
    @Parameters(index = "0", paramLabel = "RUN", description = "the run's id")
    String runId;
    @Mixin
    LedgerOption ledger;

    Show(Context ctx) {
      this.ctx = ctx;
    }

    @Override
    public Integer call() {
      return RunsCli.show(runId, ledger.url, ctx);
    }
  }

  @Command(name = "resolve", sortOptions = false, footer = EXIT_STATUS,
      customSynopsis = {"dataflow runs resolve RUN --as succeeded|failed --evidence TEXT",
          "                    [--ledger JDBC-URL]"},
      description = {"Records an operator's decision about an unresolved run, after inspecting"
          + " the sink: the publication is there (succeeded) or not (failed), with the"
          + " evidence. The run keeps that status for good."})
  static final class Resolve implements Callable<Integer> {
    private final Context ctx;
    @Spec
    CommandSpec spec;
    @Parameters(index = "0", paramLabel = "RUN", description = "the run's id")
    String runId;
    private Resolution as;
    @Option(names = "--evidence", paramLabel = "TEXT", required = true, order = 2,
        description = "what the sink showed (recorded as given: no credentials)")
    String evidence;
    @Mixin
    LedgerOption ledger;

    Resolve(Context ctx) {
      this.ctx = ctx;
    }

    @Option(names = "--as", paramLabel = "succeeded|failed", required = true, order = 1,
        description = "succeeded: the publication is in the sink; failed: it is not")
    void as(String value) {
      switch (value) {
        case "succeeded" -> as = Resolution.SUCCEEDED;
        case "failed" -> as = Resolution.FAILED;
        default -> throw new UsageException(spec,
            "--as must be succeeded or failed, not '" + value + "'");
      }
    }

    @Override
    public Integer call() {
      if (evidence.isBlank()) {
        throw new UsageException(spec, "--evidence must say what the sink showed");
      }
      return RunsCli.resolve(runId, as, evidence, ledger.url, ctx);
    }
  }
}
