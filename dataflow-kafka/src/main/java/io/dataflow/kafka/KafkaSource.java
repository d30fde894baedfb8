package io.dataflow.kafka;

import io.dataflow.io.TraceException;
import io.dataflow.pipeline.internal.SynchronousRevocation;
import io.dataflow.pipeline.io.KeyedJsonLines;
import io.dataflow.pipeline.spi.PartitionedSource;
import io.dataflow.pipeline.spi.SourceRecord;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * A {@link PartitionedSource} over one Kafka topic, read by a consumer of a consumer group:
 * the topic's partitions are the pipeline's lanes, the record key (or a field of the JSON
 * value) is the monitor key, the value is a tick in the JSON Lines tick format.
 *
 * <p>The consumer lives on the pipeline's controller thread (the only caller). Assigned
 * partitions become lanes and are read from the position the pipeline's checkpointer answers
 * (from the beginning without one). Revoked partitions are stopped inside the consumer's
 * rebalance callback: the lanes' drivers evaluate what they were handed and flush, the sink
 * acknowledges, the acknowledged checkpoint is committed (a {@link KafkaCheckpointer} commits
 * it to the state topic and the group's offsets, synchronously), all before the rebalance
 * completes, bounded by the pipeline's close timeout. Records polled but not handed over are
 * dropped: the next owner reads them again; that includes records taken from this source's
 * buffer by the {@code poll} whose rebalance revoked their partition. Lost partitions (the group moved on without this
 * consumer) are stopped without waiting; their later commits are skipped.
 *
 * <p>A record without a key (or key field), or whose value is not a tick, fails the pipeline
 * with its topic, partition and offset, or with {@link OnBadRecord#SKIP} is skipped with a
 * counted warning.
 *
 * <p>The source is unbounded: the pipeline runs until it is shut down.
 *
 * <p>Thread-safety: the pipeline's controller thread only.
 */
public final class KafkaSource implements PartitionedSource {
  /** What a bad record does. */
  public enum OnBadRecord {
    /** The pipeline fails with the record's location (the default). */
    FAIL,
    /** The record is skipped, counted and reported as a warning. */
    SKIP
  }

  private final String topic;
  private final Properties props;
  private final OnBadRecord onBadRecord;
  private final Consumer<String> warnings;
  private final KeyedJsonLines.Decoder decoder;
  private final boolean keyFromRecord;
  private final Duration pollTimeout;
  // controller thread only, like every field below
  private KafkaConsumer<String, String> consumer;
  private Rebalance rebalance;
  private final Map<Integer, ArrayDeque<SourceRecord>> buffered = new HashMap<>();
  private final Set<Integer> paused = new TreeSet<>();
  private final Set<Integer> owned = new TreeSet<>();
  /** Partitions revoked or lost during the current {@code consumer.poll} (see {@link #poll}). */
  private final Set<Integer> stoppedInPoll = new TreeSet<>();
  private boolean closing;
  private long skipped;
  private TraceException pending;

  private KafkaSource(Builder b) {
    this.topic = b.topic;
    this.onBadRecord = b.onBadRecord;
    this.warnings = b.warnings;
    this.keyFromRecord = b.keyField == null;
    this.decoder = KeyedJsonLines.decoder(b.keyField);
    this.pollTimeout = b.pollTimeout;
    this.props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, b.bootstrap);
    props.put(ConsumerConfig.GROUP_ID_CONFIG, b.group);
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2048");
    props.putAll(b.extra);
  }

  /** A builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Configures a source; {@code bootstrap}, {@code topic} and {@code group} are required. */
  public static final class Builder {
    private String bootstrap;
    private String topic;
    private String group;
    private String keyField;
    private OnBadRecord onBadRecord = OnBadRecord.FAIL;
    private Consumer<String> warnings = w -> {};
    private Duration pollTimeout = Duration.ofMillis(1);
    private final Properties extra = new Properties();

    private Builder() {}

    /** The brokers, {@code host:port[,host:port]}. */
    public Builder bootstrap(String servers) {
      this.bootstrap = require(servers, "bootstrap");
      return this;
    }

    /** The input topic. */
    public Builder topic(String name) {
      this.topic = require(name, "topic");
      return this;
    }

    /** The consumer group: instances of one group share the partitions. */
    public Builder group(String id) {
      this.group = require(id, "group");
      return this;
    }

    /** The JSON field holding the key (a string or an integer); null: the record key. */
    public Builder keyField(String field) {
      this.keyField = field;
      return this;
    }

    /** What a bad record does (default FAIL); skipped ones go to {@code warnings}. */
    public Builder onBadRecord(OnBadRecord policy, Consumer<String> warnings) {
      this.onBadRecord = Objects.requireNonNull(policy, "onBadRecord");
      this.warnings = Objects.requireNonNull(warnings, "warnings");
      return this;
    }

    /** How long one poll may wait for records (default 1 ms; the controller idles between). */
    public Builder pollTimeout(Duration timeout) {
      if (timeout.isNegative()) {
        throw new IllegalArgumentException("pollTimeout must not be negative, not " + timeout);
      }
      this.pollTimeout = timeout;
      return this;
    }

    /** Any other consumer property (security, timeouts); group and offsets stay the source's. */
    public Builder property(String name, String value) {
      extra.put(require(name, "property name"), Objects.requireNonNull(value, name));
      return this;
    }

    /** The source. */
    public KafkaSource build() {
      if (bootstrap == null || topic == null || group == null) {
        throw new IllegalStateException("bootstrap, topic and group are required");
      }
      return new KafkaSource(this);
    }
  }

  static String require(String s, String what) {
    if (s == null || s.isBlank()) {
      throw new IllegalArgumentException(what + " must not be blank, not '" + s + "'");
    }
    return s;
  }

  /** The input topic. */
  public String topic() {
    return topic;
  }

  /** The consumer group. */
  public String group() {
    return props.getProperty(ConsumerConfig.GROUP_ID_CONFIG);
  }

  /** The bootstrap servers. */
  String bootstrap() {
    return props.getProperty(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG);
  }

  @Override
  public void open(Rebalance rebalance) {
    this.rebalance = rebalance;
    consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer());
    consumer.subscribe(List.of(topic), new Listener());
  }

  /** The consumer's rebalance callbacks, run inside {@code poll} on the controller thread. */
  private final class Listener implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
      if (closing || partitions.isEmpty()) {
        return;
      }
      Set<Integer> ids = ids(partitions);
      owned.addAll(ids);
      Map<Integer, Long> positions = rebalance.assigned(ids);
      List<TopicPartition> fromStart = new ArrayList<>();
      for (TopicPartition tp : partitions) {
        Long at = positions.get(tp.partition());
        if (at == null) {
          fromStart.add(tp);
        } else {
          consumer.seek(tp, at);
        }
      }
      if (!fromStart.isEmpty()) {
        consumer.seekToBeginning(fromStart);
      }
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
      stop(partitions, true);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
      stop(partitions, false);
    }
  }

  private void stop(Collection<TopicPartition> partitions, boolean commit) {
    if (closing || partitions.isEmpty()) {
      return;
    }
    Set<Integer> ids = ids(partitions);
    stoppedInPoll.addAll(ids);
    for (int p : ids) {
      buffered.remove(p); // never handed over: the next owner reads them again
      paused.remove(p);
    }
    if (commit && rebalance instanceof SynchronousRevocation sync) {
      if (!sync.revokeAndAwait(ids)) {
        warnings.accept("revoked partitions " + ids + " of " + topic + " were not fully"
            + " acknowledged in time: committed up to the acknowledged prefix");
      }
      owned.removeAll(ids);
    } else {
      owned.removeAll(ids); // lost: commits of these lanes are skipped from now on
      rebalance.revoked(ids);
    }
  }

  private static Set<Integer> ids(Collection<TopicPartition> partitions) {
    Set<Integer> ids = new TreeSet<>();
    partitions.forEach(tp -> ids.add(tp.partition()));
    return ids;
  }

  @Override
  public List<SourceRecord> poll(int max) {
    if (pending != null) {
      TraceException e = pending;
      pending = null;
      throw e;
    }
    List<SourceRecord> out = new ArrayList<>();
    drainBuffered(out, max);
    if (out.size() >= max) {
      return out;
    }
    stoppedInPoll.clear();
    ConsumerRecords<String, String> records = consumer.poll(pollTimeout);
    if (!stoppedInPoll.isEmpty()) {
      // Records drained from the buffer above, of a partition revoked or lost inside this
      // poll's rebalance callbacks: never handed over, so not committed; its next owner (this
      // source too, from the committed position, if it came back in the same poll) reads them
      // again. Handing them over now would give the pipeline records of a lane it has stopped.
      out.removeIf(r -> stoppedInPoll.contains(r.partition()));
    }
    for (ConsumerRecord<String, String> r : records) {
      SourceRecord s;
      try {
        s = decode(r);
      } catch (TraceException e) {
        if (onBadRecord == OnBadRecord.FAIL) {
          if (out.isEmpty()) {
            throw e;
          }
          pending = e; // the records before the bad one are delivered first
          return out;
        }
        skipped++;
        warnings.accept("skipped bad record " + e.getMessage() + " (" + skipped
            + " skipped so far)");
        continue;
      }
      if (s == null) {
        continue;
      }
      if (out.size() < max && !paused.contains(s.partition())
          && !buffered.containsKey(s.partition())) {
        out.add(s);
      } else {
        buffered.computeIfAbsent(s.partition(), k -> new ArrayDeque<>()).addLast(s);
      }
    }
    applyPauses();
    return out;
  }

  private void drainBuffered(List<SourceRecord> out, int max) {
    for (var it = buffered.entrySet().iterator(); it.hasNext() && out.size() < max; ) {
      var e = it.next();
      if (paused.contains(e.getKey())) {
        continue;
      }
      ArrayDeque<SourceRecord> q = e.getValue();
      while (!q.isEmpty() && out.size() < max) {
        out.add(q.pollFirst());
      }
      if (q.isEmpty()) {
        it.remove();
      }
    }
  }

  private SourceRecord decode(ConsumerRecord<String, String> r) {
    String where = r.topic() + "[" + r.partition() + "]";
    if (r.value() == null) {
      throw new TraceException(new io.dataflow.core.SourceLocation(where,
          (int) Math.min(Integer.MAX_VALUE, r.offset()), 1), "the record at offset "
          + r.offset() + " has no value");
    }
    KeyedJsonLines.Keyed k = decoder.decode(r.value(), where, r.offset());
    Object key = k.key();
    if (keyFromRecord) {
      if (r.key() == null) {
        throw new TraceException(new io.dataflow.core.SourceLocation(where,
            (int) Math.min(Integer.MAX_VALUE, r.offset()), 1), "the record at offset "
            + r.offset() + " has no key");
      }
      key = r.key();
    }
    return new SourceRecord(r.partition(), r.offset(), key, k.tick());
  }

  /** Keeps the consumer's paused partitions what the pipeline asked, within the assignment. */
  private void applyPauses() {
    Set<TopicPartition> assigned = consumer.assignment();
    List<TopicPartition> pause = new ArrayList<>();
    List<TopicPartition> resume = new ArrayList<>();
    for (TopicPartition tp : assigned) {
      boolean want = paused.contains(tp.partition()) || bufferedSize(tp.partition()) > 4096;
      if (want && !consumer.paused().contains(tp)) {
        pause.add(tp);
      } else if (!want && consumer.paused().contains(tp)) {
        resume.add(tp);
      }
    }
    if (!pause.isEmpty()) {
      consumer.pause(pause);
    }
    if (!resume.isEmpty()) {
      consumer.resume(resume);
    }
  }

  private int bufferedSize(int partition) {
    ArrayDeque<SourceRecord> q = buffered.get(partition);
    return q == null ? 0 : q.size();
  }

  @Override
  public void pause(Set<Integer> partitions) {
    paused.addAll(partitions);
    if (consumer != null) {
      applyPauses();
    }
  }

  @Override
  public void resume(Set<Integer> partitions) {
    paused.removeAll(partitions);
    if (consumer != null) {
      applyPauses();
    }
  }

  @Override
  public boolean isEnded(int partition) {
    return false;
  }

  @Override
  public boolean isExhausted() {
    return false;
  }

  /** Records skipped as bad so far. */
  public long skipped() {
    return skipped;
  }

  /** True while {@code partition} is assigned to this consumer and not being lost. */
  boolean owns(int partition) {
    return owned.contains(partition);
  }

  /**
   * Commits the group's offsets synchronously (controller thread only: the checkpointer's
   * commit, inside or outside a rebalance callback).
   */
  void commitOffsets(Map<Integer, Long> positions) {
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    positions.forEach((p, pos) -> offsets.put(new TopicPartition(topic, p),
        new OffsetAndMetadata(pos)));
    if (!offsets.isEmpty()) {
      consumer.commitSync(offsets);
    }
  }

  /**
   * Drops the consumer as a killed process leaves it (tests of a crash): no revocation
   * callback, no commit, no LeaveGroup; the group notices only through the session timeout.
   * Controller thread only; the source is unusable afterwards.
   */
  void abandon() {
    closing = true;
    if (consumer != null) {
      consumer.close(CloseOptions.groupMembershipOperation(
          CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP).withTimeout(Duration.ZERO));
    }
  }

  @Override
  public void close() {
    closing = true; // the consumer's own revocation on close must not re-enter the pipeline
    if (consumer != null) {
      consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
    }
  }
}
