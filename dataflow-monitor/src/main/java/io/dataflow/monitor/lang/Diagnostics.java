package io.dataflow.monitor.lang;

import io.dataflow.core.SourceLocation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Collects the errors of one compilation (a specification, or a dynamic property's body);
 * {@link #throwIfAny()} raises them in source order as one {@link CompileError}.
 */
public final class Diagnostics {
  private final String file;
  private final List<CompileError.Diagnostic> items = new ArrayList<>();

  /** Errors of the text named {@code file} in messages. */
  public Diagnostics(String file) {
    this.file = file;
  }

  /** The name of the text in messages. */
  String file() {
    return file;
  }

  /** Records an error at {@code pos}. */
  public void error(Ast.Pos pos, String message) {
    items.add(new CompileError.Diagnostic(new SourceLocation(file, pos.line(), pos.column()),
        message));
  }

  /** Whether no error was recorded. */
  public boolean isEmpty() {
    return items.isEmpty();
  }

  /** Throws the errors recorded so far, in source order, if there are any. */
  public void throwIfAny() {
    if (!items.isEmpty()) {
      List<CompileError.Diagnostic> sorted = new ArrayList<>(items);
      sorted.sort(Comparator.comparingInt((CompileError.Diagnostic d) -> d.location().line())
          .thenComparingInt(d -> d.location().column()));
      throw new CompileError(sorted);
    }
  }
}
