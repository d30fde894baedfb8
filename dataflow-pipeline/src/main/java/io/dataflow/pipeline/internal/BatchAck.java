package io.dataflow.pipeline.internal;

import io.dataflow.pipeline.spi.Acknowledgement;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The acknowledgement of one batch: the records it covers (per lane, a range of admission
 * sequences, including records that produced no output) and, once reported, its outcome. It
 * goes to the controller's acknowledgement queue exactly once; a second report is a warning.
 *
 * <p>Thread-safety: {@link #succeeded} and {@link #failed} from any thread; the rest is read by
 * the controller after it took the ack from its queue.
 */
final class BatchAck implements Acknowledgement {
  final int[] lanes;
  final long[] from;
  final long[] to;
  final int outputs;
  private final AtomicBoolean reported = new AtomicBoolean();
  private final Consumer<BatchAck> queue;
  private final Consumer<String> warnings;
  /** Runs once, when the batch is first reported (hands its columns back), or null. */
  private final Runnable onReported;
  /** The failure, or null; written before the ack is queued. */
  Throwable error;

  BatchAck(int[] lanes, long[] from, long[] to, int outputs, Consumer<BatchAck> queue,
      Consumer<String> warnings) {
    this(lanes, from, to, outputs, queue, warnings, null);
  }

  BatchAck(int[] lanes, long[] from, long[] to, int outputs, Consumer<BatchAck> queue,
      Consumer<String> warnings, Runnable onReported) {
    this.onReported = onReported;
    this.lanes = lanes;
    this.from = from;
    this.to = to;
    this.outputs = outputs;
    this.queue = queue;
    this.warnings = warnings;
  }

  @Override
  public void succeeded() {
    if (reported.compareAndSet(false, true)) {
      released();
      queue.accept(this);
    } else {
      warnings.accept("a sink acknowledged a batch of " + outputs + " outputs twice; the"
          + " second report was ignored");
    }
  }

  @Override
  public void failed(Throwable e) {
    if (reported.compareAndSet(false, true)) {
      error = e == null ? new IllegalStateException("the sink failed a batch without a cause")
          : e;
      released();
      queue.accept(this);
    } else {
      warnings.accept("a sink reported a batch of " + outputs + " outputs again (failed: " + e
          + ") after its first report; ignored");
    }
  }

  private void released() {
    if (onReported != null) {
      onReported.run();
    }
  }

  /** Records covered, all lanes. */
  long records() {
    long n = 0;
    for (int i = 0; i < lanes.length; i++) {
      n += to[i] - from[i];
    }
    return n;
  }
}
