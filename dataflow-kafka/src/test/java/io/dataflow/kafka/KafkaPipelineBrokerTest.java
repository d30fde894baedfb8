package io.dataflow.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dataflow.core.SystemClock;
import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import io.dataflow.pipeline.DataflowPipeline;
import io.dataflow.pipeline.PipelineExitReport;
import io.dataflow.pipeline.io.KeyedJsonLines;
import io.dataflow.pipeline.spi.Acknowledgement;
import io.dataflow.pipeline.spi.Checkpointer;
import io.dataflow.pipeline.spi.KeyedOutput;
import io.dataflow.pipeline.spi.KeyedSink;
import io.dataflow.pipeline.spi.LaneCheckpoint;
import io.dataflow.pipeline.spi.PartitionedSource;
import io.dataflow.pipeline.spi.SourceRecord;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The keyed pipeline against a real broker in this JVM (KRaft, loopback): records over 8
 * partitions, a second instance joins the group mid-run, the first is then killed: its
 * controller thread freezes where it is, its consumer and producer are dropped without a
 * commit, a revocation or a LeaveGroup, so the group notices only through the session timeout.
 * Every input's outputs are delivered at least once, with the values a lone monitor gives, and
 * no commit ever passes an unacknowledged output.
 */
class KafkaPipelineBrokerTest {
  static final int PARTITIONS = 8;
  static final int KEYS = 1000;
  static final int RECORDS = Integer.getInteger("dataflow.kafka.records", 1_000_000);
  static final String SUM = DataflowProcessorTest.SUM;
  static final int SESSION_TIMEOUT_MS = 6000;

  static TestBroker broker;

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

  /** Which (partition, offset) had its outputs acknowledged, over every instance. */
  static final class Acked {
    final BitSet[] offsets = new BitSet[PARTITIONS];
    final AtomicLong count = new AtomicLong();
    final List<String> violations = new CopyOnWriteArrayList<>();
    final Map<Long, CountDownLatch> thresholds = new HashMap<>();

    Acked() {
      for (int p = 0; p < PARTITIONS; p++) {
        offsets[p] = new BitSet();
      }
    }

    synchronized CountDownLatch at(long n) {
      return thresholds.computeIfAbsent(n, k -> new CountDownLatch(1));
    }

    void mark(List<KeyedOutput> outputs) {
      long added = 0;
      for (KeyedOutput o : outputs) {
        BitSet b = offsets[o.partition()];
        synchronized (b) {
          if (!b.get((int) o.offset())) {
            b.set((int) o.offset());
            added++;
          }
        }
      }
      long now = count.addAndGet(added);
      synchronized (this) {
        thresholds.forEach((n, latch) -> {
          if (now >= n) {
            latch.countDown();
          }
        });
      }
    }

    synchronized List<Integer> firstGaps() {
      List<Integer> gaps = new ArrayList<>();
      for (BitSet b : offsets) {
        synchronized (b) {
          gaps.add(b.nextClearBit(0));
        }
      }
      return gaps;
    }

    /** Records a violation when a record before {@code position} was not acknowledged. */
    void checkCommit(int partition, long position) {
      BitSet b = offsets[partition];
      int firstGap;
      synchronized (b) {
        firstGap = b.nextClearBit(0);
      }
      if (firstGap < position) {
        violations.add("partition " + partition + " committed " + position
            + " but offset " + firstGap + " was not acknowledged");
      }
    }
  }

  /**
   * The Kafka sink, which marks acknowledged outputs. Killed, its producer is dropped at once
   * and nothing of it is acknowledged any more (a dead process sees no callback).
   */
  static final class TrackingSink implements KeyedSink {
    final KafkaSink delegate;
    final Acked acked;
    final AtomicBoolean killed = new AtomicBoolean();
    final AtomicLong sent = new AtomicLong();
    final CountDownLatch firstAck = new CountDownLatch(1);

    TrackingSink(KafkaSink delegate, Acked acked) {
      this.delegate = delegate;
      this.acked = acked;
    }

    void kill() {
      killed.set(true);
      delegate.abandon();
    }

    @Override
    public void send(List<KeyedOutput> outputs, Acknowledgement ack) {
      if (killed.get()) {
        return;
      }
      sent.addAndGet(outputs.size());
      delegate.send(outputs, new Acknowledgement() {
        @Override
        public void succeeded() {
          if (killed.get()) {
            return;
          }
          acked.mark(outputs);
          firstAck.countDown();
          ack.succeeded();
        }

        @Override
        public void failed(Throwable error) {
          if (!killed.get()) {
            ack.failed(error);
          }
        }
      });
    }

    @Override
    public void close() {
      if (!killed.get()) {
        delegate.close();
      }
    }
  }

  /**
   * The Kafka source; killed, the controller thread's next call drops the consumer (no commit,
   * no revocation, no LeaveGroup) and the thread then stays where it is, as a killed process
   * would, until the test releases it at its end.
   */
  static final class KillableSource implements PartitionedSource {
    final KafkaSource delegate;
    final AtomicBoolean killed = new AtomicBoolean();
    final CountDownLatch frozen = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    private boolean abandoned; // controller thread only

    KillableSource(KafkaSource delegate) {
      this.delegate = delegate;
    }

    @Override
    public void open(Rebalance rebalance) {
      delegate.open(rebalance);
    }

    @Override
    public List<SourceRecord> poll(int max) {
      if (killed.get()) {
        if (!abandoned) {
          abandoned = true;
          delegate.abandon();
          frozen.countDown();
          try {
            release.await(10, TimeUnit.MINUTES);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        }
        return List.of();
      }
      return delegate.poll(max);
    }

    @Override
    public void pause(Set<Integer> partitions) {
      if (!abandoned) {
        delegate.pause(partitions);
      }
    }

    @Override
    public void resume(Set<Integer> partitions) {
      if (!abandoned) {
        delegate.resume(partitions);
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

    @Override
    public void close() {
      if (!abandoned) {
        delegate.close();
      }
    }
  }

  /** The Kafka checkpointer, checked at every commit; killed, it commits nothing more. */
  static final class CheckingCheckpointer implements Checkpointer {
    final KafkaCheckpointer delegate;
    final Acked acked;
    final AtomicBoolean killed = new AtomicBoolean();
    final AtomicLong commits = new AtomicLong();

    CheckingCheckpointer(KafkaCheckpointer delegate, Acked acked) {
      this.delegate = delegate;
      this.acked = acked;
    }

    @Override
    public Map<Integer, LaneCheckpoint> load() throws IOException {
      return delegate.load();
    }

    @Override
    public void commit(Map<Integer, LaneCheckpoint> lanes) throws IOException {
      if (killed.get()) {
        return;
      }
      lanes.values().forEach(c -> acked.checkCommit(c.partition(), c.position()));
      delegate.commit(lanes);
      commits.incrementAndGet();
    }
  }

  record Instance(DataflowPipeline pipeline, KillableSource source, TrackingSink sink,
      CheckingCheckpointer ckpt, List<String> warnings) {
    /** Kills the instance: nothing it does from now on persists or reaches the group. */
    void kill() throws InterruptedException {
      ckpt.killed.set(true);
      sink.kill();
      source.killed.set(true);
      assertThat(source.frozen.await(60, TimeUnit.SECONDS)).as("the controller froze").isTrue();
    }

    /** Lets the killed instance's threads end (the test's cleanup, not part of the scenario). */
    void reap() throws Exception {
      pipeline.cancel("killed");
      source.release.countDown();
      pipeline.awaitTermination(Duration.ofSeconds(60));
      ckpt.delegate.close();
    }
  }

  static Instance instance(String name, Acked acked) {
    List<String> warnings = new CopyOnWriteArrayList<>();
    // 6 s: a loaded machine's pauses never expire a live member; a killed one is noticed soon.
    KafkaSource source = KafkaSource.builder().bootstrap(broker.bootstrap()).topic("pin")
        .group("g").property("session.timeout.ms", Integer.toString(SESSION_TIMEOUT_MS))
        .property("heartbeat.interval.ms", "1000").build();
    KafkaCheckpointer k = new KafkaCheckpointer(source, "g.state", SystemClock.INSTANCE,
        Duration.ofSeconds(30), warnings::add);
    KillableSource killable = new KillableSource(source);
    TrackingSink sink = new TrackingSink(new KafkaSink(broker.bootstrap(), "pout"), acked);
    CheckingCheckpointer ckpt = new CheckingCheckpointer(k, acked);
    DataflowPipeline p = DataflowPipeline.builder().specification("sum.dsrv", SUM)
        .source(killable).sink(sink).checkpointer(ckpt).warnings(warnings::add)
        .options(o -> o.withName(name).withDrivers(2).withCommitEvery(Duration.ofMillis(200))
            .withCloseTimeout(Duration.ofSeconds(10)))
        .build();
    return new Instance(p, killable, sink, ckpt, warnings);
  }

  /** What a failed wait shows: each instance's status, warnings and sends, the group's size. */
  static String state(Instance a, Instance b) {
    StringBuilder s = new StringBuilder();
    for (Instance i : List.of(a, b)) {
      s.append(i == a ? "a: " : " b: ").append(i.pipeline().status())
          .append(", sent ").append(i.sink().sent.get())
          .append(", warnings ").append(i.warnings());
    }
    try {
      s.append(" group members: ").append(members());
    } catch (Exception e) {
      s.append(" group members unknown: ").append(e);
    }
    return s.toString();
  }

  /** The members of group {@code g} now. */
  static int members() throws Exception {
    try (Admin admin = broker.admin()) {
      return admin.describeConsumerGroups(List.of("g")).describedGroups().get("g")
          .get(30, TimeUnit.SECONDS).members().size();
    }
  }

  @Test
  void rebalanceAndKillLoseNoOutputAndNeverCommitPastAnUnacknowledgedOne() throws Exception {
    broker.createTopic("pin", PARTITIONS);
    broker.createTopic("pout", PARTITIONS);
    long[] xs = produce("pin", RECORDS);
    Acked acked = new Acked();
    CountDownLatch quarter = acked.at(RECORDS / 4);
    CountDownLatch half = acked.at(RECORDS / 2);
    CountDownLatch all = acked.at(RECORDS);

    Instance a = instance("a", acked);
    long t0 = SystemClock.INSTANCE.nanoTime();
    a.pipeline().start();
    assertThat(quarter.await(120, TimeUnit.SECONDS)).as("a quarter through a").isTrue();
    System.out.printf("quarter after %d ms%n", (SystemClock.INSTANCE.nanoTime() - t0) / 1_000_000);
    Instance b = instance("b", acked);
    b.pipeline().start(); // joins the group: a revokes half of its partitions
    assertThat(b.sink().firstAck.await(120, TimeUnit.SECONDS))
        .as(() -> "b took over partitions; " + state(a, b)).isTrue();
    assertThat(half.await(120, TimeUnit.SECONDS))
        .as(() -> "half through a and b; " + state(a, b)).isTrue();
    assertThat(a.sink().sent.get()).as("a still had partitions").isPositive();
    System.out.printf("half after %d ms%n", (SystemClock.INSTANCE.nanoTime() - t0) / 1_000_000);
    long killedAt = SystemClock.INSTANCE.nanoTime();
    a.kill();
    // No LeaveGroup went out: the group still counts a until its session times out.
    assertThat(members()).as("a is still a member right after the kill").isEqualTo(2);
    boolean done = all.await(120, TimeUnit.SECONDS);
    assertThat(done).as("every record acknowledged: %s acked, first gaps %s, b %s, warnings"
        + " %s / %s", acked.count, acked.firstGaps(), b.pipeline().status(), a.warnings(),
        b.warnings()).isTrue();
    System.out.printf("all after %d ms (%d ms after the kill)%n",
        (SystemClock.INSTANCE.nanoTime() - t0) / 1_000_000,
        (SystemClock.INSTANCE.nanoTime() - killedAt) / 1_000_000);
    assertThat(members()).as("the session timeout removed a").isEqualTo(1);
    b.pipeline().shutdown(Duration.ofSeconds(20));
    PipelineExitReport rb = b.pipeline().awaitTermination(Duration.ofSeconds(60));
    b.ckpt().delegate.close();
    a.reap();

    assertThat(acked.violations).isEmpty();
    assertThat(rb.ok()).as("b: %s %s", rb, b.warnings()).isTrue();
    assertThat(a.sink().sent.get()).as("a evaluated before it was killed").isPositive();
    assertThat(a.ckpt().commits.get()).as("a committed before it was killed").isPositive();
    assertThat(b.sink().sent.get()).isPositive();
    assertThat(rb.committed().keySet()).as("b owned every partition at the end")
        .hasSize(PARTITIONS);

    // The group's offsets are at the end, and never past what was acknowledged.
    try (Admin admin = broker.admin()) {
      Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets("g")
          .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
      long total = 0;
      for (Map.Entry<TopicPartition, OffsetAndMetadata> e : offsets.entrySet()) {
        acked.checkCommit(e.getKey().partition(), e.getValue().offset());
        total += e.getValue().offset();
      }
      assertThat(total).isEqualTo(RECORDS);
    }
    assertThat(acked.violations).isEmpty();

    // Every input's output, at least once, with the lone monitor's values (a running sum).
    Map<String, List<Long>> expected = new HashMap<>();
    for (int i = 0; i < RECORDS; i++) {
      List<Long> sums = expected.computeIfAbsent("k" + (i % KEYS), k -> new ArrayList<>());
      sums.add((sums.isEmpty() ? 0 : sums.get(sums.size() - 1)) + xs[i]);
    }
    ObjectMapper json = new ObjectMapper();
    Map<String, Map<Long, Long>> got = new HashMap<>();
    long[] duplicates = new long[1];
    List<String> wrong = new ArrayList<>();
    broker.readAll("pout", (key, value) -> {
      try {
        JsonNode n = json.readTree(value);
        long tick = n.get("tick").asLong();
        long s = n.get("s").asLong();
        Long before = got.computeIfAbsent(key, k -> new HashMap<>()).put(tick, s);
        if (before != null) {
          duplicates[0]++;
          if (before != s) {
            wrong.add(key + "@" + tick + ": " + before + " then " + s);
          }
        }
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    });
    assertThat(wrong).as("a replayed output differs").isEmpty();
    for (Map.Entry<String, List<Long>> e : expected.entrySet()) {
      Map<Long, Long> g = got.getOrDefault(e.getKey(), Map.of());
      assertThat(g).as("outputs of %s", e.getKey()).hasSize(e.getValue().size());
      for (int t = 0; t < e.getValue().size(); t++) {
        assertThat(g.get((long) t)).as("%s tick %s", e.getKey(), t).isEqualTo(e.getValue()
            .get(t));
      }
    }
    System.out.printf("keyed pipeline on Kafka: %d records, %d outputs repeated after the kill%n",
        RECORDS, duplicates[0]);
  }

  /**
   * Catches: a control request not applied across the drivers, applied without moving the
   * keys' history, or not acknowledged on the ack topic.
   */
  @Test
  void controlTopicReconfiguresThePipelineAndAcknowledges() throws Exception {
    broker.createTopic("cin", 2);
    broker.createTopic("cout", 2);
    broker.createTopic("ctl", 1);
    broker.createTopic("ctl.ack", 1);
    KafkaPipeline p = KafkaPipeline.builder().bootstrap(broker.bootstrap()).inputTopic("cin")
        .outputTopic("cout").group("cg").controlTopic("ctl").instance("i1")
        .specification("c.dsrv", "in x\nout z\nz = default(z[1], 0) + x")
        .options(o -> o.withDrivers(2).withCommitEvery(Duration.ofMillis(100))).build();
    p.start();
    broker.send("cin", "a", "{\"x\": 1}");
    broker.send("cin", "a", "{\"x\": 2}");
    assertThat(broker.await("cout", 2, Duration.ofSeconds(60))).containsExactly(
        "{\"key\":\"a\",\"tick\":0,\"z\":1}", "{\"key\":\"a\",\"tick\":1,\"z\":3}");
    broker.send("ctl", "r1",
        "{specification: 'in x\\nout z\\nz = default(z[1], 0) + 1 + x - x'}");
    broker.send("ctl", "r2", "{specification: 'in x\\nout z\\nz = '}");
    List<String> acks = broker.await("ctl.ack", 2, Duration.ofSeconds(60));
    assertThat(acks).hasSize(2);
    assertThat(acks.get(0)).isEqualTo("{\"instance\":\"i1\",\"controlOffset\":0,\"ok\":true,"
        + "\"monitorRevision\":1,\"plan\":\"Transfer\",\"lanes\":[0,1],\"keys\":1}");
    assertThat(acks.get(1)).startsWith("{\"instance\":\"i1\",\"controlOffset\":1,"
        + "\"ok\":false,\"error\":");
    broker.send("cin", "a", "{\"x\": 3}");
    assertThat(broker.await("cout", 3, Duration.ofSeconds(60))).last()
        .isEqualTo("{\"key\":\"a\",\"tick\":2,\"z\":4}");
    p.shutdown(Duration.ofSeconds(10));
    assertThat(p.awaitTermination(Duration.ofSeconds(30)).ok()).isTrue();
  }

  /**
   * Catches: records a source had buffered (polled beyond the caller's {@code max}) handed over
   * by the very poll whose rebalance revoked their partition (seen as "the source returned a
   * record of partition 0 ..., which is not assigned" and a frozen pipeline). Source {@code a}
   * polls 5 records at a time from fetches of 7, so nearly every poll drains part of its buffer
   * before it polls the consumer; {@code b} joins its group and later leaves it, two
   * rebalances (eager: every partition of {@code a} revoked in its poll). Every record {@code a}
   * hands over must be of a partition it owns, at the offset after the previous one of that
   * partition or where its last assignment put it.
   */
  @Test
  void aSourceNeverHandsOverARecordOfAPartitionRevokedInItsPoll() throws Exception {
    broker.createTopic("sin", 4);
    produce("sin", 200_000);
    Map<Integer, Long> next = new HashMap<>(); // a's partitions: the offset it must hand next
    Map<Integer, Long> handed = new HashMap<>(); // the offset after the last one a handed over
    KafkaSource a = smallFetches();
    a.open(new PartitionedSource.Rebalance() {
      @Override
      public Map<Integer, Long> assigned(Set<Integer> partitions) {
        Map<Integer, Long> at = new HashMap<>();
        for (int p : partitions) {
          at.put(p, handed.getOrDefault(p, 0L)); // as if all it handed over was committed
        }
        next.putAll(at);
        return at;
      }

      @Override
      public void revoked(Set<Integer> partitions) {
        partitions.forEach(next::remove);
      }
    });
    long deadline = SystemClock.INSTANCE.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    KafkaSource b = smallFetches();
    try {
      while (handed.values().stream().mapToLong(Long::longValue).sum() < 500) {
        assertThat(SystemClock.INSTANCE.nanoTime()).as("a reads").isLessThan(deadline);
        handOver(a, next, handed);
      }
      b.open(new PartitionedSource.Rebalance() {
        @Override
        public Map<Integer, Long> assigned(Set<Integer> partitions) {
          return Map.of(); // from the start: b's records are not checked
        }

        @Override
        public void revoked(Set<Integer> partitions) {}
      });
      int bRecords = 0;
      int after = 0; // records a handed over since b had its first
      while (bRecords == 0 || after < 200) {
        assertThat(SystemClock.INSTANCE.nanoTime()).as("b joins").isLessThan(deadline);
        int n = handOver(a, next, handed);
        after += bRecords > 0 ? n : 0;
        bRecords += b.poll(5).size();
      }
      b.close(); // leaves the group: a takes every partition back
      b = null;
      after = 0;
      while (next.size() < 4 || after < 200) {
        assertThat(SystemClock.INSTANCE.nanoTime()).as("a takes all back").isLessThan(deadline);
        int n = handOver(a, next, handed);
        after += next.size() == 4 ? n : 0;
      }
    } finally {
      a.close();
      if (b != null) {
        b.close();
      }
    }
  }

  /**
   * Polls up to 5 records of {@code a} and checks each against {@code next} (its partitions'
   * next offsets), advancing it and {@code handed}; returns how many it handed over.
   */
  static int handOver(KafkaSource a, Map<Integer, Long> next, Map<Integer, Long> handed) {
    List<SourceRecord> records = a.poll(5);
    for (SourceRecord r : records) {
      assertThat(a.owns(r.partition())).as("a owns partition %d at offset %d", r.partition(),
          r.offset()).isTrue();
      assertThat(r.offset()).as("partition %d's next offset", r.partition())
          .isEqualTo(next.get(r.partition()));
      next.put(r.partition(), r.offset() + 1);
      handed.put(r.partition(), r.offset() + 1);
    }
    return records.size();
  }

  /** A source of group {@code sg} on {@code sin} whose consumer fetches 7 records per poll. */
  static KafkaSource smallFetches() {
    return KafkaSource.builder().bootstrap(broker.bootstrap()).topic("sin").group("sg")
        .property("max.poll.records", "7").build();
  }

  /**
   * Produces the records into {@code topic} (key k(i mod KEYS), x = i mod 7) and returns the x
   * values; a send
   * that fails fails the test here (unchecked, a lost input record only showed as a timeout).
   */
  static long[] produce(String topic, int records) {
    long[] xs = new long[records];
    AtomicReference<Exception> failed = new AtomicReference<>();
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrap());
    p.put(ProducerConfig.LINGER_MS_CONFIG, "20");
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, "262144");
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p,
        new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < records; i++) {
        xs[i] = i % 7;
        producer.send(new ProducerRecord<>(topic, "k" + (i % KEYS),
            KeyedJsonLines.recordLine(null, null, Tick.of("x", Value.of(xs[i])))),
            (md, e) -> {
              if (e != null) {
                failed.compareAndSet(null, e);
              }
            });
      }
      producer.flush();
    }
    assertThat(failed.get()).as("every input record was written").isNull();
    return xs;
  }
}
