package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.DataflowRuntime;
import io.dataflow.core.ExecutionPolicy;
import io.dataflow.core.ExitReport;
import io.dataflow.core.Tick;
import io.dataflow.core.TickBatch;
import io.dataflow.core.TickShape;
import io.dataflow.core.Value;
import io.dataflow.io.Sinks;
import io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The runtime on its own thread, fed by several producer threads. */
class ThreadedRuntimeTest {
  private static final int PRODUCERS = 4;
  private static final int PER_PRODUCER = 250_000;

  @Test
  @Timeout(120)
  void everyTickFromSeveralProducersIsEvaluatedOnceInPerProducerOrder() throws Exception {
    long[] next = new long[PRODUCERS];
    AtomicLong rows = new AtomicLong();
    List<String> errors = new ArrayList<>();
    DataflowRuntime runtime = ReconfigurableDataflowRuntimeBuilder.create()
        .specification("echo.dsrv", "in p: Int\nin s: Int\nout op: Int\nout os: Int\n"
            + "op = p\nos = s")
        .destination("check", Sinks.callback(r -> {
          int p = (int) r.values().get("op").asLong();
          long s = r.values().get("os").asLong();
          if (next[p] != s && errors.size() < 10) {
            errors.add("producer " + p + ": expected " + next[p] + ", got " + s);
          }
          next[p] = s + 1;
          rows.incrementAndGet();
        }))
        .options(o -> o.withPolicy(ExecutionPolicy.BUFFERED))
        .options(o -> o.withIngressCapacity(1 << 12))
        .build();
    runtime.start();
    TickShape shape = TickShape.of("p", "s");
    List<Thread> producers = new ArrayList<>();
    for (int p = 0; p < PRODUCERS; p++) {
      int id = p;
      Thread t = new Thread(() -> {
        List<Tick> batch = new ArrayList<>(64);
        for (int s = 0; s < PER_PRODUCER; s++) {
          batch.add(shape.tick(Value.of(id), Value.of(s)));
          if (batch.size() == 64 || s == PER_PRODUCER - 1) {
            runtime.submit(TickBatch.of(batch), Duration.ofSeconds(60));
            batch.clear();
          }
        }
      }, "producer-" + p);
      producers.add(t);
      t.start();
    }
    for (Thread t : producers) {
      t.join(Duration.ofSeconds(100).toMillis());
      assertThat(t.isAlive()).as("%s finished", t.getName()).isFalse();
    }
    runtime.endOfInput();
    ExitReport report = runtime.awaitTermination(Duration.ofSeconds(60));
    assertThat(report.outcome()).isEqualTo(ExitReport.Outcome.COMPLETED);
    assertThat(errors).isEmpty();
    assertThat(rows.get()).isEqualTo((long) PRODUCERS * PER_PRODUCER);
    assertThat(report.ticksIn()).isEqualTo((long) PRODUCERS * PER_PRODUCER);
    for (int p = 0; p < PRODUCERS; p++) {
      assertThat(next[p]).as("producer %d", p).isEqualTo(PER_PRODUCER);
    }
  }
}
