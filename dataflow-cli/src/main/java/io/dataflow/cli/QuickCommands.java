package io.dataflow.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The common forms of {@code run} and {@code live} parsed without picocli, which was most of a
 * short run's start-up (its classes, compiled for Java 5, cannot enter the class-data-sharing
 * archive, and it builds its model of a command by reflection):
 * {@code run SPEC --input-file TRACE [--format text|jsonl] [--no-context-transfer]} and
 * {@code live SPEC [--format text|jsonl] [--no-context-transfer]}, the options in any order,
 * each at most once, as {@code --name value} or {@code --name=value}.
 *
 * <p>Anything else (another option, a repeated one, a bad value, {@code --}, {@code --help}, an
 * argument that starts with {@code -} or is empty, a path the file system rejects) returns null
 * and goes to {@link Commands}, so that help, errors and every other form are picocli's as
 * before. What is accepted here runs exactly as picocli would have run it.
 */
final class QuickCommands {
  private QuickCommands() {}

  /** What picocli's {@code run} passes without {@code --checkpoint-every} (its default). */
  static final long RUN_CHECKPOINT_EVERY = 1000;

  /** The exit status of the command, or null when {@code args} are not a common form. */
  static Integer run(String[] args, Commands.Context ctx) {
    RunOptions options = parse(args);
    if (options == null) {
      return null;
    }
    try {
      return options.inputFile() == null ? Cli.liveCommand(options, ctx)
          : Cli.runCommand(options, ctx);
    } catch (Exception e) {
      return Commands.internalError(e, ctx); // as picocli's execution exception handler
    }
  }

  /**
   * The options of a common form of {@code run} (input file set) or {@code live} (input file
   * null), or null.
   */
  static RunOptions parse(String[] args) {
    if (args.length < 2) {
      return null;
    }
    boolean run = args[0].equals("run");
    if (!run && !args[0].equals("live")) {
      return null;
    }
    String spec = null;
    String inputFile = null;
    String format = null;
    boolean noContextTransfer = false;
    for (int i = 1; i < args.length; i++) {
      String a = args[i];
      if (a.isEmpty()) {
        return null;
      }
      if (a.charAt(0) != '-') {
        if (spec != null) {
          return null;
        }
        spec = a;
        continue;
      }
      int eq = a.indexOf('=');
      String name = eq < 0 ? a : a.substring(0, eq);
      if (name.equals("--no-context-transfer")) {
        if (eq >= 0 || noContextTransfer) {
          return null;
        }
        noContextTransfer = true;
        continue;
      }
      String value;
      if (eq >= 0) {
        value = a.substring(eq + 1);
      } else if (i + 1 < args.length) {
        value = args[++i];
      } else {
        return null;
      }
      if (value.isEmpty() || value.charAt(0) == '-') {
        return null;
      }
      if (name.equals("--format") && format == null
          && (value.equals("text") || value.equals("jsonl"))) {
        format = value;
      } else if (run && name.equals("--input-file") && inputFile == null) {
        inputFile = value;
      } else {
        return null;
      }
    }
    if (spec == null || (run && inputFile == null)) {
      return null;
    }
    try {
      return new RunOptions(Path.of(spec), run ? Path.of(inputFile) : null,
          format == null ? "text" : format, !noContextTransfer, null, null,
          run ? RUN_CHECKPOINT_EVERY : 0, null);
    } catch (InvalidPathException e) {
      return null;
    }
  }
}
