package io.dataflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.SystemClock;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.server.common.MetadataVersion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dataflow kafka} against a KRaft broker in the test's JVM (loopback): the command runs
 * in this JVM through {@link Cli#run} with signals of the test's own, so its Ctrl-C path (the
 * one-deadline shutdown with a final commit) runs without ending the JVM.
 */
class KafkaCommandTest {
  static final String SUM = "in x: Int\nout n: Int\nout s: Int\nn = default(n[1], 0) + 1\n"
      + "s = default(s[1], 0) + x\n";
  static KafkaClusterTestKit cluster;

  @TempDir
  Path dir;

  @BeforeAll
  static void start() throws Exception {
    cluster = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder().setCombined(true)
        .setBootstrapMetadataVersion(MetadataVersion.latestProduction())
        .setNumBrokerNodes(1).setNumControllerNodes(1).build())
        .setConfigProp("offsets.topic.replication.factor", "1")
        .setConfigProp("offsets.topic.num.partitions", "2")
        .setConfigProp("transaction.state.log.replication.factor", "1")
        .setConfigProp("transaction.state.log.min.isr", "1")
        .setConfigProp("group.initial.rebalance.delay.ms", "0")
        .build();
    cluster.format();
    cluster.startup();
    cluster.waitForReadyBrokers();
  }

  @AfterAll
  static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** SIGTERM and Ctrl-C of a test: {@link #raise} runs the installed handler in a thread. */
  static final class TestSignals implements Signals {
    final CompletableFuture<Runnable> installed = new CompletableFuture<>();
    final AtomicBoolean removed = new AtomicBoolean();

    @Override
    public Handle install(Runnable onSignal) {
      installed.complete(onSignal);
      return () -> removed.set(true);
    }

    Thread raise() throws Exception {
      Thread t = new Thread(installed.get(60, TimeUnit.SECONDS), "test-signal");
      t.start();
      return t;
    }
  }

  /**
   * Catches: a kafka command that does not read its topic, writes outputs other than the lone
   * monitor's, ignores or does not acknowledge its control topic, or ends on Ctrl-C without
   * its final commit or with a status other than 0.
   */
  @Test
  void readsTheTopicWritesOutputsAppliesRequestsAndCommitsOnCtrlC() throws Exception {
    String bootstrap = cluster.bootstrapServers();
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
        bootstrap))) {
      admin.createTopics(List.of(new NewTopic("telemetry", 2, (short) 1),
          new NewTopic("verdicts", 2, (short) 1), new NewTopic("fleet-control", 1, (short) 1),
          new NewTopic("fleet-control.ack", 1, (short) 1))).all().get(60, TimeUnit.SECONDS);
    }
    Path spec = Files.writeString(dir.resolve("sum.dsrv"), SUM);
    TestSignals signals = new TestSignals();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    CompletableFuture<Integer> status = CompletableFuture.supplyAsync(() -> Cli.run(
        new String[] {"kafka", spec.toString(), "--bootstrap", bootstrap,
            "--input-topic", "telemetry", "--output-topic", "verdicts", "--group", "fleet",
            "--control-topic", "fleet-control", "--instance", "cli-1", "--drivers", "1"},
        new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        Environment.pipes().withSignals(signals)));
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new StringSerializer(),
        new StringSerializer())) {
      send(producer, "telemetry", "a", "{\"x\": 5}");
      send(producer, "telemetry", "b", "{\"x\": 7}");
      send(producer, "telemetry", "a", "{\"x\": 1}");
      assertThat(await(bootstrap, "verdicts", 3)).as("stderr: %s", err)
          .containsExactlyInAnyOrder("{\"key\":\"a\",\"tick\":0,\"n\":1,\"s\":5}",
              "{\"key\":\"b\",\"tick\":0,\"n\":1,\"s\":7}",
              "{\"key\":\"a\",\"tick\":1,\"n\":2,\"s\":6}");
      // The outputs show the pipeline runs, so its control reader has its start position.
      send(producer, "fleet-control", "r1", "{specification: 'in x: Int\\nout n: Int\\nout s:"
          + " Int\\nn = default(n[1], 0) + 1\\ns = default(s[1], 0) + 2 * x'}");
      List<String> acks = await(bootstrap, "fleet-control.ack", 1);
      assertThat(acks).hasSize(1);
      assertThat(acks.get(0)).isEqualTo("{\"instance\":\"cli-1\",\"controlOffset\":0,"
          + "\"ok\":true,\"monitorRevision\":1,\"plan\":\"Transfer\",\"lanes\":[0,1],"
          + "\"keys\":2}");
      send(producer, "telemetry", "a", "{\"x\": 1}");
      assertThat(await(bootstrap, "verdicts", 4))
          .contains("{\"key\":\"a\",\"tick\":2,\"n\":3,\"s\":8}");
    }

    signals.raise().join(TimeUnit.SECONDS.toMillis(60));
    assertThat(status.get(60, TimeUnit.SECONDS)).as("stderr: %s", err).isZero();
    assertThat(signals.removed).isTrue();
    String stderr = err.toString(StandardCharsets.UTF_8);
    // The committed position of each lane (-1: a lane without records).
    Matcher committed = Pattern.compile("committed \\{(.*)\\}").matcher(stderr);
    assertThat(committed.find()).as("stderr: %s", stderr).isTrue();
    long total = 0;
    for (String lane : committed.group(1).split(", ")) {
      total += Math.max(0, Long.parseLong(lane.substring(lane.indexOf('=') + 1)));
    }
    assertThat(total).as("stderr: %s", stderr).isEqualTo(4);
    assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    // The final commit: the group's offsets are at the end of both partitions.
    try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
        bootstrap))) {
      Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets("fleet")
          .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
      assertThat(offsets.values().stream().mapToLong(OffsetAndMetadata::offset).sum())
          .as("stderr: %s", stderr).isEqualTo(4);
    }
  }

  static void send(KafkaProducer<String, String> producer, String topic, String key,
      String value) throws Exception {
    producer.send(new ProducerRecord<>(topic, key, value)).get(30, TimeUnit.SECONDS);
  }

  /** The first {@code n} values of {@code topic} (all partitions), waiting at most 60 s. */
  static List<String> await(String bootstrap, String topic, int n) {
    List<String> values = new ArrayList<>();
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p, new StringDeserializer(),
        new StringDeserializer())) {
      List<TopicPartition> parts = new ArrayList<>();
      for (PartitionInfo i : c.partitionsFor(topic)) {
        parts.add(new TopicPartition(topic, i.partition()));
      }
      c.assign(parts);
      c.seekToBeginning(parts);
      long deadline = SystemClock.INSTANCE.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (values.size() < n && SystemClock.INSTANCE.nanoTime() - deadline < 0) {
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(100))) {
          values.add(r.value());
        }
      }
    }
    return values;
  }
}
