package io.dataflow.monitor.lang;

import io.dataflow.core.SourceLocation;
import java.util.List;

/**
 * Why a text did not get through the front end: a syntax error, an unknown name, a missing or
 * duplicate equation, a same-tick cycle, a type error. {@link #diagnostics()} lists every error
 * found, in source order; the message shows the first. The API turns it into a
 * {@code SpecException}; the evaluator turns a dynamic property's into a runtime error.
 */
public final class CompileError extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final transient List<Diagnostic> diagnostics;

  /** One error at one location. */
  public record Diagnostic(SourceLocation location, String message) {
    @Override
    public String toString() {
      return location + ": " + message;
    }
  }

  /** One error. */
  CompileError(SourceLocation location, String message) {
    this(List.of(new Diagnostic(location, message)));
  }

  /** Several errors, in source order (at least one). */
  CompileError(List<Diagnostic> diagnostics) {
    super(diagnostics.get(0).toString());
    this.diagnostics = List.copyOf(diagnostics);
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
