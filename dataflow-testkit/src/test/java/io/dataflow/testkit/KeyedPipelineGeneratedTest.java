package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.ExitReport;
import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import io.dataflow.monitor.TypingMode;
import io.dataflow.pipeline.DataflowPipeline;
import io.dataflow.pipeline.PipelineExitReport;
import io.dataflow.pipeline.spi.KeyedOutput;
import io.dataflow.testkit.Runs.Run;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The keyed pipeline on generated specifications and traces (docs/pipeline.md): every key's
 * outputs are exactly what a lone monitor fed that key's ticks prints, whatever the number of
 * keys, partitions and drivers and whatever the seeded interleaving of the controller and
 * drivers; without a crash every output arrives exactly once.
 */
class KeyedPipelineGeneratedTest {
  static LongStream seeds() {
    return Seeds.seeds(1000);
  }

  /**
   * Catches: state shared between keys, a key's ticks evaluated out of order or twice, outputs
   * of one key attributed to another, tick indices counted per lane instead of per key, and
   * outputs lost in a batch that was never flushed.
   */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void everyKeyPrintsWhatALoneMonitorPrints(long seed) {
    Seeds.check(seed, c -> {
      SplittableRandom random = new SplittableRandom(seed);
      GeneratedSpec spec = c.note("spec", new SpecGenerator(seed).risky(0).next());
      int keys = c.note("keys", 1 + random.nextInt(5));
      int partitions = c.note("partitions", 1 + random.nextInt(4));
      int drivers = c.note("drivers", 1 + random.nextInt(3));
      Map<Object, List<Map<String, Value>>> traces = new LinkedHashMap<>();
      for (int k = 0; k < keys; k++) {
        Object key = k % 2 == 0 ? "robot-" + k : (Object) (long) k;
        traces.put(key, c.trace("trace of " + key, new TraceGenerator(seed * 31 + k).next(spec)));
      }
      ScriptedPartitionedSource source = new ScriptedPartitionedSource(partitions);
      interleave(traces, random, (key, tick) -> source.add(
          Math.floorMod(key.hashCode(), partitions), key, tick));
      ScriptedKeyedSink sink = ScriptedKeyedSink.acknowledging();
      PipelineHarness h = PipelineHarness.of(DataflowPipeline.builder()
          .specification(Runs.SPEC, spec.text()).source(source).sink(sink)
          .options(o -> o.withDrivers(drivers).withBatching(1 + random.nextInt(8),
              Duration.ofMillis(1)).withQueues(2 + random.nextInt(16), 1 + random.nextInt(8))
              .withBackpressure(4, 2).withCommitEvery(Duration.ofMillis(3))));
      PipelineExitReport report = h.runToEnd(seed);

      Map<Object, Run> lone = new LinkedHashMap<>();
      boolean anyFailed = false;
      for (Map.Entry<Object, List<Map<String, Value>>> e : traces.entrySet()) {
        Run r = Runs.monitor(spec.text(), TypingMode.GRADUAL, e.getValue());
        lone.put(e.getKey(), r);
        anyFailed |= r.failure() != null;
      }
      if (anyFailed) {
        assertThat(report.run().outcome()).isEqualTo(ExitReport.Outcome.FAILED);
        assertThat(report.run().component()).isEqualTo("monitor");
        return;
      }
      assertThat(report.ok()).as("report %s, warnings %s", report, h.warnings()).isTrue();
      Map<Object, List<String>> got = linesByKey(sink.acknowledged());
      for (Map.Entry<Object, Run> e : lone.entrySet()) {
        assertThat(got.getOrDefault(e.getKey(), List.of())).as("key %s", e.getKey())
            .isEqualTo(e.getValue().lines());
      }
      assertThat(got.keySet()).isSubsetOf(lone.keySet());
      assertThat(sink.received()).as("exactly once without a crash")
          .hasSameSizeAs(new HashSet<>(ids(sink.received())));
      Map<Integer, Long> expected = new TreeMap<>();
      for (int p = 0; p < partitions; p++) {
        expected.put(p, -1L);
      }
      source.positionsAtEnd().forEach((p, n) -> expected.put(p, n == 0 ? -1L : n));
      assertThat(report.committed()).as("every record committed at the end")
          .isEqualTo(expected);
    });
  }

  /** Interleaves the keys' traces in a seeded order, each key's ticks staying in order. */
  static void interleave(Map<Object, List<Map<String, Value>>> traces, SplittableRandom random,
      java.util.function.BiConsumer<Object, Tick> add) {
    Map<Object, Integer> next = new LinkedHashMap<>();
    traces.keySet().forEach(k -> next.put(k, 0));
    List<Object> open = new ArrayList<>(traces.keySet());
    while (!open.isEmpty()) {
      Object key = open.get(random.nextInt(open.size()));
      int i = next.get(key);
      List<Map<String, Value>> t = traces.get(key);
      if (i >= t.size()) {
        open.remove(key);
        continue;
      }
      add.accept(key, Tick.of(t.get(i)));
      next.put(key, i + 1);
    }
  }

  /** The text lines of each key, in the order they were received. */
  static Map<Object, List<String>> linesByKey(List<KeyedOutput> outputs) {
    Map<Object, List<String>> out = new LinkedHashMap<>();
    for (KeyedOutput o : outputs) {
      List<String> lines = out.computeIfAbsent(o.key(), k -> new ArrayList<>());
      o.values().forEach((name, v) -> lines.add(name + "[" + o.tick() + "] = " + v));
    }
    return out;
  }

  static List<String> ids(List<KeyedOutput> outputs) {
    return outputs.stream().map(o -> o.key() + "@" + o.tick()).toList();
  }
}
