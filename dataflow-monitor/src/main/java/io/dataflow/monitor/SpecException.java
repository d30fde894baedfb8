package io.dataflow.monitor;

import io.dataflow.core.DataflowException;
import io.dataflow.core.SourceLocation;
import io.dataflow.monitor.lang.CompileError;
import java.util.List;

/**
 * A specification that cannot be compiled: a syntax error, an unknown name, a missing or
 * duplicate equation, a same-tick cycle, a type error. The message is one line,
 * {@code spec.dsrv:3:9: unknown stream 'y'}; {@link #diagnostics()} lists every error found
 * (the message shows the first, in source order).
 */
public final class SpecException extends DataflowException {
  private static final long serialVersionUID = 1L;
  private final transient List<Diagnostic> diagnostics;

  /** One error at one location. */
  public record Diagnostic(SourceLocation location, String message) {
    @Override
    public String toString() {
      return location + ": " + message;
    }
  }

  SpecException(SourceLocation location, String message) {
    this(List.of(new Diagnostic(location, message)));
  }

  SpecException(List<Diagnostic> diagnostics) {
    super(diagnostics.get(0).toString());
    this.diagnostics = List.copyOf(diagnostics);
  }

  /** The front end's errors, as the API reports them (with the front end's stack trace). */
  static SpecException of(CompileError error) {
    SpecException e = new SpecException(error.diagnostics().stream()
        .map(d -> new Diagnostic(d.location(), d.message())).toList());
    e.setStackTrace(error.getStackTrace());
    return e;
  }

  /** Every error found, in source order; the first is the one in the message. */
  public List<Diagnostic> diagnostics() {
    return diagnostics;
  }

  /** Where the first error is. */
  public SourceLocation location() {
    return diagnostics.get(0).location();
  }

  /** The first error's message without its location. */
  public String reason() {
    return diagnostics.get(0).message();
  }
}
