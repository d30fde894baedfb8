package io.dataflow.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.SystemClock;
import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import io.dataflow.pipeline.io.KeyedJsonLines;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka Streams processor against a real broker in this JVM: two instances with
 * {@code exactly_once_v2} process a topic, one is closed mid-run, and every key's outputs (read
 * committed) are exactly the lone monitor's.
 */
class KafkaStreamsBrokerTest {
  static final int RECORDS = 20_000;
  static final int KEYS = 200;
  static TestBroker broker;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() throws Exception {
    broker = new TestBroker();
  }

  @AfterAll
  static void stop() throws Exception {
    if (broker != null) {
      broker.close();
    }
  }

  private KafkaStreams instance(String name) {
    return instance("dfs", name, DataflowTopology.builder()
        .specification("sum.dsrv", DataflowProcessorTest.SUM).inputTopic("sin")
        .outputTopic("sout").instance(name).build());
  }

  private KafkaStreams instance(String application, String name, Topology topology) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, application);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100");
    p.put(StreamsConfig.STATE_DIR_CONFIG, dir.resolve(name).toString());
    p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "1");
    // 6 s: a loaded machine's pauses never expire a live member (a task moved by a spurious
    // expiry under exactly-once fences its producer and slows the run down).
    p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), "6000");
    p.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), "1000");
    return new KafkaStreams(topology, p);
  }

  /** Starts {@code instances} and waits until each has been RUNNING after a rebalance. */
  private static void startAll(List<KafkaStreams> instances) throws InterruptedException {
    List<CountDownLatch> running = new ArrayList<>();
    for (KafkaStreams s : instances) {
      CountDownLatch r = new CountDownLatch(1);
      running.add(r);
      s.setStateListener((now, before) -> {
        if (now == KafkaStreams.State.RUNNING) {
          r.countDown();
        }
      });
      s.start();
    }
    for (CountDownLatch r : running) {
      assertThat(r.await(60, TimeUnit.SECONDS)).as("running").isTrue();
    }
  }

  @Test
  void twoInstancesOneClosedMidRunGiveTheLoneMonitorsOutputsExactlyOnce() throws Exception {
    broker.createTopic("sin", 4);
    broker.createTopic("sout", 4);
    KafkaStreams s1 = instance("s1");
    KafkaStreams s2 = instance("s2");
    startAll(List.of(s1, s2));

    Map<String, List<Map<String, Value>>> traces = new LinkedHashMap<>();
    Properties pp = new Properties();
    pp.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
    pp.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(pp,
        new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < RECORDS; i++) {
        String key = "k" + (i % KEYS);
        Map<String, Value> tick = Map.of("x", Value.of((long) (i % 5)));
        traces.computeIfAbsent(key, k -> new ArrayList<>()).add(tick);
        producer.send(new ProducerRecord<>("sin", key,
            KeyedJsonLines.recordLine(null, null, Tick.of(tick))));
      }
    }

    Map<String, List<String>> got = new LinkedHashMap<>();
    Properties cp = new Properties();
    cp.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
    cp.put(ConsumerConfig.GROUP_ID_CONFIG, "reader");
    cp.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    cp.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    int count = 0;
    boolean closed = false;
    try (KafkaConsumer<String, String> c = new KafkaConsumer<>(cp, new StringDeserializer(),
        new StringDeserializer())) {
      c.subscribe(List.of("sout"));
      long deadline = SystemClock.INSTANCE.nanoTime() + Duration.ofSeconds(150).toNanos();
      while (count < RECORDS && SystemClock.INSTANCE.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
          got.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value());
          count++;
        }
        if (!closed && count >= RECORDS / 3) {
          // Mid-run: s1 takes its tasks from the changelog. s2 leaves the group (Kafka Streams
          // does not by default), so s1 need not wait for s2's session to time out.
          s2.close(new KafkaStreams.CloseOptions().leaveGroup(true)
              .timeout(Duration.ofSeconds(30)));
          closed = true;
        }
      }
      // Nothing more arrives: exactly once.
      for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(500))) {
        got.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r.value());
        count++;
      }
    } finally {
      s1.close(Duration.ofSeconds(30));
      s2.close(Duration.ofSeconds(30));
    }
    assertThat(closed).isTrue();
    assertThat(count).isEqualTo(RECORDS);
    for (Map.Entry<String, List<Map<String, Value>>> e : traces.entrySet()) {
      assertThat(got.get(e.getKey())).as("key %s", e.getKey())
          .isEqualTo(DataflowProcessorTest.lone(DataflowProcessorTest.SUM, e.getKey(),
              e.getValue()));
    }
  }

  /**
   * Catches: a request on the control topic that an instance's tasks never see (the global
   * store not read by every instance), a task that switches without moving its keys' history,
   * or a switch not acknowledged per task.
   */
  @Test
  void twoInstancesApplyARequestOfTheControlTopicInEveryTask() throws Exception {
    broker.createTopic("rin", 2);
    broker.createTopic("rout", 2);
    broker.createTopic("rctl", 1);
    broker.createTopic("rctl.ack", 1);
    String counter = "in x\nout z\nz = default(z[1], 0) + x";
    List<KafkaStreams> instances = new ArrayList<>();
    for (String name : List.of("r1", "r2")) {
      instances.add(instance("dfr", name, DataflowTopology.builder()
          .specification("c.dsrv", counter).inputTopic("rin").outputTopic("rout")
          .controlTopic("rctl").instance(name).build()));
    }
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap()), new StringSerializer(),
        new StringSerializer())) {
      startAll(instances);
      for (int round = 0; round < 2; round++) {
        for (int k = 0; k < 10; k++) {
          producer.send(new ProducerRecord<>("rin", "k" + k, "{\"x\": 1}"));
        }
      }
      producer.flush();
      assertThat(broker.await("rout", 20, Duration.ofSeconds(60))).hasSize(20);
      // The new program adds 10 x: a record a task sees before the request is visible adds
      // x (the old program), every later one 10 x on top of the moved history.
      producer.send(new ProducerRecord<>("rctl", "r",
          "{specification: 'in x\\nout z\\nz = default(z[1], 0) + 10 * x'}"))
          .get(30, TimeUnit.SECONDS);
      List<String> acks = List.of();
      int sent = 20;
      long deadline = SystemClock.INSTANCE.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (acks.size() < 2 && SystemClock.INSTANCE.nanoTime() - deadline < 0) {
        // A task switches at its first record after the request is visible to it.
        for (int k = 0; k < 10; k++) {
          producer.send(new ProducerRecord<>("rin", "k" + k, "{\"x\": 5}"));
        }
        sent += 10;
        producer.flush();
        acks = broker.await("rctl.ack", 2, Duration.ofSeconds(5));
      }
      assertThat(acks).as("one acknowledgement per task").hasSize(2);
      Set<String> tasks = new TreeSet<>();
      Set<String> names = new TreeSet<>();
      for (String a : acks) {
        assertThat(a).matches("\\{\"instance\":\"r[12]\",\"task\":\"0_[01]\","
            + "\"controlOffset\":0,\"previousRevision\":0,\"ok\":true,"
            + "\"monitorRevision\":1,\"plan\":\"Transfer\",\"keys\":\\d+\\}");
        tasks.add(a.replaceAll(".*\"task\":\"([^\"]+)\".*", "$1"));
        names.add(a.replaceAll(".*\"instance\":\"([^\"]+)\".*", "$1"));
      }
      assertThat(tasks).containsExactly("0_0", "0_1");
      assertThat(names).as("each instance runs a task: %s", acks).containsExactly("r1", "r2");
      // Every task has switched: one more record per key runs the new program.
      for (int k = 0; k < 10; k++) {
        producer.send(new ProducerRecord<>("rin", "k" + k, "{\"x\": 5}"));
      }
      producer.flush();
      sent += 10;
      assertThat(broker.await("rout", sent, Duration.ofSeconds(60))).hasSize(sent);
    } finally {
      for (KafkaStreams s : instances) {
        s.close(Duration.ofSeconds(30));
      }
    }
    Map<String, List<Long>> zs = new TreeMap<>();
    broker.readAll("rout", (key, value) -> zs.computeIfAbsent(key, k -> new ArrayList<>())
        .add(Long.parseLong(value.replaceAll(".*\"z\":(-?\\d+)\\}", "$1"))));
    assertThat(zs).hasSize(10);
    zs.forEach((key, z) -> {
      assertThat(z.subList(0, 2)).as("%s: %s", key, z).containsExactly(1L, 2L);
      boolean switched = false;
      for (int i = 2; i < z.size(); i++) {
        long step = z.get(i) - z.get(i - 1);
        // 5: the old program; 50: the new one on the moved history (cold: z would be 50).
        assertThat(step).as("%s: %s", key, z).isIn(5L, 50L);
        if (switched) {
          assertThat(step).as("%s switched back: %s", key, z).isEqualTo(50L);
        }
        switched |= step == 50L;
      }
      assertThat(switched).as("%s: %s", key, z).isTrue();
    });
  }
}
