package io.dataflow.core;

/** Input could not be admitted: the queue stayed full until the deadline, or it is closed. */
public final class IngressException extends DataflowException {
  private static final long serialVersionUID = 1L;
  private final boolean closed;

  /**
   * An ingress refusal.
   *
   * @param message what was refused and why
   * @param closed true when the runtime no longer accepts input at all
   */
  public IngressException(String message, boolean closed) {
    super(message);
    this.closed = closed;
  }

  /** True when the ingress was closed (the runtime is stopping), false when it was full. */
  public boolean isClosed() {
    return closed;
  }
}
