package io.dataflow.cli;

import io.dataflow.monitor.SpecException;
import io.dataflow.runs.DirectoryTarget;
import io.dataflow.runs.DurableRuns;
import io.dataflow.runs.FaultPoint;
import io.dataflow.runs.FaultPoints;
import io.dataflow.runs.IdempotencyConflictException;
import io.dataflow.runs.Invocation;
import io.dataflow.runs.LedgerException;
import io.dataflow.runs.Resolution;
import io.dataflow.runs.RunException;
import io.dataflow.runs.RunInput;
import io.dataflow.runs.RunMode;
import io.dataflow.runs.RunRecord;
import io.dataflow.runs.RunRequest;
import io.dataflow.runs.RunResult;
import io.dataflow.runs.UnknownRunException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;

/**
 * What the {@code dataflow runs} commands do (docs/cli.md#runs): each opens the ledger, calls
 * one method of {@link DurableRuns} and prints the answer ({@link RunsReport}); the run's status
 * is the exit status. No logic of its own beyond that: the rules are the library's.
 */
final class RunsCli {
  /** Exit status: the run's outcome is unknown (dispatch may have started). */
  static final int OUTCOME_UNKNOWN = 3;
  /** Exit status: another attempt holds the run's lease; nothing was run. */
  static final int RUNNING = 4;
  /** Exit status of a process halted at a fault point: what {@code kill -9} leaves (128 + 9). */
  static final int HALTED = 137;
  /** The variable naming the fault point {@code runs start} halts at. */
  static final String FAULT = "DATAFLOW_FAULT";
  /** The ledger's user and password, when the JDBC URL should not carry them. */
  static final String LEDGER_USER = "DATAFLOW_LEDGER_USER";
  static final String LEDGER_PASSWORD = "DATAFLOW_LEDGER_PASSWORD";

  private RunsCli() {}

  /**
   * What {@code runs start} was given, checked by {@link RunsCommands}.
   *
   * @param publishDir the directory target, or null in atomic mode
   * @param fault the fault point to halt at, or null
   */
  record StartOptions(Path spec, Path inputFile, String key, RunMode mode, Path publishDir,
      Duration lease, FaultPoint fault) {}

  /** {@code runs start}: runs or replays, prints {@code run ID STATUS}, exits with its code. */
  static int start(StartOptions o, String ledgerUrl, Commands.Context ctx) {
    PrintStream out = ctx.out();
    PrintStream err = ctx.err();
    if (!Cli.readable(o.inputFile(), err)) {
      return Cli.INVALID;
    }
    String text = Cli.specText(o.spec(), err);
    if (text == null) {
      return Cli.INVALID;
    }
    // The file name, not the path as typed: the request hash stays the same when the run is
    // restarted from another directory (the input is recorded by its absolute path).
    RunRequest request = RunRequest.builder()
        .specification(o.spec().getFileName().toString(), text)
        .input(RunInput.traceFile(o.inputFile()))
        .idempotencyKey(o.key())
        .mode(o.mode())
        .invocation(Invocation.CLI)
        .build();
    FaultPoints faults = o.fault() == null ? FaultPoints.NONE : halting(o.fault(), err);
    try (DurableRuns runs = open(ledgerUrl, ctx, o.lease(), faults)) {
      RunResult result = runs.start(request, o.publishDir() == null ? null
          : DirectoryTarget.of(o.publishDir()));
      RunRecord run = result.run();
      if (o.fault() != null && !result.replayed()) {
        err.println("warning: " + FAULT + "=" + o.fault().id() + " was not reached");
      }
      out.println("run " + run.runId() + " " + RunsReport.status(run.status()));
      out.flush();
      if (result.replayed()) {
        err.println("dataflow: idempotency key '" + o.key() + "' names run " + run.runId()
            + ": replayed, nothing was run or published");
      } else if (run.attempts().size() > 1) {
        err.println("dataflow: run " + run.runId() + " ran as attempt "
            + run.currentAttempt().number() + ": the attempt before it expired before dispatch"
            + " and was closed as recovered");
      }
      return RunsReport.outcome(run, runs, err);
    } catch (SpecException e) {
      err.println(e.getMessage());
      return Cli.INVALID;
    } catch (IdempotencyConflictException e) {
      err.println("dataflow: " + e.getMessage());
      return Cli.INVALID;
    } catch (RunException e) {
      err.println("dataflow: " + e.getMessage());
      return Cli.FAILED;
    }
  }

  /** The hook of {@code DATAFLOW_FAULT}: says where it halts on stderr, then halts. */
  static FaultPoints halting(FaultPoint point, PrintStream err) {
    FaultPoints halt = FaultPoints.haltAt(point, HALTED);
    return (p, runId, attempt) -> {
      if (p == point) {
        err.println("dataflow: " + FAULT + "=" + point.id() + ": halting at " + point.id()
            + " (run " + runId + ", attempt " + attempt + ")");
        err.flush();
      }
      halt.reached(p, runId, attempt);
    };
  }

  /** {@code runs list}: one line per run, newest first. */
  static int list(String ledgerUrl, Commands.Context ctx) {
    return withLedger(ledgerUrl, ctx, runs -> {
      List<RunRecord> all = runs.list();
      if (all.isEmpty()) {
        ctx.err().println("dataflow: no runs in " + runs.ledger());
      }
      RunsReport.list(all).forEach(ctx.out()::println);
      return Cli.OK;
    });
  }

  /** {@code runs show RUN}: the run; for an unresolved one, the warning on stderr. */
  static int show(String runId, String ledgerUrl, Commands.Context ctx) {
    return withLedger(ledgerUrl, ctx, runs -> {
      RunRecord run = runs.show(runId);
      RunsReport.show(run).forEach(ctx.out()::println);
      ctx.out().flush();
      if (run.unresolved()) {
        RunsReport.unresolved(run, runs).forEach(w -> ctx.err().println("warning: " + w));
      }
      return Cli.OK;
    });
  }

  /** {@code runs resolve RUN}: records the operator's decision, prints {@code run ID STATUS}. */
  static int resolve(String runId, Resolution as, String evidence, String ledgerUrl,
      Commands.Context ctx) {
    return withLedger(ledgerUrl, ctx, runs -> {
      RunRecord run;
      try {
        run = runs.resolve(runId, as, evidence);
      } catch (UnknownRunException | LedgerException e) {
        throw e;
      } catch (RunException e) {
        // Not unresolved: the operator's argument does not fit the run.
        ctx.err().println("dataflow: " + e.getMessage());
        return Cli.INVALID;
      }
      ctx.out().println("run " + run.runId() + " " + RunsReport.status(run.status()));
      return Cli.OK;
    });
  }

  /** A command's work with the ledger open. */
  @FunctionalInterface
  private interface LedgerWork {
    int run(DurableRuns runs);
  }

  /**
   * Runs {@code work} over the ledger for a command that only reads or resolves: an unknown
   * run is status 2, a ledger that fails status 1, and the default ledger is not created when
   * it is missing (a command that reads it would only find nothing).
   */
  private static int withLedger(String ledgerUrl, Commands.Context ctx, LedgerWork work) {
    PrintStream err = ctx.err();
    if (ledgerUrl.equals(DurableRuns.DEFAULT_LEDGER_URL)
        && !Files.exists(Path.of("dataflow-runs.mv.db"))) {
      err.println("dataflow: no ledger ./dataflow-runs.mv.db here (runs start creates it;"
          + " --ledger JDBC-URL names another)");
      return Cli.INVALID;
    }
    try (DurableRuns runs = open(ledgerUrl, ctx, DurableRuns.DEFAULT_LEASE, FaultPoints.NONE)) {
      return work.run(runs);
    } catch (UnknownRunException e) {
      err.println("dataflow: " + e.getMessage());
      return Cli.INVALID;
    } catch (RunException e) {
      err.println("dataflow: " + e.getMessage());
      return Cli.FAILED;
    }
  }

  /**
   * Opens the ledger on the CLI's clock, with the user and password of
   * {@code DATAFLOW_LEDGER_USER} and {@code DATAFLOW_LEDGER_PASSWORD} when they are set.
   */
  static DurableRuns open(String ledgerUrl, Commands.Context ctx, Duration lease,
      FaultPoints faults) {
    Properties connection = new Properties();
    String user = ctx.env().variable(LEDGER_USER);
    String password = ctx.env().variable(LEDGER_PASSWORD);
    if (user != null) {
      connection.setProperty("user", user);
    }
    if (password != null) {
      connection.setProperty("password", password);
    }
    return DurableRuns.builder().ledger(ledgerUrl, connection).clock(ctx.env().clock())
        .leaseDuration(lease).faultPoints(faults).open();
  }
}
