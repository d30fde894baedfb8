package io.dataflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Clock;
import io.dataflow.testkit.ManualClock;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The progress line of a long run: shown on a terminal's stderr only, only after a second,
 * redrawn each second, cleared before anything else is written and at the end. Time is a
 * manual clock throughout: nothing sleeps.
 */
class ProgressTest {
  private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
  private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

  private String err() {
    return errBytes.toString(StandardCharsets.UTF_8);
  }

  private static String clear(int width) {
    return "\r" + " ".repeat(width) + "\r";
  }

  @Test
  void theLineNamesTheTicksAndTheirRate() {
    assertThat(ProgressLine.format(1_234_567, 1_520_000_000L))
        .isEqualTo("1234567 ticks, 812215 ticks/s");
    assertThat(ProgressLine.format(0, 1_000_000_000L)).isEqualTo("0 ticks, 0 ticks/s");
  }

  @Test
  void nothingIsDrawnBeforeTheRunHasTakenASecond() {
    ManualClock clock = new ManualClock();
    ProgressLine line = new ProgressLine(clock, err);
    assertThat(line.update(5)).isFalse();
    clock.elapse(Duration.ofMillis(999));
    assertThat(line.update(500)).isFalse();
    assertThat(err()).isEmpty();
    clock.elapse(Duration.ofMillis(1));
    assertThat(line.update(1000)).isTrue();
    assertThat(err()).isEqualTo("\r1000 ticks, 1000 ticks/s");
  }

  @Test
  void theReporterRedrawsEverySecondAndTheEndClearsTheLine() {
    ManualClock clock = new ManualClock();
    ProgressLine line = new ProgressLine(clock, err);
    long[] counts = {10_000, 10_001, 30_000};
    List<Duration> drawnAt = new ArrayList<>();
    AtomicInteger calls = new AtomicInteger();
    BooleanSupplier stopped = () -> calls.get() == counts.length;
    ProgressReporter.report(line, () -> {
      drawnAt.add(clock.elapsed());
      return counts[calls.getAndIncrement()];
    }, clock, stopped);
    line.finish();
    assertThat(drawnAt).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2),
        Duration.ofSeconds(3));
    assertThat(err()).isEqualTo("\r10000 ticks, 10000 ticks/s"
        + "\r10001 ticks, 5001 ticks/s " // padded over the longer line before
        + "\r30000 ticks, 10000 ticks/s"
        + clear(26));
    assertThat(line.update(40_000)).as("finished").isFalse();
    assertThat(err()).endsWith(clear(26));
  }

  @Test
  void anOverrunPeriodIsNotMadeUp() {
    ManualClock clock = new ManualClock();
    ProgressLine line = new ProgressLine(clock, err);
    List<Duration> drawnAt = new ArrayList<>();
    ProgressReporter.report(line, () -> {
      drawnAt.add(clock.elapsed());
      if (drawnAt.size() == 1) {
        clock.elapse(Duration.ofMillis(2500)); // the first update took 2.5 s
      }
      return 1;
    }, clock, () -> drawnAt.size() == 2);
    assertThat(drawnAt).containsExactly(Duration.ofSeconds(1), Duration.ofMillis(4500));
  }

  @Test
  void aStopEndsTheReporterWithoutWaiting() {
    ManualClock clock = new ManualClock();
    ProgressLine line = new ProgressLine(clock, err);
    ProgressReporter.report(line, () -> 1, clock, () -> true);
    assertThat(clock.elapsed()).isEqualTo(Duration.ZERO);
    assertThat(err()).isEmpty();
  }

  @Test
  void otherStderrLinesAndTerminalOutputClearTheLineFirst() throws IOException {
    ManualClock clock = new ManualClock();
    ProgressLine line = new ProgressLine(clock, err);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    OutputStream stdout = line.guard(out);
    line.message("warning: early");
    stdout.write("z[0] = Int(1)\n".getBytes(StandardCharsets.UTF_8));
    assertThat(err()).as("nothing to clear yet").isEqualTo("warning: early\n");
    clock.elapse(Duration.ofSeconds(1));
    line.update(7);
    line.message("ack monitor_revision=1");
    assertThat(err()).isEqualTo("warning: early\n\r7 ticks, 7 ticks/s" + clear(18)
        + "ack monitor_revision=1\n");
    line.update(8);
    stdout.write("z[1] = Int(2)\n".getBytes(StandardCharsets.UTF_8));
    stdout.write('!');
    assertThat(err()).endsWith("ack monitor_revision=1\n\r8 ticks, 8 ticks/s" + clear(18));
    assertThat(out.toString(StandardCharsets.UTF_8))
        .isEqualTo("z[0] = Int(1)\nz[1] = Int(2)\n!");
  }

  @Test
  void terminalsAreTerminalDevicesNotPipesOrFiles() {
    assertThat(Environment.isTerminalDevice("/dev/pts/3")).isTrue();
    assertThat(Environment.isTerminalDevice("/dev/tty1")).isTrue();
    assertThat(Environment.isTerminalDevice("pipe:[81234]")).isFalse();
    assertThat(Environment.isTerminalDevice("socket:[81234]")).isFalse();
    assertThat(Environment.isTerminalDevice("/dev/null")).isFalse();
    assertThat(Environment.isTerminalDevice("/tmp/err.log")).isFalse();
  }

  // Through the CLI.

  /**
   * A manual clock whose first {@code steps} waits pass at once (moving its time to their
   * deadline); later waits last until cancelled (a reporter's stop unparks its thread).
   */
  static final class SteppingClock implements Clock {
    private final ManualClock time = new ManualClock();
    private final AtomicInteger steps;

    SteppingClock(int steps) {
      this.steps = new AtomicInteger(steps);
    }

    @Override
    public long nanoTime() {
      return time.nanoTime();
    }

    @Override
    public Instant instant() {
      return time.instant();
    }

    @Override
    public boolean awaitUntil(long deadlineNanos, BooleanSupplier cancelled) {
      if (steps.getAndDecrement() > 0) {
        return time.awaitUntil(deadlineNanos, cancelled);
      }
      while (!cancelled.getAsBoolean()) {
        LockSupport.park(this);
      }
      return false;
    }
  }

  record Result(int status, String out, String err) {}

  static Result cli(Environment env, OutputStream stdout, ByteArrayOutputStream stderr,
      String... args) {
    ByteArrayOutputStream outBytes = stdout == null ? new ByteArrayOutputStream() : null;
    PrintStream out = new PrintStream(stdout == null ? outBytes : stdout, true,
        StandardCharsets.UTF_8);
    int status = Cli.run(args, new ByteArrayInputStream(new byte[0]), out,
        new PrintStream(stderr, true, StandardCharsets.UTF_8), env);
    return new Result(status, outBytes == null ? null : outBytes.toString(StandardCharsets.UTF_8),
        stderr.toString(StandardCharsets.UTF_8));
  }

  private static String[] runCase(String name) {
    Path dir = CliTest.conformanceDir();
    return new String[] {"run", dir.resolve(name + ".dsrv").toString(), "--input-file",
        dir.resolve(name + ".input").toString()};
  }

  @Test
  void aRunOnATerminalShowsTheLineAndClearsItBeforeTheEnd() throws IOException {
    String[] args = runCase("reconf_counter");
    Result plain = cli(Environment.pipes(), null, new ByteArrayOutputStream(), args);
    assertThat(plain.status()).isZero();
    // stdout holds its first write until the line has been drawn: one draw, at 1 s.
    CountDownLatch drawn = new CountDownLatch(1);
    ByteArrayOutputStream stderr = new ByteArrayOutputStream() {
      @Override
      public synchronized void write(byte[] b, int off, int len) {
        super.write(b, off, len);
        if (toString(StandardCharsets.UTF_8).contains(" ticks/s")) {
          drawn.countDown();
        }
      }
    };
    ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
    OutputStream stdout = new OutputStream() {
      @Override
      public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        try {
          assertThat(drawn.await(30, TimeUnit.SECONDS)).as("drawn").isTrue();
        } catch (InterruptedException e) {
          throw new IOException(e);
        }
        outBytes.write(b, off, len);
      }
    };
    Result r = cli(new Environment(new SteppingClock(1), false, true), stdout, stderr, args);
    assertThat(r.status()).isZero();
    assertThat(outBytes.toString(StandardCharsets.UTF_8)).isEqualTo(plain.out());
    // The acknowledgement (a line of its own) may come before or after the draw.
    String progress = "\r(?<n>\\d+) ticks, \\k<n> ticks/s";
    String ack = Pattern.quote(plain.err());
    assertThat(r.err()).matches("(?:" + ack + ")?" + progress + "\r +\r(?:" + ack + ")?");
    assertThat(r.err().replaceAll(progress + "\r +\r", "")).isEqualTo(plain.err());
  }

  @Test
  void onATerminalStdoutTheLineIsClearedBeforeOutput() {
    String[] args = runCase("counter");
    Result plain = cli(Environment.pipes(), null, new ByteArrayOutputStream(), args);
    Result r = cli(new Environment(new SteppingClock(1), true, true), null,
        new ByteArrayOutputStream(), args);
    assertThat(r.status()).isZero();
    assertThat(r.out()).isEqualTo(plain.out());
    // Drawn or not (the run may be over first), the line never stays.
    assertThat(r.err()).matches("(\r(\\d+) ticks, \\2 ticks/s\r +\r)?");
  }

  @Test
  void nothingIsDrawnInPipesOrForLiveOrBeforeASecond() {
    String[] args = runCase("counter");
    Result plain = cli(Environment.pipes(), null, new ByteArrayOutputStream(), args);
    assertThat(plain.err()).isEmpty();
    // Stdout a terminal, stderr a pipe: no line, though a second passes at once.
    assertThat(cli(new Environment(new ManualClock(), true, false), null,
        new ByteArrayOutputStream(), args)).isEqualTo(plain);
    // A terminal, but the clock never reaches the second.
    assertThat(cli(new Environment(new SteppingClock(0), true, true), null,
        new ByteArrayOutputStream(), args)).isEqualTo(plain);
    // live shows its outputs as they come: no line.
    Path spec = CliTest.conformanceDir().resolve("counter.dsrv");
    Result live = cli(new Environment(new SteppingClock(1), true, true), null,
        new ByteArrayOutputStream(), "live", spec.toString());
    assertThat(live.status()).isZero();
    assertThat(live.err()).isEmpty();
  }
}
