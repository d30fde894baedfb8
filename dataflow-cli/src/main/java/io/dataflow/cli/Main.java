package io.dataflow.cli;

import java.io.InputStream;
import java.io.PrintStream;

/** Entry point of {@code bin/dataflow}. */
public final class Main {
  private Main() {}

  /** Runs the command line and exits with its status. */
  public static void main(String[] args) {
    configureProcess();
    int status = Cli.run(args, System.in, System.out, System.err, Environment.system());
    System.out.flush();
    System.exit(status);
  }

  /**
   * What a process of the CLI's own sets before the first command line (never done for an
   * embedded {@link Cli#run}): picocli skips the type converters no option of ours needs.
   */
  static void configureProcess() {
    if (System.getProperty(Commands.CONVERTER_EXCLUDES) == null) {
      System.setProperty(Commands.CONVERTER_EXCLUDES, Commands.UNUSED_CONVERTERS);
    }
  }

  /** For tests: runs without exiting, stdout and stderr as pipes. */
  static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    return Cli.run(args, in, out, err);
  }
}
