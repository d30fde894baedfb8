package io.dataflow.bench;

import io.dataflow.core.internal.DataflowRuntimeBuilder;
import io.dataflow.core.internal.OwnerLoop;
import io.dataflow.core.RuntimeStatus;
import io.dataflow.core.Tick;
import io.dataflow.core.TickBatch;
import io.dataflow.io.internal.InputPipelineSession;
import io.dataflow.io.internal.OutputPipelineSession;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import java.util.ArrayList;
import java.util.List;

/**
 * A runtime evaluating one workload: no sources (ticks come through the handle), one
 * destination (a {@link ChecksumWriter}), the default buffered flush policy, and the
 * workload's ticks precomputed as batches of one shared {@link io.dataflow.core.TickShape}, so
 * the producer allocates no ticks of its own.
 *
 * <p>Thread-safety: built and fed by one thread; the runtime itself follows its own rules.
 */
final class RuntimeFixture {
  final Workload workload;
  final OwnerLoop runtime; // stepped by the benchmarks
  final ChecksumWriter writer = new ChecksumWriter();
  /** {@link Inputs#SIZE} ticks cut into batches of {@code batchSize}. */
  final TickBatch[] batches;
  private int next; // the feeding thread only
  private long offered; // the feeding thread only

  RuntimeFixture(String workloadName, int batchSize, int ingressCapacity) {
    workload = Workload.named(workloadName);
    DataflowProgram program = DataflowProgram.compile(workloadName + ".dsrv", workload.spec);
    runtime = new DataflowRuntimeBuilder()
        .name("bench-" + workloadName)
        .monitor(DataflowMonitor.create(program))
        .input(new InputPipelineSession(List.of()))
        .output(new OutputPipelineSession(List.of(
            OutputPipelineSession.Destination.all("checksum", writer))))
        .ingressCapacity(ingressCapacity)
        .build();
    if (Inputs.SIZE % batchSize != 0) {
      throw new IllegalArgumentException("batch size must divide " + Inputs.SIZE);
    }
    batches = new TickBatch[Inputs.SIZE / batchSize];
    for (int b = 0; b < batches.length; b++) {
      List<Tick> ticks = new ArrayList<>(batchSize);
      for (int k = 0; k < batchSize; k++) {
        ticks.add(workload.tick(b * batchSize + k));
      }
      batches[b] = TickBatch.of(ticks);
    }
  }

  /** The priming ticks as one batch, or null when the workload has none. */
  TickBatch primingBatch() {
    List<Tick> ticks = workload.primingTicks();
    return ticks.isEmpty() ? null : TickBatch.of(ticks);
  }

  /** The next batch of the cycle (counted as offered). */
  TickBatch nextBatch() {
    TickBatch b = batches[next];
    next = next + 1 == batches.length ? 0 : next + 1;
    offered += b.size();
    return b;
  }

  /** Ticks handed out by {@link #nextBatch()}. */
  long offered() {
    return offered;
  }

  /** Fails when the runtime failed or did not evaluate {@code expected} ticks. */
  void check(long expected) {
    RuntimeStatus s = runtime.status();
    if (s.lastError() != null) {
      throw new IllegalStateException(runtime.name() + " failed: " + s.lastError());
    }
    if (s.ticksIn() != expected) {
      throw new IllegalStateException(runtime.name() + " evaluated " + s.ticksIn()
          + " ticks, expected " + expected);
    }
  }
}
