package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.DataflowRuntime;
import io.dataflow.core.ExecutionPolicy;
import io.dataflow.core.ExitReport;
import io.dataflow.core.Tick;
import io.dataflow.core.TickBatch;
import io.dataflow.core.TickShape;
import io.dataflow.core.Value;
import io.dataflow.io.OutputRow;
import io.dataflow.io.Sinks;
import io.dataflow.reconfig.AckQueue;
import io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder;
import io.dataflow.reconfig.ReconfigurationAck;
import io.dataflow.reconfig.ReconfigurationRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Producers keep sending while requests arrive: every tick is evaluated exactly once, by the
 * monitor that was active when it reached the head of the queue. A request is a barrier: the
 * version tag of the rows only ever increases, and the running count (an exact match in every
 * version, so its state transfers) counts every row once.
 */
class ThreadedReconfigurationTest {
  private static String spec(int version) {
    return "in p: Int\nin s: Int\nout version: Int\nout count: Int\nout op: Int\nout os: Int\n"
        + "version = " + version + "\ncount = default(count[1], 0) + 1\nop = p\nos = s";
  }

  @Test
  @Timeout(120)
  void ticksAreEvaluatedOnceByTheOldMonitorBeforeTheBarrierAndTheNewOneAfter()
      throws Exception {
    List<OutputRow> rows = new ArrayList<>();
    java.util.concurrent.atomic.AtomicLong latest = new java.util.concurrent.atomic.AtomicLong();
    AckQueue acks = new AckQueue(64);
    List<io.dataflow.monitor.ContextTransferReport> transfers =
        new java.util.concurrent.CopyOnWriteArrayList<>();
    DataflowRuntime runtime = ReconfigurableDataflowRuntimeBuilder.create()
        .specification("v1.dsrv", spec(1))
        .destination("rows", Sinks.callback(r -> {
          rows.add(r);
          latest.set(r.values().get("version").asLong());
        }))
        .options(o -> o.withPolicy(ExecutionPolicy.BUFFERED))
        .acknowledgements(acks)
        .transferReports(transfers::add)
        .build();
    runtime.start();
    int producers = 3;
    int tail = 1_000;
    long[] sent = new long[producers];
    TickShape shape = TickShape.of("p", "s");
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> threads = new ArrayList<>();
    for (int p = 0; p < producers; p++) {
      int id = p;
      Thread t = new Thread(() -> {
        // Keep sending until every request was acknowledged, then a tail after the last one.
        int s = 0;
        int after = 0;
        while (after < tail) {
          runtime.submit(TickBatch.of(shape.tick(Value.of(id), Value.of(s++))),
              Duration.ofSeconds(60));
          if (stop.get()) {
            after++;
          }
        }
        sent[id] = s;
      });
      threads.add(t);
      t.start();
    }
    int requests = 5;
    for (int v = 2; v < 2 + requests; v++) {
      runtime.submitControl(ReconfigurationRequest.of(spec(v)), Duration.ofSeconds(60));
      ReconfigurationAck ack = acks.poll(Duration.ofSeconds(60));
      assertThat(ack).isNotNull();
      assertThat(ack.plan()).isEqualTo(ReconfigurationAck.Plan.TRANSFER);
      // The report is handed over before the acknowledgement on the owner thread.
      assertThat(transfers).hasSize(v - 1);
      assertThat(transfers.get(v - 2).transferred()).contains("count", "op", "os");
      // Let rows of this version flow before the next barrier (bounded, no sleep).
      long until = io.dataflow.core.SystemClock.INSTANCE.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (latest.get() != v && io.dataflow.core.SystemClock.INSTANCE.nanoTime() < until) {
        Thread.onSpinWait();
      }
    }
    stop.set(true);
    for (Thread t : threads) {
      t.join(Duration.ofSeconds(100).toMillis());
      assertThat(t.isAlive()).isFalse();
    }
    runtime.endOfInput();
    ExitReport report = runtime.awaitTermination(Duration.ofSeconds(60));
    assertThat(report.outcome()).isEqualTo(ExitReport.Outcome.COMPLETED);
    assertThat(report.monitorRevision().root()).isEqualTo(requests);

    long total = java.util.Arrays.stream(sent).sum();
    assertThat(rows).hasSize((int) total);
    long[] next = new long[producers];
    long lastVersion = 1;
    int versionChanges = 0;
    for (int i = 0; i < rows.size(); i++) {
      OutputRow r = rows.get(i);
      long version = r.values().get("version").asLong();
      assertThat(version).as("row %d", i).isGreaterThanOrEqualTo(lastVersion);
      if (version != lastVersion) {
        versionChanges++;
      }
      lastVersion = version;
      assertThat(r.values().get("count")).as("row %d", i).isEqualTo(Value.of(i + 1L));
      int p = (int) r.values().get("op").asLong();
      assertThat(r.values().get("os")).as("producer %d order", p).isEqualTo(Value.of(next[p]));
      next[p]++;
      assertThat(r.tick()).isEqualTo(i);
    }
    assertThat(versionChanges).isEqualTo(requests);
    assertThat(next).containsExactly(sent);
  }

  static Tick tick(int p, int s) {
    return Tick.of("p", Value.of(p), "s", Value.of(s));
  }
}
