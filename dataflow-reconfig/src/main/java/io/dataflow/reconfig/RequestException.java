package io.dataflow.reconfig;

import io.dataflow.core.DataflowException;

/**
 * A request that cannot be accepted as written: malformed JSON5, an unknown field, a blank or
 * missing specification, a field of the wrong type. {@link #isSyntax()} tells malformed text
 * apart from a well-formed but invalid request.
 */
public final class RequestException extends DataflowException {
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
}
