package io.dataflow.monitor.eval;

/**
 * A runtime error inside a tick (overflow, type mismatch, ...). The monitor turns it into a
 * {@link io.dataflow.core.MonitorException} naming the tick and the stream. Carries no stack
 * trace: it is a value-level error, and {@code if} branches catch it cheaply.
 */
final class EvalError extends RuntimeException {
  private static final long serialVersionUID = 1L;
  /** The stream that raised it, once known (set by on-demand evaluation), else null. */
  private String stream;

  EvalError(String message) {
    super(message, null, false, false);
  }

  /** Records the stream that raised this error, unless an inner stream already did. */
  EvalError raisedIn(String streamName) {
    if (stream == null) {
      stream = streamName;
    }
    return this;
  }

  String stream() {
    return stream;
  }
}
