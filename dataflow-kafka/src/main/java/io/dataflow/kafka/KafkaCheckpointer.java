package io.dataflow.kafka;

import io.dataflow.core.Clock;
import io.dataflow.core.SystemClock;
import io.dataflow.kafka.internal.LaneRecord;
import io.dataflow.pipeline.spi.Checkpointer;
import io.dataflow.pipeline.spi.LaneCheckpoint;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The keyed pipeline's commits on Kafka, for a {@link KafkaSource}: each lane's checkpoint
 * (position, specification and the state of the lane's keys) is a record of a compacted state
 * topic keyed {@code <input topic>/<partition>}, and the position is then committed as the
 * group's offset. The state topic is the authority (a restart and a new owner of a partition
 * read it); the group's offsets follow it, never ahead, so lag tools and {@code
 * kafka-consumer-groups} show real progress.
 *
 * <p>A commit writes the lanes' records with an idempotent producer and waits until the broker
 * has them (acks=all), then commits the offsets synchronously through the source's consumer. A
 * state write that fails fails the commit (the pipeline fails with component
 * {@code checkpoint}); an offset commit that fails because the group is rebalancing is a warning
 * only (the state topic already holds the position). Lanes the source no longer owns (lost
 * partitions) are not committed: another consumer owns their state now.
 *
 * <p>The state topic is created when missing (compacted, one partition, records up to 64 MiB):
 * a lane's record holds every key of the partition, about 200 bytes per key.
 *
 * <p>Thread-safety: the pipeline's controller thread only (the consumer's thread).
 */
public final class KafkaCheckpointer implements Checkpointer {
  static final int MAX_RECORD_BYTES = 64 * 1024 * 1024;

  private final KafkaSource source;
  private final String stateTopic;
  private final Clock clock;
  private final Duration timeout;
  private final Consumer<String> warnings;
  private final Properties common = new Properties();
  private KafkaProducer<String, byte[]> producer; // controller thread only
  private boolean topicChecked;

  /**
   * Commits for {@code source}'s lanes to {@code stateTopic}; every wait is bounded by
   * {@code timeout} on {@code clock}; offset commit failures go to {@code warnings}.
   */
  public KafkaCheckpointer(KafkaSource source, String stateTopic, Clock clock, Duration timeout,
      Consumer<String> warnings) {
    this.source = Objects.requireNonNull(source, "source");
    this.stateTopic = KafkaSource.require(stateTopic, "stateTopic");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.warnings = Objects.requireNonNull(warnings, "warnings");
    common.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, source.bootstrap());
  }

  /** Commits to {@code <group>.state} with a 30 s bound on the system clock. */
  public static KafkaCheckpointer of(KafkaSource source, Consumer<String> warnings) {
    return new KafkaCheckpointer(source, source.group() + ".state", SystemClock.INSTANCE,
        Duration.ofSeconds(30), warnings);
  }

  /** The state topic. */
  public String stateTopic() {
    return stateTopic;
  }

  @Override
  public Map<Integer, LaneCheckpoint> load() throws IOException {
    ensureTopic();
    Properties p = new Properties();
    p.putAll(common);
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    p.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, Integer.toString(MAX_RECORD_BYTES));
    p.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, Integer.toString(MAX_RECORD_BYTES));
    Map<Integer, LaneCheckpoint> out = new TreeMap<>();
    String prefix = source.topic() + "/";
    long until = clock.nanoTime() + timeout.toNanos();
    try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(p, new StringDeserializer(),
        new ByteArrayDeserializer())) {
      List<TopicPartition> parts = new ArrayList<>();
      for (PartitionInfo info : c.partitionsFor(stateTopic, timeout)) {
        parts.add(new TopicPartition(stateTopic, info.partition()));
      }
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts, timeout);
      while (!caughtUp(c, end)) {
        if (clock.nanoTime() - until >= 0) {
          throw new IOException("reading the state topic " + stateTopic + " took longer than "
              + timeout);
        }
        for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(100))) {
          if (r.key() == null || !r.key().startsWith(prefix)) {
            continue;
          }
          int partition = Integer.parseInt(r.key().substring(prefix.length()));
          if (r.value() == null) {
            out.remove(partition);
          } else {
            out.put(partition, LaneRecord.decode(r.value()));
          }
        }
      }
    } catch (KafkaException e) {
      throw new IOException("reading the state topic " + stateTopic + ": " + e.getMessage(), e);
    }
    return out;
  }

  private static boolean caughtUp(KafkaConsumer<?, ?> c, Map<TopicPartition, Long> end) {
    for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
      if (c.position(e.getKey()) < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void commit(Map<Integer, LaneCheckpoint> lanes) throws IOException {
    ensureTopic();
    if (producer == null) {
      Properties p = new Properties();
      p.putAll(common);
      p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
      p.put(ProducerConfig.ACKS_CONFIG, "all");
      p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(MAX_RECORD_BYTES));
      p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, Integer.toString(2 * MAX_RECORD_BYTES));
      p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
      producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer());
    }
    Map<Integer, Long> positions = new TreeMap<>();
    List<Future<RecordMetadata>> sent = new ArrayList<>();
    for (LaneCheckpoint c : lanes.values()) {
      if (!source.owns(c.partition())) {
        continue; // lost: another consumer owns the partition's state now
      }
      sent.add(producer.send(new ProducerRecord<>(stateTopic,
          LaneRecord.key(source.topic(), c.partition()), LaneRecord.encode(c))));
      positions.put(c.partition(), c.position());
    }
    producer.flush();
    long until = clock.nanoTime() + timeout.toNanos();
    for (Future<RecordMetadata> f : sent) {
      try {
        f.get(Math.max(0, until - clock.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (ExecutionException | TimeoutException e) {
        throw new IOException("writing lane state to " + stateTopic + " failed: " + e, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IOException("interrupted while writing lane state", e);
      }
    }
    try {
      source.commitOffsets(positions);
    } catch (KafkaException e) {
      warnings.accept("the group's offsets " + positions + " were not committed (" + e
          + "); the state topic holds them");
    }
  }

  private void ensureTopic() throws IOException {
    if (topicChecked) {
      return;
    }
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, source.bootstrap());
    try (Admin admin = Admin.create(p)) {
      Map<String, String> config = new HashMap<>();
      config.put("cleanup.policy", "compact");
      config.put("max.message.bytes", Integer.toString(MAX_RECORD_BYTES));
      admin.createTopics(List.of(new NewTopic(stateTopic, 1, (short) -1).configs(config)))
          .all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new IOException("creating the state topic " + stateTopic + ": " + e.getCause(),
            e);
      }
    } catch (TimeoutException | KafkaException e) {
      throw new IOException("creating the state topic " + stateTopic + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while creating the state topic", e);
    }
    topicChecked = true;
  }

  /** Releases the producer. */
  public void close() {
    if (producer != null) {
      producer.close(Duration.ofSeconds(5));
    }
  }
}
