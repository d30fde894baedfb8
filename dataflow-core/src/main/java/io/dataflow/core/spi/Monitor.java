package io.dataflow.core.spi;

import io.dataflow.core.MonitorException;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Row;

/**
 * The service interface the runtime drives: something that turns one input row into one output
 * row per logical tick. {@code DataflowMonitor} (module {@code dataflow-monitor}) is the
 * implementation for stream specifications.
 *
 * <p>Thread-safety: owner thread only. A monitor is stateful and is used by one thread.
 */
public interface Monitor {
  /** The input streams, in declaration order. */
  RowLayout inputs();

  /** The output streams, in declaration order. */
  RowLayout outputs();

  /**
   * Evaluates one logical tick. Every output slot is written (NoVal when the stream has no
   * value this tick).
   *
   * @param input one value per input (NoVal when not supplied); not modified
   * @param output receives one value per output
   * @throws MonitorException on a runtime error; the monitor is then poisoned and every later
   *     call throws the same cause
   */
  void evaluate(Row input, Row output);

  /** The number of the next tick {@link #evaluate} will evaluate (ticks count from 0). */
  long nextTick();

  /** The error that poisoned this monitor, or null while it is healthy. */
  MonitorException failure();

  /**
   * The monitor's whole state between two ticks (docs/snapshots.md); a runtime's checkpoints
   * call it on the owner thread. The default cannot: such a monitor cannot be checkpointed.
   *
   * @throws UnsupportedOperationException when this monitor cannot take snapshots
   */
  default io.dataflow.core.snapshot.MonitorSnapshot snapshot() {
    throw new UnsupportedOperationException(getClass().getSimpleName()
        + " cannot take snapshots");
  }

  /**
   * The text of the specification this monitor runs, or null when it has none; a checkpoint
   * keeps it, so a run resumed from the checkpoint runs the specification then in force.
   */
  default String specification() {
    return null;
  }
}
