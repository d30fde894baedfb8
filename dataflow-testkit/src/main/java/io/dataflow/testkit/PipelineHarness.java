package io.dataflow.testkit;

import io.dataflow.core.internal.Agent;
import io.dataflow.pipeline.DataflowPipeline;
import io.dataflow.pipeline.DataflowPipelineBuilder;
import io.dataflow.pipeline.PipelineExitReport;
import io.dataflow.pipeline.internal.PipelineRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Runs a keyed pipeline without its threads: the test's thread steps the controller and every
 * driver, in a fixed round or in an order drawn from a seed (a deterministic simulation of the
 * threads' interleaving), on a {@link ManualClock}. When no agent has work, the clock moves to
 * the earliest deadline an agent waits for (an idle flush, a checkpoint, a shutdown deadline).
 * Nothing sleeps; every loop is bounded.
 *
 * <pre>{@code
 * PipelineHarness h = PipelineHarness.of(DataflowPipeline.builder()
 *     .specification("count.dsrv", spec).source(source).sink(sink));
 * PipelineExitReport report = h.runToEnd(seed);
 * }</pre>
 *
 * <p>Thread-safety: one test thread.
 */
public final class PipelineHarness {
  /** Steps without any agent doing work before {@link #runToEnd} gives up. */
  private static final int MAX_IDLE_ROUNDS = 10_000;

  private final ManualClock clock;
  private final PipelineRuntime runtime;
  private final List<Agent> agents = new ArrayList<>();
  private final List<String> warnings = new CopyOnWriteArrayList<>();
  private final List<String> statusLines = new CopyOnWriteArrayList<>();

  private PipelineHarness(DataflowPipelineBuilder builder, ManualClock clock) {
    this.clock = clock;
    this.runtime = (PipelineRuntime) builder.clock(clock).warnings(warnings::add)
        .statusLines(statusLines::add).build();
    agents.add(runtime.controller());
    agents.addAll(runtime.drivers());
  }

  /** A harness over {@code builder}'s pipeline, on a new manual clock (set on the builder). */
  public static PipelineHarness of(DataflowPipelineBuilder builder) {
    return new PipelineHarness(builder, new ManualClock());
  }

  /** The pipeline (its API: reconfigure, shutdown, cancel, status). Do not start it. */
  public DataflowPipeline pipeline() {
    return runtime;
  }

  /** The clock. */
  public ManualClock clock() {
    return clock;
  }

  /** The warnings so far. */
  public List<String> warnings() {
    return List.copyOf(warnings);
  }

  /** The status lines so far. */
  public List<String> statusLines() {
    return List.copyOf(statusLines);
  }

  /** The number of agents: the controller (index 0) and the drivers (1..N). */
  public int agents() {
    return agents.size();
  }

  /** One duty cycle of agent {@code index} (0: the controller, 1..N: the drivers). */
  public int step(int index) {
    return agents.get(index).doWork();
  }

  /** One duty cycle of an agent drawn from {@code random}. */
  public int step(Random random) {
    return step(random.nextInt(agents.size()));
  }

  /** Steps every agent in turn until a whole round does no work (bounded). */
  public void runUntilIdle() {
    for (int round = 0; round < 1_000_000; round++) {
      int work = 0;
      for (int i = 0; i < agents.size(); i++) {
        work += step(i);
      }
      if (work == 0) {
        return;
      }
    }
    throw new AssertionError("the pipeline did not become idle in a million rounds");
  }

  /**
   * Steps agents in the order {@code seed} draws until the pipeline ends; when a round finds no
   * work, moves the clock to the earliest deadline an agent waits for (or by 1 ms). Prints the
   * seed on failure.
   */
  public PipelineExitReport runToEnd(long seed) {
    Random random = new Random(seed);
    int idle = 0;
    while (runtime.exitReport() == null) {
      int work = 0;
      for (int i = 0; i < agents.size() * 2; i++) {
        work += step(random);
      }
      if (work > 0) {
        idle = 0;
        continue;
      }
      // A last round in order, so no agent is starved by the draw before time moves.
      for (int i = 0; i < agents.size(); i++) {
        work += step(i);
      }
      if (work > 0) {
        continue;
      }
      if (++idle > MAX_IDLE_ROUNDS) {
        throw new AssertionError("seed " + seed + ": the pipeline made no progress; status "
            + runtime.status());
      }
      advanceToNextDeadline();
    }
    return runtime.exitReport();
  }

  /**
   * Moves the clock to the earliest deadline any agent waits for (1 ms when none is ahead),
   * after waiting, in real time and bounded, for a sink close the shutdown started on its own
   * thread: time moves only once the real threads are done, so a close that completes is never
   * mistaken for a late one.
   */
  public void advanceToNextDeadline() {
    try {
      runtime.awaitSinkClosed(Duration.ofSeconds(10));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted while the sink closed", e);
    }
    long now = clock.nanoTime();
    long next = Long.MAX_VALUE;
    for (Agent a : agents) {
      next = Math.min(next, a.nextDeadline());
    }
    long step = next == Long.MAX_VALUE || next - now <= 0 ? 1_000_000 : next - now;
    clock.advance(Duration.ofNanos(Math.min(step, 1_000_000_000L)));
  }

  /** Shuts the pipeline down within {@code timeout} and steps it to the end. */
  public PipelineExitReport shutdown(Duration timeout, long seed) {
    runtime.shutdown(timeout);
    return runToEnd(seed);
  }
}
