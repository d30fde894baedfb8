package io.dataflow.core;

/**
 * A runtime error in a tick: a checked Int operation overflowed, a value had the wrong type,
 * a dynamic property failed to compile, ... It is terminal for the monitor that raised it: the
 * failing row is neither committed nor emitted and every later call fails with the same cause.
 *
 * <p>The message names the tick and the stream: {@code tick 3: stream 'z': division by zero}.
 */
public class MonitorException extends DataflowException {
  private static final long serialVersionUID = 1L;
  private final long tick;
  private final String stream;
  private final String reason;

  /** An error raised while evaluating {@code stream} in {@code tick}. */
  public MonitorException(long tick, String stream, String reason) {
    super(render(tick, stream, reason));
    this.tick = tick;
    this.stream = stream;
    this.reason = reason;
  }

  /** An error with a cause (used when a poisoned monitor is called again). */
  public MonitorException(MonitorException cause) {
    super(cause.getMessage(), cause);
    this.tick = cause.tick;
    this.stream = cause.stream;
    this.reason = cause.reason;
  }

  private static String render(long tick, String stream, String reason) {
    return stream == null
        ? "tick " + tick + ": " + reason
        : "tick " + tick + ": stream '" + stream + "': " + reason;
  }

  /** The logical tick that failed. */
  public long tick() {
    return tick;
  }

  /** The stream whose evaluation failed, or null when the failure is not one stream's. */
  public String stream() {
    return stream;
  }

  /** What went wrong, without the tick and stream prefix. */
  public String reason() {
    return reason;
  }
}
