package io.dataflow.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dataflow.core.SystemClock;
import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import io.dataflow.pipeline.DataflowPipeline;
import io.dataflow.pipeline.io.KeyedJsonLines;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The numbers of docs/performance.md#kafka, outside the normal build
 * ({@code -Ddataflow.kafka.perf=true -Dtest=KafkaPerformanceTest}): records per second of the
 * keyed pipeline against the in-process broker (8 partitions, 100k keys) and of the processor
 * in TopologyTestDriver (in-memory stores: the driver commits, and so flushes RocksDB, after
 * every record), each beside a plain Kafka Streams {@code groupByKey().aggregate()}
 * computing the same per-key running sum in the same run.
 */
@EnabledIfSystemProperty(named = "dataflow.kafka.perf", matches = "true")
class KafkaPerformanceTest {
  static final int KEYS = 100_000;
  static final int RECORDS = Integer.getInteger("dataflow.kafka.perf.records", 1_000_000);
  static final int TTD_RECORDS = Integer.getInteger("dataflow.kafka.perf.ttd", 300_000);
  static final String SPEC = "in x: Int\nout s: Int\ns = default(s[1], 0) + x";
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir
  Path dir;

  static String value(int i) {
    return KeyedJsonLines.recordLine(null, null, Tick.of("x", Value.of((long) (i % 7))));
  }

  static long x(String json) {
    try {
      return JSON.readTree(json).get("x").asLong();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The plain Kafka Streams running sum: every update forwarded (no cache). */
  static Topology aggregate(String in, String out, boolean persistent, Runnable each) {
    StreamsBuilder b = new StreamsBuilder();
    b.stream(in, Consumed.with(Serdes.String(), Serdes.String()))
        .mapValues(KafkaPerformanceTest::x)
        .groupByKey(Grouped.with(Serdes.String(), Serdes.Long()))
        .aggregate(() -> 0L, (k, x, s) -> s + x,
            Materialized.<String, Long>as(persistent ? Stores.persistentKeyValueStore("sum")
                : Stores.inMemoryKeyValueStore("sum")).withKeySerde(Serdes.String())
                .withValueSerde(Serdes.Long()))
        .toStream().peek((k, v) -> each.run())
        .to(out, Produced.with(Serdes.String(), Serdes.Long()));
    return b.build();
  }

  @Test
  void brokerKeyedPipelineBesideStreamsAggregate() throws Exception {
    try (TestBroker broker = new TestBroker()) {
      broker.createTopic("perf-in", 8);
      broker.createTopic("perf-out", 8);
      broker.createTopic("perf-agg", 8);
      Properties p = new Properties();
      p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
      p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
      p.put(ProducerConfig.BATCH_SIZE_CONFIG, "262144");
      p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
      try (KafkaProducer<String, String> producer = new KafkaProducer<>(p,
          new StringSerializer(), new StringSerializer())) {
        for (int i = 0; i < RECORDS; i++) {
          producer.send(new ProducerRecord<>("perf-in", "k" + (i % KEYS), value(i)));
        }
      }

      KafkaPipelineBrokerTest.broker = broker;
      KafkaPipelineBrokerTest.Acked acked = new KafkaPipelineBrokerTest.Acked();
      CountDownLatch all = acked.at(RECORDS);
      KafkaSource source = KafkaSource.builder().bootstrap(broker.bootstrap()).topic("perf-in")
          .group("perf").build();
      KafkaCheckpointer ckpt = new KafkaCheckpointer(source, "perf.state",
          SystemClock.INSTANCE, Duration.ofSeconds(30), w -> {});
      DataflowPipeline pipeline = DataflowPipeline.builder().specification("s.dsrv", SPEC)
          .source(source).sink(new KafkaPipelineBrokerTest.TrackingSink(
              new KafkaSink(broker.bootstrap(), "perf-out"), acked))
          .checkpointer(ckpt).options(o -> o.withDrivers(2)
              .withCommitEvery(Duration.ofSeconds(2)))
          .build();
      long t0 = SystemClock.INSTANCE.nanoTime();
      pipeline.start();
      assertThat(all.await(300, TimeUnit.SECONDS)).isTrue();
      double pipelineRate = RECORDS / ((SystemClock.INSTANCE.nanoTime() - t0) / 1e9);
      pipeline.shutdown(Duration.ofSeconds(30));
      assertThat(pipeline.awaitTermination(Duration.ofSeconds(60)).ok()).isTrue();
      ckpt.close();

      CountDownLatch done = new CountDownLatch(1);
      AtomicLong counted = new AtomicLong();
      Properties sp = new Properties();
      sp.put(StreamsConfig.APPLICATION_ID_CONFIG, "perf-agg");
      sp.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
      sp.put(StreamsConfig.STATE_DIR_CONFIG, dir.resolve("agg").toString());
      sp.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
      sp.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, "2");
      sp.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
      long t1 = SystemClock.INSTANCE.nanoTime();
      try (KafkaStreams streams = new KafkaStreams(aggregate("perf-in", "perf-agg", true, () -> {
        if (counted.incrementAndGet() == RECORDS) {
          done.countDown();
        }
      }),
          sp)) {
        streams.start();
        assertThat(done.await(300, TimeUnit.SECONDS)).isTrue();
      }
      assertThat(counted.get()).isGreaterThanOrEqualTo(RECORDS);
      double aggregateRate = RECORDS / ((SystemClock.INSTANCE.nanoTime() - t1) / 1e9);
      System.out.printf("broker, 8 partitions, %d keys, %d records: keyed pipeline %.0f"
          + " records/s, Kafka Streams aggregate %.0f records/s%n", KEYS, RECORDS,
          pipelineRate, aggregateRate);
    }
  }

  @Test
  void topologyTestDriverProcessorBesideStreamsAggregate() {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "perf");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    p.put(StreamsConfig.STATE_DIR_CONFIG, dir.resolve("ttd").toString());
    p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, "0");
    Topology processor = DataflowTopology.builder().specification("s.dsrv", SPEC)
        .inputTopic("in").outputTopic("out").persistent(false).build();
    double processorRate = drive(processor, p);
    double aggregateRate = drive(aggregate("in", "out", false, () -> {}), p);
    System.out.printf("TopologyTestDriver, %d keys, %d records: DataflowProcessor %.0f"
        + " records/s, Kafka Streams aggregate %.0f records/s%n", KEYS, TTD_RECORDS,
        processorRate, aggregateRate);
  }

  static double drive(Topology t, Properties p) {
    try (TopologyTestDriver d = new TopologyTestDriver(t, p)) {
      TestInputTopic<String, String> in = d.createInputTopic("in",
          Serdes.String().serializer(), Serdes.String().serializer());
      for (int i = 0; i < 20_000; i++) { // warm-up keys
        in.pipeInput("w" + i, value(i));
      }
      long t0 = SystemClock.INSTANCE.nanoTime();
      for (int i = 0; i < TTD_RECORDS; i++) {
        in.pipeInput("k" + (i % KEYS), value(i));
      }
      return TTD_RECORDS / ((SystemClock.INSTANCE.nanoTime() - t0) / 1e9);
    }
  }
}
