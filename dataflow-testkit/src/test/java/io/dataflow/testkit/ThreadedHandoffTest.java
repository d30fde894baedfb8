package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Clock;
import io.dataflow.core.DataflowRuntime;
import io.dataflow.core.ExitReport;
import io.dataflow.core.Tick;
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

/**
 * The runtime on its own thread fed with single ticks (issue 21's hand-off): no tick is lost,
 * doubled or reordered per producer whether the owner is busy (a full queue, refusals counted
 * exactly) or parks between ticks (every tick still wakes it). The sink is the allocation-free
 * {@link Sinks#viewCallback}.
 */
class ThreadedHandoffTest {
  private static final String ECHO = "in p: Int\nin s: Int\nout op: Int\nout os: Int\n"
      + "op = p\nos = s";
  private static final TickShape SHAPE = TickShape.of("p", "s");

  /** Checks per-producer order on the owner thread; read after termination. */
  private static final class OrderCheck {
    final long[] next;
    final List<String> errors = new ArrayList<>();
    final AtomicLong rows = new AtomicLong();

    OrderCheck(int producers) {
      next = new long[producers];
    }

    void accept(io.dataflow.io.OutputRowView v) {
      int p = (int) v.getInt(0);
      long s = v.getInt(1);
      if (next[p] != s && errors.size() < 10) {
        errors.add("producer " + p + ": expected " + next[p] + ", got " + s);
      }
      next[p] = s + 1;
      rows.incrementAndGet();
    }
  }

  private static DataflowRuntime runtime(OrderCheck check, int capacity) {
    return ReconfigurableDataflowRuntimeBuilder.create()
        .specification("echo.dsrv", ECHO)
        .destination("check", Sinks.viewCallback(check::accept))
        .options(o -> o.withIngressCapacity(capacity))
        .build();
  }

  @Test
  @Timeout(120)
  void singleTicksFromFourProducersIntoAFullQueueAreEvaluatedOnceInOrder() throws Exception {
    int producers = 4;
    int perProducer = 100_000;
    OrderCheck check = new OrderCheck(producers);
    DataflowRuntime runtime = runtime(check, 64); // small: the producers keep finding it full
    Clock clock = runtime.clock();
    runtime.start();
    AtomicLong refused = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    for (int p = 0; p < producers; p++) {
      int id = p;
      Thread t = new Thread(() -> {
        long mine = 0;
        for (int s = 0; s < perProducer; s++) {
          Tick tick = SHAPE.tick(Value.of(id), Value.of(s));
          while (!runtime.offer(tick)) {
            mine++;
            clock.backOff();
          }
        }
        refused.addAndGet(mine);
      }, "producer-" + p);
      threads.add(t);
      t.start();
    }
    joinAll(threads);
    runtime.endOfInput();
    ExitReport report = runtime.awaitTermination(Duration.ofSeconds(60));
    assertThat(report.outcome()).isEqualTo(ExitReport.Outcome.COMPLETED);
    assertThat(check.errors).isEmpty();
    assertThat(check.rows.get()).isEqualTo((long) producers * perProducer);
    assertThat(report.ticksIn()).isEqualTo((long) producers * perProducer);
    for (int p = 0; p < producers; p++) {
      assertThat(check.next[p]).as("producer %d", p).isEqualTo(perProducer);
    }
    // Every refusal a producer saw is counted, and none more: nothing was dropped silently.
    assertThat(runtime.status().rejectedOffers()).isEqualTo(refused.get());
  }

  @Test
  @Timeout(120)
  void aProducerThatWaitsForEachOutputWakesTheOwnerEveryTime() throws Exception {
    int ticks = 2_000;
    OrderCheck check = new OrderCheck(1);
    DataflowRuntime runtime = ReconfigurableDataflowRuntimeBuilder.create()
        .specification("echo.dsrv", ECHO)
        .destination("check", Sinks.viewCallback(check::accept))
        .options(o -> o.withPolicy(io.dataflow.core.ExecutionPolicy.SYNCHRONOUS))
        .build();
    Clock clock = runtime.clock();
    runtime.start();
    for (int s = 0; s < ticks; s++) {
      assertThat(runtime.offer(SHAPE.tick(Value.of(0), Value.of(s)))).isTrue();
      // The queue is empty again before the next offer, so the owner goes idle (and parks)
      // between ticks: each offer must find and wake it.
      long deadline = clock.nanoTime() + Duration.ofSeconds(10).toNanos();
      while (check.rows.get() <= s) {
        assertThat(clock.nanoTime() - deadline).as("tick %d evaluated in time", s).isNegative();
        clock.backOff();
      }
    }
    runtime.endOfInput();
    ExitReport report = runtime.awaitTermination(Duration.ofSeconds(60));
    assertThat(report.outcome()).isEqualTo(ExitReport.Outcome.COMPLETED);
    assertThat(check.errors).isEmpty();
    assertThat(check.next[0]).isEqualTo(ticks);
    assertThat(runtime.status().rejectedOffers()).isZero();
  }

  @Test
  @Timeout(120)
  void singleTicksSubmittedIntoATinyQueueWaitForRoom() throws Exception {
    int producers = 2;
    int perProducer = 20_000;
    OrderCheck check = new OrderCheck(producers);
    DataflowRuntime runtime = runtime(check, 2);
    runtime.start();
    List<Thread> threads = new ArrayList<>();
    for (int p = 0; p < producers; p++) {
      int id = p;
      Thread t = new Thread(() -> {
        for (int s = 0; s < perProducer; s++) {
          runtime.submit(SHAPE.tick(Value.of(id), Value.of(s)), Duration.ofSeconds(60));
        }
      }, "producer-" + p);
      threads.add(t);
      t.start();
    }
    joinAll(threads);
    runtime.endOfInput();
    ExitReport report = runtime.awaitTermination(Duration.ofSeconds(60));
    assertThat(report.outcome()).isEqualTo(ExitReport.Outcome.COMPLETED);
    assertThat(check.errors).isEmpty();
    assertThat(report.ticksIn()).isEqualTo((long) producers * perProducer);
    assertThat(runtime.status().rejectedOffers()).isZero(); // waited, never refused
  }

  private static void joinAll(List<Thread> threads) throws InterruptedException {
    for (Thread t : threads) {
      t.join(Duration.ofSeconds(100).toMillis());
      assertThat(t.isAlive()).as("%s finished", t.getName()).isFalse();
    }
  }
}
