package io.dataflow.monitor;

import io.dataflow.core.Kind;
import io.dataflow.core.Value;
import io.dataflow.monitor.eval.StreamCell;

/**
 * One output stream of a {@link DataflowMonitor}, read directly after a
 * {@link DataflowMonitor#step()} or {@link DataflowMonitor#evaluate}: the typed alternative to
 * reading an output {@code Row}. It reads the stream's current value, so it copies nothing and
 * always shows the last tick's value; after a tick that threw, what it shows is not meaningful.
 *
 * <p>The getters mirror {@link io.dataflow.core.Row}'s: {@link #kind()} and
 * {@link #isPresent()} say what the tick produced, the typed getters return the payload of a
 * value of exactly that kind and throw {@link IllegalStateException} otherwise.
 *
 * <p>A handle belongs to the monitor that made it ({@link DataflowMonitor#output(String)});
 * after a reconfiguration, take the new monitor's handles: the old ones throw
 * {@link IllegalStateException} (the stream's state now belongs to the new monitor).
 *
 * <p>Thread-safety: owner thread only, like its monitor.
 */
public final class MonitorOutput {
  private final DataflowMonitor monitor;
  private final StreamCell cell;

  MonitorOutput(DataflowMonitor monitor, StreamCell cell) {
    this.monitor = monitor;
    this.cell = cell;
  }

  /** The stream's cell while this handle's monitor is the live one (a transfer hands it on). */
  private StreamCell cell() {
    StreamCell c = cell;
    if (c.owner != monitor.evaluator || monitor.isRetired()) {
      throw new IllegalStateException("output '" + c.name + "' belongs to a monitor that was "
          + "replaced; take the handle from the new monitor");
    }
    return c;
  }

  /** The output's name in the specification. */
  public String name() {
    return cell.name;
  }

  /** The kind of the last tick's value ({@link Kind#NOVAL} when absent). */
  public byte kind() {
    return cell().tag;
  }

  /** Whether the last tick produced a value (neither NoVal nor Deferred). */
  public boolean isPresent() {
    return cell().tag > Kind.DEFERRED;
  }

  /**
   * The raw payload of the last tick's value, as {@link io.dataflow.core.Row#bits} holds it
   * (an Int, a Float's raw bits, 1 or 0 for a Bool; meaningless for other kinds): with
   * {@link #kind()}, reading without a check per call.
   */
  public long bits() {
    return cell().bits;
  }

  /**
   * The last tick's Int.
   *
   * @throws IllegalStateException when the value is not an Int
   */
  public long getInt() {
    return require(Kind.INT).bits;
  }

  /**
   * The last tick's Float.
   *
   * @throws IllegalStateException when the value is not a Float
   */
  public double getFloat() {
    return Double.longBitsToDouble(require(Kind.FLOAT).bits);
  }

  /**
   * The last tick's Bool.
   *
   * @throws IllegalStateException when the value is not a Bool
   */
  public boolean getBool() {
    return require(Kind.BOOL).bits != 0;
  }

  /** The last tick's value, boxed (NoVal when absent). */
  public Value get() {
    return cell().toValue();
  }

  private StreamCell require(byte kind) {
    StreamCell c = cell();
    if (c.tag != kind) {
      throw new IllegalStateException("output '" + c.name + "' holds "
          + Kind.name(c.tag) + ", not " + Kind.name(kind));
    }
    return c;
  }

  @Override
  public String toString() {
    return "MonitorOutput[" + cell + "]"; // the cell prints as name=value
  }
}
