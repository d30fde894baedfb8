package io.dataflow.cli;

import io.dataflow.core.Clock;
import io.dataflow.core.SystemClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * What the command line needs from its surroundings besides its streams: the clock the progress
 * line and the ledger's leases read, whether stdout and stderr are terminals, where SIGTERM and
 * Ctrl-C come from, and the environment variables it honours ({@code DATAFLOW_FAULT},
 * {@code DATAFLOW_LEDGER_USER}, ...). {@link #system()} detects them; tests pass their own (by
 * default: pipes, the JVM's signals and no variables, so nothing but the output is ever
 * written).
 *
 * @param clock the only source of time of the CLI
 * @param stdoutIsTerminal whether stdout is a terminal (the progress line is cleared before
 *     output is written there)
 * @param stderrIsTerminal whether stderr is a terminal (the progress line is shown only then)
 * @param signals where SIGTERM and Ctrl-C come from (the JVM's shutdown hooks by default)
 * @param variables the environment variables
 */
record Environment(Clock clock, boolean stdoutIsTerminal, boolean stderrIsTerminal,
    Signals signals, Map<String, String> variables) {
  Environment {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(signals, "signals");
    variables = Map.copyOf(variables);
  }

  /** An environment whose signals are the JVM's, without variables. */
  Environment(Clock clock, boolean stdoutIsTerminal, boolean stderrIsTerminal) {
    this(clock, stdoutIsTerminal, stderrIsTerminal, Signals.JVM, Map.of());
  }

  /** This environment with {@code signals} instead of its own (tests of a shutdown path). */
  Environment withSignals(Signals signals) {
    return new Environment(clock, stdoutIsTerminal, stderrIsTerminal, signals, variables);
  }

  /** The system clock, stdout and stderr as pipes: what tests and embedded calls get. */
  static Environment pipes() {
    return new Environment(SystemClock.INSTANCE, false, false);
  }

  /** This environment with {@code variables} instead of its own. */
  Environment withVariables(Map<String, String> variables) {
    return new Environment(clock, stdoutIsTerminal, stderrIsTerminal, signals, variables);
  }

  /** The variable {@code name}, or null when it is unset or empty. */
  String variable(String name) {
    String v = variables.get(name);
    return v == null || v.isEmpty() ? null : v;
  }

  /** The running process: the system clock, and what file descriptors 1 and 2 are. */
  static Environment system() {
    boolean console = System.console() != null; // stdin and stdout are both terminals
    return new Environment(SystemClock.INSTANCE, isTerminal(1, console),
        isTerminal(2, console), Signals.JVM, System.getenv());
  }

  /**
   * Whether file descriptor {@code fd} is a terminal: where {@code /proc/self/fd} exists
   * (Linux), by what it links to; elsewhere {@code fallback} ({@code System.console() != null},
   * which Java 17 bases on stdin and stdout).
   */
  static boolean isTerminal(int fd, boolean fallback) {
    Path fds = Path.of("/proc/self/fd");
    if (!Files.isDirectory(fds)) {
      return fallback;
    }
    try {
      return isTerminalDevice(Files.readSymbolicLink(fds.resolve(Integer.toString(fd)))
          .toString());
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false; // closed, or not a link we can read: not a terminal
    }
  }

  /** Whether a {@code /proc/self/fd} link target names a terminal device (not a pipe or file). */
  static boolean isTerminalDevice(String target) {
    return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty")
        || target.equals("/dev/console");
  }
}
