package io.dataflow.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.DataflowRuntime;
import io.dataflow.core.ExitReport;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Tick;
import io.dataflow.core.TickBatch;
import io.dataflow.core.spi.OutputWriter;
import io.dataflow.io.Sinks;
import io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code Sinks.viewCallback} allocates nothing per row, alone and behind a whole runtime fed in
 * batches (issue 21: "a sink that does not allocate per row"). Not a timing test: it reads the
 * JVM's per-thread allocation counter around the measured work, after warm-up rounds, in the
 * thread that does the work (the runtime runs in the test's thread).
 */
class ViewCallbackAllocationTest {
  private static final com.sun.management.ThreadMXBean THREADS =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  @SuppressWarnings("deprecation") // Thread.getId(): threadId() exists only from JDK 19
  private static long allocatedBytes() {
    return THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
  }

  @Test
  void theSinkReadsScalarsWithoutAllocating() throws Exception {
    RowLayout layout = RowLayout.of("i", "f", "b");
    Row row = layout.newRow();
    row.setInt(0, 2);
    row.setFloat(1, 3.0);
    row.setBool(2, true);
    long[] sum = new long[1];
    OutputWriter sink = Sinks.viewCallback(v -> {
      if (v.getBool(2)) {
        sum[0] += v.getInt(0) + (long) v.getFloat(1);
      }
    });
    int rows = 200_000;
    long allocated = 0;
    for (int round = 0; round < 5; round++) { // the last round is the compiled steady state
      long before = allocatedBytes();
      for (int i = 0; i < rows; i++) {
        sink.feed(i, layout, row);
      }
      allocated = allocatedBytes() - before;
    }
    assertThat(sum[0]).isEqualTo(5L * 5 * rows);
    assertThat(allocated).as("bytes for %d rows", rows).isLessThan(rows / 100);
  }

  /**
   * A runtime of simple_add run in this thread over ticks submitted beforehand in batches of
   * 256, into the view sink: what is left per tick after start-up, status snapshots and the
   * exit report is well under a byte (a boxed row alone is about 400 bytes).
   */
  @Test
  void aRuntimeFedInBatchesIntoTheViewSinkAllocatesNothingPerTick() throws Exception {
    Workload w = Workload.named("simple_add");
    List<TickBatch> batches = new ArrayList<>();
    long expected = 0;
    for (int b = 0; b < Inputs.SIZE / 256; b++) {
      List<Tick> ticks = new ArrayList<>();
      for (int k = 0; k < 256; k++) {
        int i = b * 256 + k;
        ticks.add(w.tick(i));
        expected += Inputs.X[i] + Inputs.Y[i];
      }
      batches.add(TickBatch.of(ticks));
    }
    int cycles = 400; // 400 x 1024 ticks per run
    long ticks = (long) cycles * Inputs.SIZE;
    long allocated = 0;
    for (int round = 0; round < 4; round++) { // the last run is measured
      long[] seen = new long[2];
      DataflowRuntime runtime = ReconfigurableDataflowRuntimeBuilder.create()
          .specification("simple_add.dsrv", w.spec)
          .destination("sum", Sinks.viewCallback(v -> {
            seen[0]++;
            seen[1] += v.getInt(0);
          }))
          .options(o -> o.withIngressCapacity(cycles * batches.size() + 1))
          .build();
      for (int c = 0; c < cycles; c++) {
        for (TickBatch b : batches) {
          assertThat(runtime.offer(b)).isTrue();
        }
      }
      runtime.endOfInput();
      long before = allocatedBytes();
      ExitReport report = runtime.runInCallerThread();
      allocated = allocatedBytes() - before;
      assertThat(report.outcome()).isEqualTo(ExitReport.Outcome.COMPLETED);
      assertThat(seen[0]).isEqualTo(ticks);
      assertThat(seen[1]).isEqualTo(cycles * expected);
    }
    assertThat((double) allocated / ticks).as("bytes per tick (%d in all)", allocated)
        .isLessThan(0.5);
  }
}
