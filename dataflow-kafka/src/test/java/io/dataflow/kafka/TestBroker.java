package io.dataflow.kafka;

import io.dataflow.core.SystemClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.server.common.MetadataVersion;

/** One in-process KRaft broker (combined with its controller) on loopback, for tests. */
final class TestBroker implements AutoCloseable {
  private final KafkaClusterTestKit cluster;

  TestBroker() throws Exception {
    // The metadata version a 4.1 broker runs in production: the test kit's default is the
    // latest testing one, whose unstable features made the broker reject idempotent batches
    // (OutOfOrderSequenceException) under load, so records of a test's input went missing.
    cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder().setCombined(true)
        .setBootstrapMetadataVersion(MetadataVersion.latestProduction())
        .setNumBrokerNodes(1).setNumControllerNodes(1).build())
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("offsets.topic.num.partitions", "4")
        .setConfigProp("transaction.state.log.replication.factor", "1")
        .setConfigProp("transaction.state.log.min.isr", "1")
        .setConfigProp("transaction.state.log.num.partitions", "4")
        .setConfigProp("group.initial.rebalance.delay.ms", "0")
        .setConfigProp("group.min.session.timeout.ms", "500")
        .setConfigProp("num.partitions", "1")
        .build();
    cluster.format();
    cluster.startup();
    cluster.waitForReadyBrokers();
  }

  String bootstrap() {
    return cluster.bootstrapServers();
  }

  Admin admin() {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
    return Admin.create(p);
  }

  void createTopic(String name, int partitions) throws Exception {
    try (Admin a = admin()) {
      a.createTopics(List.of(new NewTopic(name, partitions, (short) 1))).all()
          .get(30, TimeUnit.SECONDS);
    }
  }

  /** Reads every record of {@code topic} up to its end offsets now (read_committed). */
  void readAll(String topic, BiConsumer<String, String> each) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "10000");
    try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p, new StringDeserializer(),
        new StringDeserializer())) {
      List<TopicPartition> parts = new ArrayList<>();
      for (PartitionInfo i : c.partitionsFor(topic)) {
        parts.add(new TopicPartition(topic, i.partition()));
      }
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts);
      long deadline = SystemClock.INSTANCE.nanoTime() + Duration.ofSeconds(120).toNanos();
      while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
        if (SystemClock.INSTANCE.nanoTime() > deadline) {
          throw new AssertionError("reading " + topic + " took longer than 120 s");
        }
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
          each.accept(r.key(), r.value());
        }
      }
    }
  }

  /** The first {@code n} values of {@code topic} (all partitions, read_committed), bounded. */
  List<String> await(String topic, int n, Duration timeout) {
    List<String> out = new ArrayList<>();
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p, new StringDeserializer(),
        new StringDeserializer())) {
      List<TopicPartition> parts = new ArrayList<>();
      for (PartitionInfo i : c.partitionsFor(topic)) {
        parts.add(new TopicPartition(topic, i.partition()));
      }
      c.assign(parts);
      c.seekToBeginning(parts);
      long deadline = SystemClock.INSTANCE.nanoTime() + timeout.toNanos();
      while (out.size() < n && SystemClock.INSTANCE.nanoTime() < deadline) {
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(100))) {
          out.add(r.value());
        }
      }
    }
    return out;
  }

  void send(String topic, String key, String value) throws Exception {
    Properties p = new Properties();
    p.put(org.apache.kafka.clients.producer.ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
        bootstrap());
    try (org.apache.kafka.clients.producer.KafkaProducer<String, String> producer =
        new org.apache.kafka.clients.producer.KafkaProducer<>(p,
            new org.apache.kafka.common.serialization.StringSerializer(),
            new org.apache.kafka.common.serialization.StringSerializer())) {
      producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(topic, key, value))
          .get(30, TimeUnit.SECONDS);
    }
  }

  @Override
  public void close() throws Exception {
    cluster.close();
  }
}
