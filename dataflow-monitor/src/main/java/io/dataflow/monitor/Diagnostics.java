package io.dataflow.monitor;

import io.dataflow.core.SourceLocation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** Collects the errors of one compilation; {@link #throwIfAny()} raises them in source order. */
final class Diagnostics {
  private final String file;
  private final List<SpecException.Diagnostic> items = new ArrayList<>();

  Diagnostics(String file) {
    this.file = file;
  }

  String file() {
    return file;
  }

  void error(Ast.Pos pos, String message) {
    items.add(new SpecException.Diagnostic(new SourceLocation(file, pos.line(), pos.column()),
        message));
  }

  boolean isEmpty() {
    return items.isEmpty();
  }

  void throwIfAny() {
    if (!items.isEmpty()) {
      List<SpecException.Diagnostic> sorted = new ArrayList<>(items);
      sorted.sort(Comparator.comparingInt((SpecException.Diagnostic d) -> d.location().line())
          .thenComparingInt(d -> d.location().column()));
      throw new SpecException(sorted);
    }
  }
}
