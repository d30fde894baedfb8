package io.dataflow.io;

import io.dataflow.core.DataflowException;
import io.dataflow.core.SourceLocation;

/**
 * A line of a trace file (or of a JSON Lines input) that cannot be read: a bad value, a tick
 * that does not increase, a malformed {@code @reconfigure} line. The message is one line,
 * {@code trace.input:4:1: tick 2 is not greater than the previous tick 3}.
 */
public final class TraceException extends DataflowException {
  private static final long serialVersionUID = 1L;
  private final SourceLocation location;
  private final String reason;

  /** An error at a location. */
  public TraceException(SourceLocation location, String reason) {
    super(location + ": " + reason);
    this.location = location;
    this.reason = reason;
  }

  /** Where the error is. */
  public SourceLocation location() {
    return location;
  }

  /** The message without the location. */
  public String reason() {
    return reason;
  }
}
