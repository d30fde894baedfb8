package io.dataflow.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.ExitReport;
import io.dataflow.core.Row;
import io.dataflow.core.TickBatch;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.MonitorInput;
import io.dataflow.monitor.MonitorOutput;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The benchmarks compare like with like: for every workload, the monitor paths (rows, typed
 * handles, batches in columns), the runtime paths and the hand-written baseline produce the same output on every
 * tick. Not timed.
 */
class WorkloadTest {
  static final java.util.List<String> NAMES = Workload.NAMES;
  private static final int TICKS = 3 * Inputs.SIZE;

  @ParameterizedTest
  @FieldSource("NAMES")
  void monitorComputesWhatTheBaselineComputes(String name) {
    Workload w = Workload.named(name);
    DataflowMonitor m = DataflowMonitor.create(DataflowProgram.compile(name + ".dsrv", w.spec));
    assertThat(m.inputs().names()).startsWith(w.shape.names().toArray(new String[0]));
    Row in = m.inputs().newRow();
    Row out = m.outputs().newRow();
    Baseline b = w.baseline();
    int primed = w.prime(m, in, out);
    for (int i = 0; i < primed; i++) {
      assertThat(out.bits(0)).as("priming tick %d", i).isEqualTo(b.step(i & Inputs.MASK));
    }
    for (int i = primed; i < TICKS; i++) {
      w.fill(in, i & Inputs.MASK);
      m.evaluate(in, out);
      assertThat(out.isPresent(0)).as("tick %d present", i).isTrue();
      assertThat(out.bits(0)).as("tick %d", i).isEqualTo(b.step(i & Inputs.MASK));
    }
  }

  /**
   * The workload's monitor with generated code from the first tick, so that the benchmark's
   * steady state (the generated step() and batch loop) is what the test runs.
   */
  private static DataflowMonitor eager(Workload w) {
    return DataflowMonitor.create(DataflowProgram.compile(w.name + ".dsrv", w.spec),
        DataflowMonitor.Options.DEFAULT.withFusion(DataflowMonitor.Fusion.EAGER));
  }

  /** Evaluates the workload's priming ticks and moves the baseline past them. */
  private static int prime(Workload w, DataflowMonitor m, Baseline b) {
    int primed = w.prime(m, m.inputs().newRow(), m.outputs().newRow());
    for (int i = 0; i < primed; i++) {
      b.step(i & Inputs.MASK);
    }
    return primed;
  }

  @ParameterizedTest
  @FieldSource("NAMES")
  void typedHandlesComputeWhatTheBaselineComputes(String name) {
    Workload w = Workload.named(name);
    DataflowMonitor m = eager(w);
    MonitorInput[] in = w.shape.names().stream().map(m::input).toArray(MonitorInput[]::new);
    MonitorOutput out = m.output(m.outputs().name(0));
    Baseline b = w.baseline();
    int primed = prime(w, m, b);
    for (int i = primed; i < TICKS; i++) {
      w.stage(in, i & Inputs.MASK);
      m.step();
      assertThat(out.isPresent()).as("tick %d present", i).isTrue();
      assertThat(out.bits()).as("tick %d", i).isEqualTo(b.step(i & Inputs.MASK));
    }
  }

  @ParameterizedTest
  @FieldSource("NAMES")
  void batchesInColumnsComputeWhatTheBaselineComputes(String name) {
    Workload w = Workload.named(name);
    DataflowMonitor m = eager(w);
    Baseline b = w.baseline();
    int primed = prime(w, m, b);
    io.dataflow.core.TickColumns in = m.inputs().newColumns(ColumnsMonitorBench.BATCH);
    io.dataflow.core.TickColumns out = m.outputs().newColumns(ColumnsMonitorBench.BATCH);
    for (int i = primed; i + ColumnsMonitorBench.BATCH <= TICKS;
        i += ColumnsMonitorBench.BATCH) {
      w.fillBatch(in, i, ColumnsMonitorBench.BATCH);
      in.setSize(ColumnsMonitorBench.BATCH);
      m.evaluate(in, out);
      for (int t = 0; t < ColumnsMonitorBench.BATCH; t++) {
        assertThat(out.kind(0, t)).as("tick %d present", i + t).isGreaterThan((byte) 1);
        assertThat(out.bits(0, t)).as("tick %d", i + t).isEqualTo(b.step((i + t) & Inputs.MASK));
      }
    }
  }

  @ParameterizedTest
  @FieldSource("NAMES")
  void threadedRuntimeComputesWhatTheBaselineComputes(String name) throws Exception {
    RuntimeFixture f = new RuntimeFixture(name, 256, 8);
    f.runtime.start();
    TickBatch p = f.primingBatch();
    Baseline b = f.workload.baseline();
    long expected = 0;
    int i = 0;
    if (p != null) {
      f.runtime.submit(p, Duration.ofSeconds(5));
      for (; i < p.size(); i++) {
        expected += b.step(i);
      }
    }
    for (int k = 0; k < TICKS; k++) {
      expected += b.step(k & Inputs.MASK);
    }
    for (int k = 0; k < TICKS / 256; k++) {
      f.runtime.submit(f.nextBatch(), Duration.ofSeconds(5));
    }
    f.runtime.endOfInput();
    ExitReport r = f.runtime.awaitTermination(Duration.ofSeconds(10));
    assertThat(r.outcome()).isEqualTo(ExitReport.Outcome.COMPLETED);
    f.check(i + TICKS);
    assertThat(f.writer.rows()).isEqualTo(i + TICKS);
    assertThat(f.writer.checksum()).isEqualTo(expected);
  }

  @org.junit.jupiter.api.Test
  void theBatchFloorComputesSimpleAddOverConsecutiveBatches() {
    BatchFloorBench semantic = new BatchFloorBench();
    BatchFloorBench plain = new BatchFloorBench();
    Baseline b = Workload.named("simple_add").baseline();
    for (int batch = 0; batch < 6; batch++) {
      long expected = 0;
      long[] each = new long[BatchFloorBench.BATCH];
      for (int i = 0; i < BatchFloorBench.BATCH; i++) {
        each[i] = b.step((batch * BatchFloorBench.BATCH + i) & Inputs.MASK);
        expected += each[i];
      }
      assertThat(semantic.floor()).as("batch %d", batch).isEqualTo(expected);
      assertThat(plain.plain()).as("batch %d", batch).isEqualTo(expected);
      for (int i = 0; i < BatchFloorBench.BATCH; i++) {
        assertThat(semantic.output(i)).as("batch %d tick %d", batch, i).isEqualTo(each[i]);
      }
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {10, 100})
  void cutoverVariantsDifferInOneStream(int streams) {
    DataflowProgram a = DataflowProgram.compile("a", CutoverBench.spec(streams, 0));
    DataflowProgram b = DataflowProgram.compile("b", CutoverBench.spec(streams, 1));
    var mapping = io.dataflow.monitor.TransferMapping.plan(a, b);
    assertThat(mapping.retainExact()).isFalse();
    assertThat(mapping.streams()).filteredOn(t -> t.keepState()).hasSize(streams - 1);
    assertThat(b.outputs().width()).isEqualTo(streams);
  }
}
