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

  /**
   * Evaluates the ticks of a batch in columns, in order: the same ticks as
   * {@code input.size()} calls of {@link #evaluate(Row, Row)}, tick {@code t}'s outputs in
   * {@code output} at {@code t}. The default does exactly that, one row at a time; a monitor with
   * a faster batch path overrides it.
   *
   * <p>When tick {@code t} fails, the ticks before it were evaluated and their outputs written,
   * {@code output.size()} is {@code t}, and the exception is thrown as by {@code evaluate}.
   *
   * @param input one column per input, {@code input.size()} ticks; not modified
   * @param output one column per output, with room for {@code input.size()} ticks
   * @throws MonitorException on a runtime error
   */
  default void evaluate(io.dataflow.core.TickColumns input, io.dataflow.core.TickColumns output) {
    int n = input.size();
    if (output.capacity() < n) {
      throw new IllegalArgumentException("output columns hold " + output.capacity()
          + " ticks, the batch has " + n);
    }
    Row in = inputs().newRow();
    Row out = outputs().newRow();
    for (int t = 0; t < n; t++) {
      input.copyTo(t, in);
      try {
        evaluate(in, out);
      } catch (RuntimeException e) {
        output.setSize(t);
        throw e;
      }
      output.copyFrom(out, t);
    }
    output.setSize(n);
  }

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
