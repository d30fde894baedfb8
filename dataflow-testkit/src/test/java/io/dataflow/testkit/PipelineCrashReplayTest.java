package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.ExitReport;
import io.dataflow.core.Value;
import io.dataflow.monitor.TypingMode;
import io.dataflow.pipeline.DataflowPipeline;
import io.dataflow.pipeline.PipelineExitReport;
import io.dataflow.pipeline.io.InMemoryCheckpointer;
import io.dataflow.pipeline.spi.KeyedOutput;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * At-least-once under faults (docs/pipeline.md#at-least-once): the controller and drivers are
 * stepped in a seeded interleaving while the sink acknowledges late, out of order, or fails a
 * batch, and the process "crashes" (stops being stepped) at a seeded step. At every step no
 * partition's committed position is past a record whose outputs were not all acknowledged;
 * after the crash a new pipeline resumes from the committed checkpoint and, across both runs,
 * every output of every input is present, and a repeated output is identical to the first.
 */
class PipelineCrashReplayTest {
  static LongStream seeds() {
    return Seeds.seeds(200);
  }

  /** One record's identity and what a lone monitor outputs for it. */
  record Expected(Object key, long tick, List<String> lines) {}

  /**
   * Catches: committing the polled or evaluated position instead of the acknowledged one, a
   * commit past a gap of out-of-order acknowledgements, a commit after a failed batch, state
   * checkpoints that do not match their position (replayed outputs differ), and a resumed
   * pipeline that skips or restarts keys.
   */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void crashAndReplayLoseNothing(long seed) {
    Seeds.check(seed, c -> {
      SplittableRandom random = new SplittableRandom(seed);
      GeneratedSpec spec = c.note("spec", new SpecGenerator(seed).risky(0).next());
      int partitions = c.note("partitions", 1 + random.nextInt(3));
      int drivers = c.note("drivers", 1 + random.nextInt(2));
      Map<Object, List<Map<String, Value>>> traces = new LinkedHashMap<>();
      for (int k = 0; k < 1 + random.nextInt(4); k++) {
        traces.put("k" + k, c.trace("trace of k" + k,
            new TraceGenerator(seed * 17 + k).length(5, 40).next(spec)));
      }
      Map<Object, Run> lone = new LinkedHashMap<>();
      for (Map.Entry<Object, List<Map<String, Value>>> e : traces.entrySet()) {
        Runs.Run r = Runs.monitor(spec.text(), TypingMode.GRADUAL, e.getValue());
        assertThat(r.failure()).as("a non-risky spec does not fail").isNull();
        lone.put(e.getKey(), new Run(r.lines()));
      }
      // The records, and what each must output (by partition and offset).
      List<List<Expected>> byPartition = new ArrayList<>();
      for (int p = 0; p < partitions; p++) {
        byPartition.add(new ArrayList<>());
      }
      Map<Object, Integer> ticks = new HashMap<>();
      List<Object[]> records = new ArrayList<>();
      KeyedPipelineGeneratedTest.interleave(traces, random, (key, tick) -> {
        int p = Math.floorMod(key.hashCode(), partitions);
        long t = ticks.merge(key, 1, Integer::sum) - 1;
        byPartition.get(p).add(new Expected(key, t, lone.get(key).at(t)));
        records.add(new Object[] {p, key, tick});
      });
      InMemoryCheckpointer checkpoints = new InMemoryCheckpointer();
      int crashAt = c.note("crash at step", random.nextInt(400));
      int failBatch = c.note("failed batch", random.nextInt(4) == 0 ? random.nextInt(6) : -1);

      // Run 1: late, out-of-order acknowledgements, maybe a failed batch, then a crash.
      ScriptedKeyedSink sink1 = ScriptedKeyedSink.acknowledging().holding()
          .failingBatch(failBatch);
      PipelineHarness h1 = harness(spec, source(partitions, records), sink1, checkpoints,
          drivers, seed);
      SplittableRandom steps = new SplittableRandom(~seed);
      for (int step = 0; step < crashAt && h1.pipeline().exitReport() == null; step++) {
        int what = steps.nextInt(h1.agents() + 2);
        if (what < h1.agents()) {
          h1.step(what);
        } else if (what == h1.agents()) {
          sink1.release(1 + steps.nextInt(3));
        } else {
          h1.advanceToNextDeadline();
        }
        assertCommittedOnlyAcknowledged(checkpoints.positions(), byPartition,
            sink1.acknowledged());
      }
      // The crash: run 1 is never stepped again; its held acknowledgements never arrive.

      // Run 2: resumes from the commits, acknowledges everything.
      ScriptedPartitionedSource source2 = source(partitions, records);
      ScriptedKeyedSink sink2 = ScriptedKeyedSink.acknowledging();
      PipelineHarness h2 = harness(spec, source2, sink2, checkpoints, drivers, seed);
      PipelineExitReport report = h2.runToEnd(seed);
      assertThat(report.ok()).as("%s %s", report, h2.warnings()).isTrue();
      assertThat(report.run().outcome()).isEqualTo(ExitReport.Outcome.COMPLETED);

      // Every output present at least once; a repeat identical to the first.
      Map<String, List<String>> seen = new HashMap<>();
      List<KeyedOutput> all = new ArrayList<>(sink1.acknowledged());
      all.addAll(sink2.acknowledged());
      for (KeyedOutput o : all) {
        List<String> lines = lines(o);
        List<String> before = seen.putIfAbsent(o.key() + "@" + o.tick(), lines);
        if (before != null) {
          assertThat(lines).as("a repeated output of %s@%s", o.key(), o.tick())
              .isEqualTo(before);
        }
      }
      for (List<Expected> part : byPartition) {
        for (Expected e : part) {
          if (!e.lines().isEmpty()) {
            assertThat(seen.get(e.key() + "@" + e.tick())).as("outputs of %s@%s", e.key(),
                e.tick()).isEqualTo(e.lines());
          }
        }
      }
      assertThat(report.committed()).as("the final commit covers every partition read")
          .allSatisfy((p, pos) -> assertThat(pos).isEqualTo(
              byPartition.get(p).isEmpty() ? -1L : (long) byPartition.get(p).size()));
    });
  }

  /** A lone monitor's lines, grouped by tick. */
  record Run(List<String> lines) {
    List<String> at(long tick) {
      String prefix = "[" + tick + "] = ";
      return lines.stream().filter(l -> l.contains(prefix)).toList();
    }
  }

  static List<String> lines(KeyedOutput o) {
    List<String> out = new ArrayList<>();
    o.values().forEach((name, v) -> out.add(name + "[" + o.tick() + "] = " + v));
    return out;
  }

  /** Committed position p of a partition: every record before p had its outputs acked. */
  static void assertCommittedOnlyAcknowledged(Map<Integer, Long> committed,
      List<List<Expected>> byPartition, List<KeyedOutput> acknowledged) {
    Set<String> acked = new HashSet<>();
    for (KeyedOutput o : acknowledged) {
      acked.add(o.key() + "@" + o.tick());
    }
    committed.forEach((p, position) -> {
      List<Expected> records = byPartition.get(p);
      for (int offset = 0; offset < position; offset++) {
        Expected e = records.get(offset);
        if (!e.lines().isEmpty()) {
          assertThat(acked).as("partition %s committed at %s but offset %s (%s@%s) is not"
              + " acknowledged", p, position, offset, e.key(), e.tick())
              .contains(e.key() + "@" + e.tick());
        }
      }
    });
  }

  static ScriptedPartitionedSource source(int partitions, List<Object[]> records) {
    ScriptedPartitionedSource s = new ScriptedPartitionedSource(partitions);
    for (Object[] r : records) {
      s.add((Integer) r[0], r[1], (io.dataflow.core.Tick) r[2]);
    }
    return s;
  }

  static PipelineHarness harness(GeneratedSpec spec, ScriptedPartitionedSource source,
      ScriptedKeyedSink sink, InMemoryCheckpointer checkpoints, int drivers, long seed) {
    return PipelineHarness.of(DataflowPipeline.builder().specification(Runs.SPEC, spec.text())
        .source(source).sink(sink).checkpointer(checkpoints)
        .options(o -> o.withDrivers(drivers).withBatching(1 + (int) (seed % 4),
            Duration.ofMillis(1)).withQueues(4, 3).withBackpressure(6, 3)
            .withCommitEvery(Duration.ofMillis(2)).withCloseTimeout(Duration.ofSeconds(1))));
  }
}
