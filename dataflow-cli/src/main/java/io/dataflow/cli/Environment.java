package io.dataflow.cli;

import io.dataflow.core.Clock;
import io.dataflow.core.SystemClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What the command line needs from its surroundings besides its streams: the clock the progress
 * line reads, whether stdout and stderr are terminals, and where SIGTERM and Ctrl-C come from.
 * {@link #system()} detects them; tests pass their own (by default: pipes, so nothing but the
 * output is ever written).
 *
 * @param clock the only source of time of the CLI
 * @param stdoutIsTerminal whether stdout is a terminal (the progress line is cleared before
 *     output is written there)
 * @param stderrIsTerminal whether stderr is a terminal (the progress line is shown only then)
 * @param signals where SIGTERM and Ctrl-C come from (the JVM's shutdown hooks by default)
 */
record Environment(Clock clock, boolean stdoutIsTerminal, boolean stderrIsTerminal,
    Signals signals) {
  Environment {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(signals, "signals");
  }

  /** An environment whose signals are the JVM's. */
  Environment(Clock clock, boolean stdoutIsTerminal, boolean stderrIsTerminal) {
    this(clock, stdoutIsTerminal, stderrIsTerminal, Signals.JVM);
  }

  /** This environment with {@code signals} instead of its own (tests of a shutdown path). */
  Environment withSignals(Signals signals) {
    return new Environment(clock, stdoutIsTerminal, stderrIsTerminal, signals);
  }

  /** The system clock, stdout and stderr as pipes: what tests and embedded calls get. */
  static Environment pipes() {
    return new Environment(SystemClock.INSTANCE, false, false);
  }

  /** The running process: the system clock, and what file descriptors 1 and 2 are. */
  static Environment system() {
    boolean console = System.console() != null; // stdin and stdout are both terminals
    return new Environment(SystemClock.INSTANCE, isTerminal(1, console),
        isTerminal(2, console));
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
