package io.dataflow.cli;

import java.io.InputStream;
import java.io.PrintStream;

/** Entry point of {@code bin/dataflow}. */
public final class Main {
  private Main() {}

  /** Runs the command line and exits with its status. */
  public static void main(String[] args) {
    // The process is ours: picocli skips the converters no option of ours needs.
    if (System.getProperty(Commands.CONVERTER_EXCLUDES) == null) {
      System.setProperty(Commands.CONVERTER_EXCLUDES, Commands.UNUSED_CONVERTERS);
    }
    int status = Cli.run(args, System.in, System.out, System.err, Environment.system());
    System.out.flush();
    System.exit(status);
  }

  /** For tests: runs without exiting, stdout and stderr as pipes. */
  static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    return Cli.run(args, in, out, err);
  }
}
