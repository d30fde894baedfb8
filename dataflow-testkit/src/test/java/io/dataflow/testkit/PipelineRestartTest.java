package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import io.dataflow.pipeline.DataflowPipeline;
import io.dataflow.pipeline.PipelineExitReport;
import io.dataflow.pipeline.io.FileCheckpointer;
import io.dataflow.pipeline.micrometer.PipelineMetrics;
import io.dataflow.pipeline.spi.KeyedOutput;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** State and positions that outlive a pipeline, and the metrics of a running one. */
class PipelineRestartTest {
  @TempDir
  Path dir;

  static ScriptedPartitionedSource source(int perKey) {
    ScriptedPartitionedSource s = new ScriptedPartitionedSource(2);
    for (int i = 0; i < perKey; i++) {
      for (int k = 0; k < 4; k++) {
        s.add(k % 2, "k" + k, Tick.of("x", Value.of(i)));
      }
    }
    return s;
  }

  static PipelineHarness harness(ScriptedPartitionedSource source, ScriptedKeyedSink sink,
      Path dir) throws Exception {
    return PipelineHarness.of(DataflowPipeline.builder()
        .specification("count.dsrv", PipelineScenariosTest.COUNTER).source(source).sink(sink)
        .checkpointer(new FileCheckpointer(dir, 3))
        .options(o -> o.withDrivers(2).withCommitEvery(Duration.ofMillis(5))));
  }

  /**
   * Catches: a restart that reads from the beginning (repeats), that forgets the keys' state
   * (counts restart at 1), or that skips the records after the commit.
   */
  @Test
  void aPipelineResumesFromItsFileCheckpointWithEveryKeysState() throws Exception {
    ScriptedKeyedSink first = ScriptedKeyedSink.acknowledging();
    PipelineExitReport r1 = harness(source(5), first, dir).runToEnd(1);
    assertThat(r1.ok()).isTrue();
    assertThat(r1.committed()).containsEntry(0, 10L).containsEntry(1, 10L);
    // The input grew: 8 ticks per key now; the resumed run reads only the new ones.
    ScriptedPartitionedSource more = source(8);
    ScriptedKeyedSink second = ScriptedKeyedSink.acknowledging();
    PipelineExitReport r2 = harness(more, second, dir).runToEnd(2);
    assertThat(r2.ok()).isTrue();
    assertThat(more.openedAt()).containsEntry(0, 10L).containsEntry(1, 10L);
    List<KeyedOutput> k0 = second.acknowledged().stream().filter(o -> o.key().equals("k0"))
        .toList();
    assertThat(k0).extracting(KeyedOutput::tick).containsExactly(5L, 6L, 7L);
    assertThat(k0).extracting(o -> o.values().get("n").asLong()).containsExactly(6L, 7L, 8L);
    assertThat(k0.get(2).values().get("s").asLong()).isEqualTo(0 + 1 + 2 + 3 + 4 + 5 + 6 + 7);
    assertThat(r2.committed()).containsEntry(0, 16L).containsEntry(1, 16L);
  }

  /**
   * Catches: a resume with another specification that drops the keys' state, or that reads
   * the checkpoint's state vectors with the new program's layout.
   */
  @Test
  void aResumeWithAnotherSpecificationMovesEveryKeyWithTheTransferRules() throws Exception {
    ScriptedKeyedSink first = ScriptedKeyedSink.acknowledging();
    assertThat(harness(source(5), first, dir).runToEnd(1).ok()).isTrue();
    ScriptedKeyedSink second = ScriptedKeyedSink.acknowledging();
    PipelineHarness h = PipelineHarness.of(DataflowPipeline.builder()
        .specification("count.dsrv", PipelineScenariosTest.COUNTER + "\nout d: Int\nd = n * 2")
        .source(source(7)).sink(second).checkpointer(new FileCheckpointer(dir, 3))
        .options(o -> o.withDrivers(2)));
    PipelineExitReport r = h.runToEnd(3);
    assertThat(r.ok()).as("%s", r).isTrue();
    List<KeyedOutput> k1 = second.acknowledged().stream().filter(o -> o.key().equals("k1"))
        .toList();
    assertThat(k1).extracting(KeyedOutput::tick).containsExactly(5L, 6L);
    assertThat(k1).extracting(o -> o.values().get("n").asLong()).containsExactly(6L, 7L);
    assertThat(k1).extracting(o -> o.values().get("d").asLong()).containsExactly(12L, 14L);
  }

  /** Catches: meters that are not bound, or that do not follow the status. */
  @Test
  void metersFollowTheStatus() throws Exception {
    ScriptedPartitionedSource source = source(3).unbounded();
    PipelineHarness h = harness(source, ScriptedKeyedSink.acknowledging(), dir);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    new PipelineMetrics(h.pipeline(), "fleet").bindTo(registry);
    assertThat(registry.get("dataflow.pipeline.ready").tag("pipeline", "fleet").gauge().value())
        .isZero();
    h.runUntilIdle();
    assertThat(registry.get("dataflow.pipeline.ticks.in").functionCounter().count())
        .isEqualTo(12);
    assertThat(registry.get("dataflow.pipeline.keys").gauge().value()).isEqualTo(4);
    assertThat(registry.get("dataflow.pipeline.lanes").gauge().value()).isEqualTo(2);
    assertThat(registry.get("dataflow.pipeline.ready").gauge().value()).isEqualTo(1);
    // Evaluated, waiting in the drivers' batches for the idle flush: not acknowledged yet.
    assertThat(registry.get("dataflow.pipeline.pending").gauge().value()).isEqualTo(12);
    h.advanceToNextDeadline();
    h.runUntilIdle();
    assertThat(registry.get("dataflow.pipeline.pending").gauge().value()).isZero();
  }
}
