package io.dataflow.cli;

import io.dataflow.runs.Attempt;
import io.dataflow.runs.DirectoryTarget;
import io.dataflow.runs.DurableRuns;
import io.dataflow.runs.PublicationResponse;
import io.dataflow.runs.RunException;
import io.dataflow.runs.RunMode;
import io.dataflow.runs.RunRecord;
import io.dataflow.runs.RunStatus;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * How the {@code runs} commands print a run (docs/cli.md#runs): the lines of {@code list} and
 * {@code show}, the warning about an unresolved run, and the exit status of a run's status.
 * Thread-safety: stateless.
 */
final class RunsReport {
  private static final int LABEL = 20;

  private RunsReport() {}

  /** A status as printed: {@code succeeded}, {@code outcome_unknown}, ... */
  static String status(RunStatus status) {
    return status.name().toLowerCase(Locale.ROOT);
  }

  /** A mode as the command line names it: {@code atomic}, {@code forward-recovery}. */
  static String mode(RunMode mode) {
    return mode.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * The exit status of the run's status (0 succeeded, 1 failed, 3 outcome unknown, 4 running),
   * after saying on {@code err} what an operator needs to know about anything but a success
   * ({@code runs} inspects a directory target for an unresolved run).
   */
  static int outcome(RunRecord run, DurableRuns runs, PrintStream err) {
    switch (run.status()) {
      case SUCCEEDED:
        return Cli.OK;
      case FAILED:
        err.println("dataflow: run " + run.runId() + " failed: " + (run.resolution() != null
            ? "resolved by an operator: " + run.resolutionEvidence() : run.failure()));
        return Cli.FAILED;
      case OUTCOME_UNKNOWN:
        unresolved(run, runs).forEach(w -> err.println("warning: " + w));
        return RunsCli.OUTCOME_UNKNOWN;
      case RUNNING:
      case PENDING:
        Attempt a = run.currentAttempt();
        err.println("dataflow: run " + run.runId() + " is " + status(run.status())
            + ": attempt " + a.number() + " holds its lease until " + a.leaseExpiresAt()
            + "; nothing was run");
        return RunsCli.RUNNING;
      default:
        throw new IllegalStateException("a run status without an exit status: "
            + run.status());
    }
  }

  /**
   * One line per run: id, idempotency key, status, attempts, and {@code UNRESOLVED} for a run
   * whose outcome is unknown; the columns aligned.
   */
  static List<String> list(List<RunRecord> runs) {
    int key = 0;
    int status = 0;
    for (RunRecord r : runs) {
      key = Math.max(key, r.idempotencyKey().length());
      status = Math.max(status, status(r.status()).length());
    }
    List<String> lines = new ArrayList<>();
    for (RunRecord r : runs) {
      String line = r.runId() + "  " + pad(r.idempotencyKey(), key) + "  "
          + pad(status(r.status()), status) + "  attempts=" + r.attempts().size()
          + (r.unresolved() ? "  UNRESOLVED" : "");
      lines.add(line);
    }
    return lines;
  }

  /** Everything the ledger holds about the run, one {@code label value} line each. */
  static List<String> show(RunRecord r) {
    List<String> lines = new ArrayList<>();
    line(lines, "run", r.runId());
    line(lines, "idempotency key", r.idempotencyKey());
    line(lines, "status", status(r.status()) + (r.unresolved() ? "  UNRESOLVED" : ""));
    line(lines, "mode", mode(r.mode()));
    line(lines, "specification", r.specificationName());
    line(lines, "target", r.target());
    line(lines, "definition hash", r.definitionHash());
    line(lines, "request hash", r.requestHash());
    line(lines, "access digest", r.accessDigest());
    line(lines, "provenance", r.provenance() == null ? null
        : r.provenance().invocation().name().toLowerCase(Locale.ROOT) + " on "
            + r.provenance().host() + ", process " + r.provenance().process() + ", dataflow "
            + r.provenance().libraryVersion());
    line(lines, "rows", r.rowCount());
    line(lines, "output digest", r.outputDigest());
    line(lines, "source digest", r.sourceDigest());
    line(lines, "publication digest", r.publicationDigest());
    line(lines, "dispatch started", r.durableMutationAt());
    line(lines, "publication", r.response() == null ? null : r.response().publication());
    line(lines, "datasource", r.response() == null ? null : r.response().datasource());
    line(lines, "materialization", r.response() == null ? null
        : r.response().materialization());
    line(lines, "checkpoint", r.checkpointHash());
    line(lines, "external output", r.externalOutput() == null ? null
        : r.externalOutput().name().toLowerCase(Locale.ROOT));
    line(lines, "failure", r.failure());
    line(lines, "resolution", r.resolution() == null ? null
        : r.resolution().name().toLowerCase(Locale.ROOT) + ": " + r.resolutionEvidence());
    line(lines, "created", r.createdAt());
    line(lines, "updated", r.updatedAt());
    lines.add("attempts");
    for (Attempt a : r.attempts()) {
      lines.add("  " + a.number() + "  " + a.status().name().toLowerCase(Locale.ROOT)
          + "  started " + a.startedAt() + "  lease until " + a.leaseExpiresAt()
          + (a.endedAt() == null ? "" : "  ended " + a.endedAt())
          + (a.note() == null ? "" : "  " + a.note()));
    }
    return lines;
  }

  /**
   * What an operator does about an unresolved run: the sink to inspect with the idempotency key
   * and the recorded output digest, and the command that records the decision. For a
   * directory target, also what the directory holds (read only, through {@code runs}).
   */
  static List<String> unresolved(RunRecord r, DurableRuns runs) {
    List<String> lines = new ArrayList<>();
    lines.add("run " + r.runId() + " is UNRESOLVED: dispatch to " + r.target()
        + (r.durableMutationAt() == null ? " may have started"
            : " started at " + r.durableMutationAt())
        + " and no conclusive response was recorded; it is never retried automatically");
    lines.add("inspect the sink for idempotency key '" + r.idempotencyKey()
        + "' and output digest " + r.outputDigest());
    if (r.target() != null && r.target().startsWith("dir:")
        && r.outputDigest() != null) {
      lines.add(inspection(r, runs));
    }
    lines.add("then record what it holds: dataflow runs resolve " + r.runId()
        + " --as succeeded|failed --evidence TEXT");
    return lines;
  }

  /** What the run's directory target holds under its key and digest. */
  private static String inspection(RunRecord r, DurableRuns runs) {
    try {
      Optional<PublicationResponse> found = runs.inspect(r.runId(),
          DirectoryTarget.of(Path.of(r.target().substring("dir:".length()))));
      return found.map(p -> r.target() + " holds a publication of this key and digest: "
          + p.publication()).orElse(r.target() + " holds no publication of this key and"
              + " digest");
    } catch (RunException e) {
      return "cannot inspect " + r.target() + ": " + e.getMessage();
    }
  }

  private static void line(List<String> lines, String label, Object value) {
    lines.add(pad(label, LABEL) + (value == null ? "-" : value.toString()));
  }

  private static String pad(String s, int width) {
    StringBuilder sb = new StringBuilder(s);
    while (sb.length() < width) {
      sb.append(' ');
    }
    return sb.toString();
  }
}
