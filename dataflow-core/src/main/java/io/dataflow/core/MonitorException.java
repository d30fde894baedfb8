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
  private final SourceLocation location;

  /** An error raised while evaluating {@code stream} in {@code tick}. */
  public MonitorException(long tick, String stream, String reason) {
    this(tick, stream, reason, null);
  }

  /**
   * An error raised while evaluating {@code stream} in {@code tick}, whose equation starts at
   * {@code location} (null when unknown).
   */
  public MonitorException(long tick, String stream, String reason, SourceLocation location) {
    super(render(tick, stream, reason));
    this.tick = tick;
    this.stream = stream;
    this.reason = reason;
    this.location = location;
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

  /** Where the failing stream's equation starts, or null. */
  public SourceLocation location() {
    return location;
  }

  /** The message prefixed with the location when there is one: {@code spec.dsrv:3:1: tick...}. */
  public String describe() {
    return location == null ? getMessage() : location + ": " + getMessage();
  }
}
