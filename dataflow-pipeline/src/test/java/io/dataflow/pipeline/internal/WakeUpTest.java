package io.dataflow.pipeline.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Clock;
import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.pipeline.PipelineExitReport;
import io.dataflow.pipeline.PipelineOptions;
import io.dataflow.pipeline.io.InMemoryCheckpointer;
import io.dataflow.pipeline.io.InMemoryPartitionedSource;
import io.dataflow.pipeline.io.KeyedSinks;
import io.dataflow.pipeline.spi.KeyedOutput;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Who wakes the controller: an acknowledgement only when the controller waits for one, a
 * driver once it took half of a queue the controller found full. Stepped on a manual clock
 * (the wake-ups themselves only matter on real threads, where the stress test runs them).
 */
class WakeUpTest {
  private static final String SUM = "in x: Int\nout s: Int\ns = default(s[1], 0) + x\n";

  /** A clock the test moves. */
  private static final class TestClock implements Clock {
    long now = 1_000;

    @Override
    public long nanoTime() {
      return now;
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochSecond(0, now);
    }
  }

  private final TestClock clock = new TestClock();
  private final List<KeyedOutput> outputs = new ArrayList<>();

  private PipelineRuntime pipeline(int partitions, int records,
      UnaryOperator<PipelineOptions> options) {
    InMemoryPartitionedSource.Builder b = InMemoryPartitionedSource.builder(partitions);
    for (int i = 0; i < records; i++) {
      b.add(i % partitions, "k" + (i % 3), Tick.of("x", Value.of((long) i)));
    }
    PipelineOptions o = options.apply(PipelineOptions.DEFAULTS.withDrivers(1)
        .withCommitEvery(Duration.ofHours(1)));
    return new PipelineRuntime(new PipelineRuntime.Parts(
        DataflowProgram.compile("sum.dsrv", SUM), b.build(),
        KeyedSinks.callback(outputs::add), new InMemoryCheckpointer(), clock, o, w -> {},
        s -> {}, a -> {}));
  }

  /** Steps the controller and the driver until the run ends; the clock moves when idle. */
  private PipelineExitReport runToEnd(PipelineRuntime p) throws InterruptedException {
    ControllerAgent c = (ControllerAgent) p.controller();
    DriverAgent d = (DriverAgent) p.drivers().get(0);
    for (int step = 0; step < 100_000 && !c.isDone(); step++) {
      if (c.doWork() + d.doWork() == 0) {
        p.awaitSinkClosed(Duration.ofSeconds(10));
        clock.now += 1_000_000;
      }
    }
    assertThat(c.isDone()).isTrue();
    return c.report();
  }

  /** Catches: a wake per acknowledged batch while nothing waits for acknowledgements. */
  @Test
  void acknowledgementsAreWantedOnlyWhileTheControllerWaitsForThem() throws Exception {
    PipelineRuntime p = pipeline(2, 200, o -> o.withQueues(64, 4).withBatching(1_000,
        Duration.ofMillis(1)));
    ControllerAgent c = (ControllerAgent) p.controller();
    DriverAgent d = (DriverAgent) p.drivers().get(0);
    c.doWork(); // opens the source, adds the lanes, hands over the first poll
    assertThat(c.wantsAcknowledgements()).isFalse();
    d.doWork();
    c.doWork();
    assertThat(c.wantsAcknowledgements()).isFalse();

    clock.now += Duration.ofHours(1).toNanos(); // a checkpoint barrier is due
    c.doWork();
    d.doWork(); // evaluates the chunks handed over before the barrier
    d.doWork(); // takes the checkpoint; its outputs are not acknowledged yet (batch open)
    c.doWork();
    assertThat(c.wantsAcknowledgements())
        .as("a checkpoint waits for its records' acknowledgements").isTrue();

    PipelineExitReport report = runToEnd(p);
    assertThat(report.ok()).isTrue();
    assertThat(c.wantsAcknowledgements()).as("after the run").isTrue();
    assertThat(outputs).hasSize(200);
  }

  /** Catches: a lane paused at its ceiling that waits for a wake it never gets. */
  @Test
  void aLanePausedAtItsCeilingWantsAcknowledgements() throws Exception {
    PipelineRuntime p = pipeline(1, 100, o -> o.withQueues(64, 8).withBackpressure(8, 4)
        .withBatching(1_000, Duration.ofMillis(1)));
    ControllerAgent c = (ControllerAgent) p.controller();
    DriverAgent d = (DriverAgent) p.drivers().get(0);
    c.doWork(); // 8 records admitted: the lane is at its ceiling
    d.doWork(); // evaluates them (the batch stays open) and asks for a pause
    c.doWork();
    assertThat(c.status().pausedLanes()).containsExactly(0);
    assertThat(c.wantsAcknowledgements()).isTrue();
    assertThat(runToEnd(p).ok()).isTrue();
    assertThat(outputs).hasSize(100);
  }

  /** Catches: a controller waiting for room that is woken by nothing but its idle park. */
  @Test
  void aDriverWakesTheControllerOnceItTookHalfOfAFullQueue() throws Exception {
    PipelineRuntime p = pipeline(1, 40, o -> o.withQueues(8, 2));
    ControllerAgent c = (ControllerAgent) p.controller();
    DriverAgent d = (DriverAgent) p.drivers().get(0);
    int[] wakes = new int[1];
    d.wakeControllerWith(() -> wakes[0]++);
    for (int i = 0; i < 5; i++) {
      c.doWork(); // four chunks of 2 fill the queue of 8; the fifth poll waits
    }
    assertThat(d.data.size()).isEqualTo(4);
    assertThat(wakes[0]).isZero();
    d.doWork(); // takes the 8 records: at most half full, so the controller is woken
    assertThat(wakes[0]).isEqualTo(1);
    d.doWork();
    assertThat(wakes[0]).as("once per full queue").isEqualTo(1);
    assertThat(runToEnd(p).ok()).isTrue();
    assertThat(outputs).hasSize(40);
  }
}
