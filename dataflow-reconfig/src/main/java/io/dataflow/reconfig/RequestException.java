package io.dataflow.reconfig;

import io.dataflow.core.FatalReason;

import io.dataflow.core.DataflowException;

/**
 * A request that cannot be accepted as written: malformed JSON5, an unknown field, a blank or
 * missing specification, a field of the wrong type. {@link #isSyntax()} tells malformed text
 * apart from a well-formed but invalid request.
 */
public final class RequestException extends DataflowException
    implements FatalReason.Explained {
  private static final long serialVersionUID = 1L;
  private final boolean syntax;

  /** An invalid request. */
  public RequestException(String message, String origin) {
    this(message, origin, false);
  }

  RequestException(String message, String origin, boolean syntax) {
    super((origin == null ? "" : origin + ": ") + message);
    this.syntax = syntax;
  }

  /** True when the text was not well-formed JSON5 at all. */
  public boolean isSyntax() {
    return syntax;
  }

  /** A refused request: nothing changed, the run ends ({@link FatalReason.Kind#REQUEST}). */
  @Override
  public FatalReason fatalReason(String component) {
    return FatalReason.refusedRequest(component, getMessage());
  }
}
