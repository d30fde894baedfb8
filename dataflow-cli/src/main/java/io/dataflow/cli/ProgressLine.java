package io.dataflow.cli;

import io.dataflow.core.Clock;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * The progress line of a long {@code dataflow run} on a terminal's stderr:
 * {@code \r1234567 ticks, 812345 ticks/s} (ticks evaluated so far, and their average rate since
 * the run started), redrawn in place. Nothing is drawn before the run has taken
 * {@link #DELAY_NANOS}; every other line that goes to stderr ({@link #message}), and output
 * written to the same terminal ({@link #guard}), first clears it; {@link #finish()} clears it
 * for good before the final messages and the exit.
 *
 * <p>Only created when stderr is a terminal: with pipes the CLI writes exactly what it wrote
 * before there was a progress line.
 *
 * <p>Thread-safety: every method is safe from any thread (one lock orders the writes).
 */
final class ProgressLine {
  /** How long a run goes on before the line appears: one second. */
  static final long DELAY_NANOS = 1_000_000_000L;

  private final Clock clock;
  private final PrintStream err;
  private final long startNanos;
  private int shown; // characters of the line on screen; 0 when none
  private boolean finished;

  ProgressLine(Clock clock, PrintStream err) {
    this.clock = clock;
    this.err = err;
    this.startNanos = clock.nanoTime();
  }

  /** The text of the line: {@code 1234567 ticks, 812345 ticks/s}. */
  static String format(long ticks, long elapsedNanos) {
    long rate = elapsedNanos <= 0 ? 0 : Math.round(ticks * 1e9 / elapsedNanos);
    return ticks + " ticks, " + rate + " ticks/s";
  }

  /**
   * Draws the line for {@code ticks} evaluated ticks if the run has taken at least
   * {@link #DELAY_NANOS} on the clock and {@link #finish()} has not been called.
   *
   * @return whether it drew
   */
  synchronized boolean update(long ticks) {
    long elapsed = clock.nanoTime() - startNanos;
    if (finished || elapsed < DELAY_NANOS) {
      return false;
    }
    String text = format(ticks, elapsed);
    // Pads over a longer previous line (the rate can lose a digit).
    err.print("\r" + text + " ".repeat(Math.max(0, shown - text.length())));
    err.flush();
    shown = text.length();
    return true;
  }

  /** Prints a line of its own on stderr (a warning, an acknowledgement) below a cleared line. */
  synchronized void message(String line) {
    clear();
    err.println(line);
  }

  /** Clears the line for good: it is not drawn again. */
  synchronized void finish() {
    clear();
    finished = true;
  }

  /**
   * {@code out} (stdout on the same terminal), clearing the line before anything is written to
   * it, so that output starts at the beginning of a line; the next update draws it again below.
   */
  OutputStream guard(OutputStream out) {
    return new FilterOutputStream(out) {
      @Override
      public void write(int b) throws IOException {
        synchronized (ProgressLine.this) {
          clear();
          out.write(b);
        }
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        synchronized (ProgressLine.this) {
          clear();
          out.write(b, off, len);
        }
      }
    };
  }

  private void clear() {
    if (shown > 0) {
      err.print("\r" + " ".repeat(shown) + "\r");
      err.flush();
      shown = 0;
    }
  }
}
