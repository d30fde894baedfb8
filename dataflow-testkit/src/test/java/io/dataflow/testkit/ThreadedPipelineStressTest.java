package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import io.dataflow.pipeline.DataflowPipeline;
import io.dataflow.pipeline.PipelineAck;
import io.dataflow.pipeline.PipelineExitReport;
import io.dataflow.pipeline.io.KeyedSinks;
import io.dataflow.pipeline.io.QueuePartitionedSource;
import io.dataflow.reconfig.ReconfigurationRequest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The keyed pipeline on real threads (docs/pipeline.md): four producer threads, 100k keys, a
 * reconfiguration every 10k records, two drivers; every record's output arrives exactly once
 * and every key's count carries over every reconfiguration. Every wait is bounded.
 */
class ThreadedPipelineStressTest {
  static final String A = "in x: Int\nout n: Int\nn = default(n[1], 0) + 1";
  static final String B = A + "\nout twice: Int\ntwice = n * 2";
  static final int KEYS = 100_000;
  static final int PER_KEY = 2;
  static final int PRODUCERS = 4;

  /**
   * Catches: records lost or evaluated twice under concurrent producers, a reconfiguration
   * that loses or repeats the records around it, state lost across a reconfiguration, and a
   * request acknowledged before every driver applied it.
   */
  @Test
  void fourProducersHundredThousandKeysAndReconfigurationsLoseAndRepeatNothing()
      throws Exception {
    QueuePartitionedSource source = new QueuePartitionedSource(8, 1 << 20);
    ConcurrentHashMap<String, Long> seen = new ConcurrentHashMap<>();
    AtomicLong duplicates = new AtomicLong();
    AtomicLong wrong = new AtomicLong();
    DataflowPipeline pipeline = DataflowPipeline.builder().specification("count.dsrv", A)
        .source(source)
        .sink(KeyedSinks.callback(o -> {
          if (seen.put(o.key() + "@" + o.tick(), o.tick()) != null) {
            duplicates.incrementAndGet();
          }
          if (o.values().get("n").asLong() != o.tick() + 1) {
            wrong.incrementAndGet();
          }
        }))
        .options(o -> o.withDrivers(2).withCommitEvery(Duration.ofMillis(200)))
        .build();
    pipeline.start();
    AtomicLong offered = new AtomicLong();
    List<CompletableFuture<PipelineAck>> acks = new CopyOnWriteArrayList<>();
    Thread[] producers = new Thread[PRODUCERS];
    for (int t = 0; t < PRODUCERS; t++) {
      int me = t;
      producers[t] = new Thread(() -> {
        for (int round = 0; round < PER_KEY; round++) {
          for (int k = me; k < KEYS; k += PRODUCERS) {
            while (!source.offer("key-" + k, Tick.of("x", Value.of(round)))) {
              Thread.onSpinWait(); // bounded by the drivers' progress; never in this test
            }
            long n = offered.incrementAndGet();
            if (n % 10_000 == 0) {
              acks.add(pipeline.reconfigure(ReconfigurationRequest.of(
                  (n / 10_000) % 2 == 1 ? B : A)));
            }
          }
        }
      }, "producer-" + t);
      producers[t].start();
    }
    for (Thread p : producers) {
      p.join(TimeUnit.MINUTES.toMillis(2));
      assertThat(p.isAlive()).isFalse();
    }
    source.endOfInput();
    PipelineExitReport report = pipeline.awaitTermination(Duration.ofMinutes(3));
    assertThat(report.ok()).as("%s", report).isTrue();
    assertThat(duplicates.get()).as("duplicated outputs").isZero();
    assertThat(wrong.get()).as("counts not carried over").isZero();
    assertThat(seen).as("lost outputs").hasSize(KEYS * PER_KEY);
    assertThat(acks).hasSize(KEYS * PER_KEY / 10_000);
    for (CompletableFuture<PipelineAck> a : acks) {
      PipelineAck ack = a.get(1, TimeUnit.SECONDS);
      assertThat(ack.ack().accepted()).isTrue();
    }
    assertThat(report.run().monitorRevision().root()).isEqualTo(acks.size());
  }
}
