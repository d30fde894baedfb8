package io.dataflow.kafka;

import io.dataflow.core.SystemClock;
import static org.assertj.core.api.Assertions.assertThat;

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
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "dfs");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, "100");
    p.put(StreamsConfig.STATE_DIR_CONFIG, dir.resolve(name).toString());
    p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "1");
    p.put(StreamsConfig.consumerPrefix(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG), "2000");
    p.put(StreamsConfig.consumerPrefix(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG), "300");
    return new KafkaStreams(DataflowTopology.builder()
        .specification("sum.dsrv", DataflowProcessorTest.SUM).inputTopic("sin")
        .outputTopic("sout").instance(name).build(), p);
  }

  @Test
  void twoInstancesOneClosedMidRunGiveTheLoneMonitorsOutputsExactlyOnce() throws Exception {
    broker.createTopic("sin", 4);
    broker.createTopic("sout", 4);
    KafkaStreams s1 = instance("s1");
    KafkaStreams s2 = instance("s2");
    CountDownLatch running = new CountDownLatch(2);
    for (KafkaStreams s : List.of(s1, s2)) {
      s.setStateListener((now, before) -> {
        if (now == KafkaStreams.State.RUNNING && before == KafkaStreams.State.REBALANCING) {
          running.countDown();
        }
      });
      s.start();
    }
    assertThat(running.await(60, TimeUnit.SECONDS)).as("both running").isTrue();

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
          s2.close(Duration.ofSeconds(30)); // mid-run: s1 takes its tasks from the changelog
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
}
