package io.dataflow.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.Row;
import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.pipeline.io.KeyedJsonLines;
import io.dataflow.pipeline.spi.KeyedOutput;
import io.dataflow.testkit.GeneratedSpec;
import io.dataflow.testkit.Seeds;
import io.dataflow.testkit.SpecGenerator;
import io.dataflow.testkit.TraceGenerator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Kafka Streams processor in {@link TopologyTestDriver} (no broker): per-key isolation,
 * equality with lone monitors on generated cases, state across a restart through the store,
 * and reconfiguration from the control topic.
 */
class DataflowProcessorTest {
  static final String SUM = "in x: Int\nout n: Int\nout s: Int\n"
      + "n = default(n[1], 0) + 1\ns = default(s[1], 0) + x";

  @TempDir
  Path dir;

  private Properties props() {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "test");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    p.put(StreamsConfig.STATE_DIR_CONFIG, dir.toString());
    return p;
  }

  private static String tick(long x) {
    return KeyedJsonLines.recordLine(null, null, Tick.of("x", Value.of(x)));
  }

  @Test
  void keysAreIsolatedAndOutputsKeepTheirKey() {
    Topology t = DataflowTopology.builder().specification("sum.dsrv", SUM)
        .inputTopic("in").outputTopic("out").build();
    try (TopologyTestDriver d = new TopologyTestDriver(t, props())) {
      TestInputTopic<String, String> in = d.createInputTopic("in",
          Serdes.String().serializer(), Serdes.String().serializer());
      TestOutputTopic<String, String> out = d.createOutputTopic("out",
          Serdes.String().deserializer(), Serdes.String().deserializer());
      in.pipeInput("a", tick(5));
      in.pipeInput("b", tick(7));
      in.pipeInput("a", tick(1));
      in.pipeInput(null, tick(1)); // skipped: no key
      in.pipeInput("b", "not json"); // skipped: not a tick
      assertThat(out.readKeyValuesToList()).containsExactly(
          KeyValue.pair("a", "{\"key\":\"a\",\"tick\":0,\"n\":1,\"s\":5}"),
          KeyValue.pair("b", "{\"key\":\"b\",\"tick\":0,\"n\":1,\"s\":7}"),
          KeyValue.pair("a", "{\"key\":\"a\",\"tick\":1,\"n\":2,\"s\":6}"));
      KeyValueStore<String, byte[]> store = d.getKeyValueStore("dataflow-state");
      List<String> stored = new ArrayList<>();
      try (KeyValueIterator<String, byte[]> it = store.all()) {
        it.forEachRemaining(kv -> stored.add(kv.key));
      }
      assertThat(stored).containsExactly("a", "b");
    }
  }

  static LongStream seeds() {
    return Seeds.seeds(200);
  }

  /**
   * Catches: state shared between keys, a key's state not carried between its records, tick
   * indices per task instead of per key, outputs attributed to another key.
   */
  @ParameterizedTest(name = "seed={0}")
  @MethodSource("seeds")
  void everyKeyPrintsWhatALoneMonitorPrints(long seed) {
    Seeds.check(seed, c -> {
      SplittableRandom random = new SplittableRandom(seed);
      GeneratedSpec spec = c.note("spec", new SpecGenerator(seed).risky(0).next());
      int keys = c.note("keys", 1 + random.nextInt(5));
      Map<String, List<Map<String, Value>>> traces = new LinkedHashMap<>();
      for (int k = 0; k < keys; k++) {
        traces.put("key-" + k, c.trace("trace of " + k,
            new TraceGenerator(seed * 31 + k).next(spec)));
      }
      Map<String, List<String>> expected = new LinkedHashMap<>();
      boolean failing = false;
      for (Map.Entry<String, List<Map<String, Value>>> e : traces.entrySet()) {
        List<String> lines = lone(spec.text(), e.getKey(), e.getValue());
        failing |= lines == null;
        expected.put(e.getKey(), lines);
      }
      Topology t = DataflowTopology.builder().specification("gen.dsrv", spec.text())
          .inputTopic("in").outputTopic("out").persistent(false).build();
      try (TopologyTestDriver d = new TopologyTestDriver(t, props())) {
        TestInputTopic<String, String> in = d.createInputTopic("in",
            Serdes.String().serializer(), Serdes.String().serializer());
        TestOutputTopic<String, String> out = d.createOutputTopic("out",
            Serdes.String().deserializer(), Serdes.String().deserializer());
        List<KeyValue<String, String>> records = interleave(traces, random);
        if (failing) {
          assertThatThrownBy(() -> records.forEach(r -> in.pipeInput(r.key, r.value)))
              .hasMessageContaining("key ");
          return;
        }
        records.forEach(r -> in.pipeInput(r.key, r.value));
        Map<String, List<String>> got = new LinkedHashMap<>();
        for (KeyValue<String, String> kv : out.readKeyValuesToList()) {
          got.computeIfAbsent(kv.key, k -> new ArrayList<>()).add(kv.value);
        }
        for (Map.Entry<String, List<String>> e : expected.entrySet()) {
          assertThat(got.getOrDefault(e.getKey(), List.of())).as("key %s", e.getKey())
              .isEqualTo(e.getValue());
        }
      }
    });
  }

  /** A lone monitor's output lines for one key's trace, or null when a tick fails. */
  static List<String> lone(String spec, String key, List<Map<String, Value>> trace) {
    DataflowProgram p = DataflowProgram.compile("lone.dsrv", spec);
    DataflowMonitor m = DataflowMonitor.create(p);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < trace.size(); i++) {
      Row in = p.inputs().newRow();
      trace.get(i).forEach((name, v) -> {
        int slot = p.inputs().slotOf(name);
        if (slot >= 0) {
          in.set(slot, v);
        }
      });
      Row out = p.outputs().newRow();
      try {
        m.evaluate(in, out);
      } catch (RuntimeException e) {
        return null;
      }
      for (int s = 0; s < out.width(); s++) {
        if (out.kind(s) != io.dataflow.core.Kind.NOVAL) {
          lines.add(KeyedJsonLines.outputLine(new KeyedOutput(key, i, 0, 0, p.outputs(), out)));
          break;
        }
      }
    }
    return lines;
  }

  static List<KeyValue<String, String>> interleave(Map<String, List<Map<String, Value>>> traces,
      SplittableRandom random) {
    Map<String, Integer> next = new LinkedHashMap<>();
    traces.keySet().forEach(k -> next.put(k, 0));
    List<String> open = new ArrayList<>(traces.keySet());
    List<KeyValue<String, String>> out = new ArrayList<>();
    while (!open.isEmpty()) {
      String key = open.get(random.nextInt(open.size()));
      int i = next.get(key);
      List<Map<String, Value>> t = traces.get(key);
      if (i >= t.size()) {
        open.remove(key);
        continue;
      }
      out.add(KeyValue.pair(key, KeyedJsonLines.recordLine(null, null, Tick.of(t.get(i)))));
      next.put(key, i + 1);
    }
    return out;
  }

  /** Catches: state kept only in the processor's memory (a new task would start keys at 0). */
  @Test
  void stateSurvivesARestartThroughTheStore() {
    Topology t = DataflowTopology.builder().specification("sum.dsrv", SUM)
        .inputTopic("in").outputTopic("out").build();
    Map<String, byte[]> saved = new LinkedHashMap<>();
    try (TopologyTestDriver d = new TopologyTestDriver(t, props())) {
      TestInputTopic<String, String> in = d.createInputTopic("in",
          Serdes.String().serializer(), Serdes.String().serializer());
      in.pipeInput("a", tick(5));
      in.pipeInput("a", tick(1));
      in.pipeInput("b", tick(2));
      KeyValueStore<String, byte[]> store = d.getKeyValueStore("dataflow-state");
      try (KeyValueIterator<String, byte[]> it = store.all()) {
        it.forEachRemaining(kv -> saved.put(kv.key, kv.value));
      }
    }
    assertThat(saved).containsOnlyKeys("a", "b");
    Topology again = DataflowTopology.builder().specification("sum.dsrv", SUM)
        .inputTopic("in").outputTopic("out").build();
    try (TopologyTestDriver d = new TopologyTestDriver(again, props())) {
      KeyValueStore<String, byte[]> store = d.getKeyValueStore("dataflow-state");
      saved.forEach(store::put); // what the changelog restores on another instance
      TestInputTopic<String, String> in = d.createInputTopic("in",
          Serdes.String().serializer(), Serdes.String().serializer());
      TestOutputTopic<String, String> out = d.createOutputTopic("out",
          Serdes.String().deserializer(), Serdes.String().deserializer());
      in.pipeInput("a", tick(10));
      in.pipeInput("b", tick(3));
      in.pipeInput("c", tick(4));
      assertThat(out.readValuesToList()).containsExactly(
          "{\"key\":\"a\",\"tick\":2,\"n\":3,\"s\":16}",
          "{\"key\":\"b\",\"tick\":1,\"n\":2,\"s\":5}",
          "{\"key\":\"c\",\"tick\":0,\"n\":1,\"s\":4}");
    }
  }

  /**
   * Catches: a switch that forgets keys not in memory, a request applied twice or out of
   * order, a refused request that changes anything, acknowledgements missing.
   */
  @Test
  void reconfigurationFromTheControlTopicMovesEveryKeyAndAcknowledges() {
    String counter = "in x\nout z\nz = default(z[1], 0) + x";
    Topology t = DataflowTopology.builder().specification("c.dsrv", counter)
        .inputTopic("in").outputTopic("out").controlTopic("control").instance("i1").build();
    try (TopologyTestDriver d = new TopologyTestDriver(t, props())) {
      TestInputTopic<String, String> in = d.createInputTopic("in",
          Serdes.String().serializer(), Serdes.String().serializer());
      TestInputTopic<String, String> control = d.createInputTopic("control",
          Serdes.String().serializer(), Serdes.String().serializer());
      TestOutputTopic<String, String> out = d.createOutputTopic("out",
          Serdes.String().deserializer(), Serdes.String().deserializer());
      TestOutputTopic<String, String> acks = d.createOutputTopic("control.ack",
          Serdes.String().deserializer(), Serdes.String().deserializer());
      in.pipeInput("a", tick(1));
      in.pipeInput("a", tick(2));
      in.pipeInput("b", tick(10));
      control.pipeInput("r1", "{specification: 'in x\\nout z\\nz = default(z[1], 0) + 1 + x - x'}");
      control.pipeInput("r2", "{specification: 'in x\\nout z\\nz = '}"); // does not compile
      in.pipeInput("a", tick(3));
      in.pipeInput("b", tick(4));
      assertThat(out.readValuesToList()).containsExactly(
          "{\"key\":\"a\",\"tick\":0,\"z\":1}",
          "{\"key\":\"a\",\"tick\":1,\"z\":3}",
          "{\"key\":\"b\",\"tick\":0,\"z\":10}",
          "{\"key\":\"a\",\"tick\":2,\"z\":4}",   // history moved: z[1] = 3, + 1
          "{\"key\":\"b\",\"tick\":1,\"z\":11}");
      List<String> ackLines = acks.readValuesToList();
      assertThat(ackLines).hasSize(2);
      assertThat(ackLines.get(0)).isEqualTo("{\"instance\":\"i1\",\"task\":\"0_0\","
          + "\"controlOffset\":0,\"previousRevision\":0,\"ok\":true,\"monitorRevision\":1,"
          + "\"plan\":\"Transfer\",\"keys\":2}");
      assertThat(ackLines.get(1)).startsWith("{\"instance\":\"i1\",\"task\":\"0_0\","
          + "\"controlOffset\":1,\"previousRevision\":1,\"ok\":false,\"monitorRevision\":1,"
          + "\"error\":");
      // A restarted task keeps the switched program and does not apply the requests again.
      KeyValueStore<String, String> meta = d.getKeyValueStore("dataflow-state-meta");
      assertThat(meta.get(DataflowProcessor.META_REVISION)).isEqualTo("1");
      assertThat(meta.get(DataflowProcessor.META_CONTROL_NEXT)).isEqualTo("2");
    }
  }
}
