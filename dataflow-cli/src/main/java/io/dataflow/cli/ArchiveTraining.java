package io.dataflow.cli;

import java.io.ByteArrayInputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What the build runs once, in the JVM that writes {@code bin/dataflow}'s class-data-sharing
 * archive (docs/cli.md#the-launcher): the commands people start most, {@code run} and
 * {@code live} in both output formats and {@code check}, on a small specification, so that the
 * classes they load are in the archive. Not a command of the CLI; its output is discarded.
 */
public final class ArchiveTraining {
  private ArchiveTraining() {}

  /**
   * Runs the commands on {@code SPEC} (one input {@code x} of integers) and the trace file
   * {@code TRACE}; exits with status 1, and so leaves no archive, when one of them fails.
   */
  public static void main(String[] args) {
    if (args.length != 2) {
      System.err.println("usage: ArchiveTraining SPEC TRACE");
      System.exit(Cli.INVALID);
    }
    Main.configureProcess();
    int status = train(args[0], args[1]);
    if (status != Cli.OK) {
      System.exit(status);
    }
  }

  /** Runs each command; the status of the first that fails (saying so on stderr), or 0. */
  static int train(String spec, String trace) {
    String ticks = "{\"x\": 1}\n{\"x\": 2}\n";
    List<List<String>> commands = List.of(
        List.of("run", spec, "--input-file", trace),
        List.of("run", spec, "--input-file", trace, "--format", "jsonl"),
        List.of("live", spec),
        List.of("live", spec, "--format", "jsonl"),
        List.of("check", spec));
    PrintStream discard = new PrintStream(OutputStream.nullOutputStream(), true,
        StandardCharsets.UTF_8);
    for (List<String> command : commands) {
      int status = Cli.run(command.toArray(new String[0]),
          new ByteArrayInputStream(ticks.getBytes(StandardCharsets.UTF_8)), discard, System.err);
      if (status != Cli.OK) {
        System.err.println("ArchiveTraining: " + String.join(" ", command) + ": exit status "
            + status);
        return Cli.FAILED;
      }
    }
    return Cli.OK;
  }
}
