package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.ExitReport;
import io.dataflow.core.FatalReason;
import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import io.dataflow.pipeline.DataflowPipeline;
import io.dataflow.pipeline.PipelineAck;
import io.dataflow.pipeline.PipelineExitReport;
import io.dataflow.pipeline.io.InMemoryCheckpointer;
import io.dataflow.pipeline.spi.KeyedOutput;
import io.dataflow.reconfig.ReconfigurationAck;
import io.dataflow.reconfig.ReconfigurationException;
import io.dataflow.reconfig.ReconfigurationRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** The keyed pipeline's scenarios (docs/pipeline.md), stepped on a manual clock. */
class PipelineScenariosTest {
  static final String COUNTER = "in x: Int\nout n: Int\nout s: Int\nn = default(n[1], 0) + 1\n"
      + "s = default(s[1], 0) + x";

  static ScriptedPartitionedSource counterSource(int partitions, int keys, int perKey) {
    ScriptedPartitionedSource s = new ScriptedPartitionedSource(partitions);
    for (int i = 0; i < perKey; i++) {
      for (int k = 0; k < keys; k++) {
        s.add(k % partitions, "k" + k, Tick.of("x", Value.of(i)));
      }
    }
    return s;
  }

  static PipelineHarness harness(ScriptedPartitionedSource source, ScriptedKeyedSink sink,
      InMemoryCheckpointer checkpoints, int drivers) {
    return PipelineHarness.of(DataflowPipeline.builder().specification("count.dsrv", COUNTER)
        .source(source).sink(sink).checkpointer(checkpoints)
        .options(o -> o.withDrivers(drivers).withBatching(4, Duration.ofMillis(1))
            .withQueues(8, 4).withBackpressure(6, 2).withCommitEvery(Duration.ofMillis(5))
            .withCloseTimeout(Duration.ofSeconds(2))));
  }

  static long last(List<KeyedOutput> outputs, String key, String stream) {
    long v = -1;
    for (KeyedOutput o : outputs) {
      if (o.key().equals(key)) {
        v = o.values().get(stream).asLong();
      }
    }
    return v;
  }

  /**
   * Catches: a lane that is never paused at its ceiling (unbounded pending records), a resume
   * at the ceiling instead of below the low watermark (no hysteresis), and a dropped record
   * while paused.
   */
  @Test
  void aLaneWithTooManyUnacknowledgedRecordsIsPausedAndResumesBelowTheWatermark() {
    ScriptedPartitionedSource source = counterSource(1, 1, 60);
    ScriptedKeyedSink sink = ScriptedKeyedSink.acknowledging().holding();
    PipelineHarness h = PipelineHarness.of(DataflowPipeline.builder()
        .specification("count.dsrv", COUNTER).source(source).sink(sink)
        .options(o -> o.withDrivers(1).withBatching(4, Duration.ofMillis(1)).withQueues(8, 4)
            .withBackpressure(8, 4)));
    h.runUntilIdle();
    assertThat(source.paused()).as("paused at the ceiling of 8").containsExactly(0);
    assertThat(h.pipeline().status().pausedLanes()).containsExactly(0);
    assertThat(h.pipeline().status().pendingByLane().get(0)).isGreaterThanOrEqualTo(8L);
    // Paused, the lane's pending records only fall: acknowledge one batch at a time; the
    // controller updates the count, the driver decides, the controller applies the decision.
    boolean resumed = false;
    while (!resumed) {
      assertThat(sink.release(1)).as("a held batch to acknowledge").isEqualTo(1);
      h.step(0);
      long pending = h.pipeline().status().pendingByLane().get(0);
      h.step(1);
      h.step(0);
      if (pending >= 4) {
        assertThat(source.paused()).as("still paused with %s pending", pending).contains(0);
      } else {
        assertThat(source.paused()).as("resumed with %s pending", pending).isEmpty();
        resumed = true;
      }
    }
    while (h.pipeline().exitReport() == null) {
      sink.releaseAll();
      h.runUntilIdle();
      h.advanceToNextDeadline();
    }
    assertThat(h.pipeline().exitReport().ok()).isTrue();
    assertThat(sink.acknowledged()).hasSize(60);
    assertThat(last(sink.acknowledged(), "k0", "n")).isEqualTo(60);
    assertThat(source.pauses().size()).as("paused again after resuming").isGreaterThan(1);
  }

  /**
   * Catches: a revocation that commits before the lane's outputs were acknowledged, that
   * forgets to commit, or that keeps evaluating the revoked lane.
   */
  @Test
  void aRevokedLaneStopsFlushesAndCommitsItsAcknowledgedPositionThenIsDropped() {
    ScriptedPartitionedSource source = counterSource(2, 4, 10).revokingAt(3, Set.of(1));
    ScriptedKeyedSink sink = ScriptedKeyedSink.acknowledging();
    InMemoryCheckpointer checkpoints = new InMemoryCheckpointer();
    PipelineHarness h = harness(source, sink, checkpoints, 2);
    PipelineExitReport report = h.runToEnd(7);
    assertThat(report.ok()).as("%s", report).isTrue();
    long fromLane1 = sink.acknowledged().stream().filter(o -> o.partition() == 1).count();
    assertThat(fromLane1).as("lane 1 read before the revocation").isBetween(1L, 19L);
    assertThat(checkpoints.positions().get(1)).as("committed at the revocation")
        .isEqualTo(fromLane1);
    assertThat(report.committed()).containsOnlyKeys(0).containsEntry(0, 20L);
    assertThat(h.pipeline().status().lanesByDriver().stream().flatMap(List::stream))
        .doesNotContain(1);
  }

  /**
   * Catches: a shutdown that waits past its deadline for a sink that never completes, a report
   * that claims success, and a final commit past unacknowledged data.
   */
  @Test
  void aSinkThatNeverCompletesIsAbandonedAtTheShutdownDeadlineAndNothingUnackedIsCommitted() {
    ScriptedPartitionedSource source = counterSource(2, 2, 10).unbounded();
    ScriptedKeyedSink sink = ScriptedKeyedSink.acknowledging().neverAcknowledging();
    InMemoryCheckpointer checkpoints = new InMemoryCheckpointer();
    PipelineHarness h = harness(source, sink, checkpoints, 1);
    h.runUntilIdle();
    long before = h.clock().nanoTime();
    PipelineExitReport report = h.shutdown(Duration.ofMillis(500), 3);
    assertThat(h.clock().nanoTime() - before).as("the deadline is honoured")
        .isLessThanOrEqualTo(Duration.ofMillis(502).toNanos());
    assertThat(report.ok()).isFalse();
    assertThat(report.exitCode()).isEqualTo(1);
    assertThat(report.run().outcome()).isEqualTo(ExitReport.Outcome.FAILED);
    assertThat(report.run().component()).isEqualTo("sink");
    assertThat(report.run().drain().complete()).isFalse();
    assertThat(report.run().drain().abandonedRows()).isEqualTo(sink.received().size());
    assertThat(report.committed().values()).allSatisfy(p -> assertThat(p).isEqualTo(-1L));
    assertThat(checkpoints.commits()).isZero();
  }

  /**
   * Catches: a reconfiguration applied by some drivers only, applied at different positions of
   * different lanes, that resets per-key state, or acknowledged once per driver.
   */
  @Test
  void aReconfigurationIsAppliedByEveryDriverToEveryKeyAndAcknowledgedOnce() throws Exception {
    ScriptedPartitionedSource source = counterSource(4, 8, 20).unbounded();
    ScriptedKeyedSink sink = ScriptedKeyedSink.acknowledging();
    PipelineHarness h = harness(source, sink, new InMemoryCheckpointer(), 3);
    for (int i = 0; i < 30; i++) {
      h.step(i % h.agents());
    }
    String next = COUNTER + "\nout d: Int\nd = n * 2";
    CompletableFuture<PipelineAck> ack = h.pipeline().reconfigure(ReconfigurationRequest.of(next));
    h.runUntilIdle();
    assertThat(ack).isDone();
    PipelineAck a = ack.get();
    assertThat(a.ack().plan()).isEqualTo(ReconfigurationAck.Plan.TRANSFER);
    assertThat(a.ack().monitorChanged()).isTrue();
    assertThat(a.ack().monitorRevision().root()).isEqualTo(1);
    assertThat(a.lanes()).containsExactly(0, 1, 2, 3);
    assertThat(a.keys()).isBetween(1L, 8L);
    PipelineExitReport report = h.shutdown(Duration.ofSeconds(1), 5);
    assertThat(report.ok()).as("%s", report).isTrue();
    for (int k = 0; k < 8; k++) {
      String key = "k" + k;
      List<KeyedOutput> mine = sink.acknowledged().stream().filter(o -> o.key().equals(key))
          .toList();
      assertThat(mine).hasSize(20);
      for (int t = 0; t < 20; t++) {
        KeyedOutput o = mine.get(t);
        assertThat(o.tick()).isEqualTo(t);
        assertThat(o.values().get("n").asLong()).as("n of %s at %s carried over", key, t)
            .isEqualTo(t + 1);
        if (o.values().containsKey("d")) {
          assertThat(o.values().get("d").asLong()).isEqualTo(2L * (t + 1));
        }
      }
      assertThat(mine.get(19).values()).containsKey("d");
    }
  }

  /** Catches: a refused request that changes the running program or ends the pipeline. */
  @Test
  void aRefusedRequestCompletesExceptionallyAndTheProgramStays() {
    ScriptedPartitionedSource source = counterSource(1, 2, 5);
    ScriptedKeyedSink sink = ScriptedKeyedSink.acknowledging();
    PipelineHarness h = harness(source, sink, new InMemoryCheckpointer(), 1);
    CompletableFuture<PipelineAck> ack = h.pipeline().reconfigure(
        ReconfigurationRequest.of("out z\nz = y + "));
    PipelineExitReport report = h.runToEnd(1);
    assertThat(ack).isCompletedExceptionally();
    assertThat(ack).failsWithin(Duration.ZERO).withThrowableOfType(ExecutionException.class)
        .withCauseInstanceOf(ReconfigurationException.class);
    assertThat(report.ok()).isTrue();
    assertThat(sink.acknowledged()).hasSize(10);
    assertThat(h.warnings()).anySatisfy(w -> assertThat(w).contains("refused"));
  }

  /**
   * Catches: a failed batch that is committed past, that does not end the pipeline, or that is
   * not reported as a sink failure a restart can resume from.
   */
  @Test
  void aFailedBatchIsFatalAndNothingPastItIsCommitted() {
    ScriptedPartitionedSource source = counterSource(1, 1, 30);
    ScriptedKeyedSink sink = ScriptedKeyedSink.acknowledging().failingBatch(2);
    InMemoryCheckpointer checkpoints = new InMemoryCheckpointer();
    PipelineHarness h = harness(source, sink, checkpoints, 1);
    PipelineExitReport report = h.runToEnd(11);
    assertThat(report.run().outcome()).isEqualTo(ExitReport.Outcome.FAILED);
    assertThat(report.run().component()).isEqualTo("sink");
    assertThat(report.run().fatal().kind()).isEqualTo(FatalReason.Kind.SINK);
    assertThat(report.run().fatal().resumable()).isTrue();
    // Batches 0 and 1 (4 outputs each) were acknowledged; batch 2 was not.
    assertThat(report.committed().get(0)).isLessThanOrEqualTo(8L);
    assertThat(checkpoints.positions().getOrDefault(0, -1L)).isLessThanOrEqualTo(8L);
  }

  /** Catches: an operator cancel reported as a failure, or as a completion. */
  @Test
  void aCancelIsReportedAsCancelled() {
    ScriptedPartitionedSource source = counterSource(1, 1, 10).unbounded();
    PipelineHarness h = harness(source, ScriptedKeyedSink.acknowledging(),
        new InMemoryCheckpointer(), 1);
    h.runUntilIdle();
    h.pipeline().cancel("maintenance");
    PipelineExitReport report = h.runToEnd(2);
    assertThat(report.run().outcome()).isEqualTo(ExitReport.Outcome.CANCELLED);
    assertThat(report.run().reason()).contains("maintenance");
    assertThat(report.exitCode()).isEqualTo(1);
  }

  /** Catches: readiness before any lane is assigned or while the sink's probe fails. */
  @Test
  void readinessNeedsAssignedLanesAndAPassingProbe() {
    ScriptedPartitionedSource source = counterSource(2, 2, 3).unbounded();
    ScriptedKeyedSink sink = ScriptedKeyedSink.acknowledging();
    PipelineHarness h = harness(source, sink, new InMemoryCheckpointer(), 2);
    assertThat(h.pipeline().isReady()).isFalse();
    h.runUntilIdle();
    assertThat(h.pipeline().isReady()).isTrue();
    sink.probing(false);
    assertThat(h.pipeline().isReady()).isFalse();
    Map<Integer, Long> pending = h.pipeline().status().pendingByLane();
    assertThat(pending).containsOnlyKeys(0, 1);
    assertThat(h.pipeline().status().keysResident()).isEqualTo(2);
    assertThat(h.pipeline().status().run().ticksIn()).isEqualTo(6);
  }

  /** Catches: idle keys never expiring, or expiring while still active; uncounted expiry. */
  @Test
  void idleKeysExpireAfterTheirTtlAndAreCounted() {
    ScriptedPartitionedSource source = counterSource(1, 3, 2).unbounded();
    ScriptedKeyedSink sink = ScriptedKeyedSink.acknowledging();
    PipelineHarness h = PipelineHarness.of(DataflowPipeline.builder()
        .specification("count.dsrv", COUNTER).source(source).sink(sink)
        .options(o -> o.withDrivers(1).withKeyTtl(Duration.ofSeconds(10))));
    h.runUntilIdle();
    assertThat(h.pipeline().status().keysResident()).isEqualTo(3);
    h.clock().advance(Duration.ofSeconds(9));
    h.runUntilIdle();
    assertThat(h.pipeline().status().keysResident()).isEqualTo(3);
    h.clock().advance(Duration.ofSeconds(5));
    h.runUntilIdle();
    assertThat(h.pipeline().status().keysResident()).isZero();
    assertThat(h.pipeline().status().keysExpired()).isEqualTo(3);
    assertThat(h.pipeline().status().line(null)).contains("expired=3");
  }
}
