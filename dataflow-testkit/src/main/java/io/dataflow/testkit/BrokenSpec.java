package io.dataflow.testkit;

import java.util.Objects;

/**
 * A specification that must not compile, made by {@link SpecGenerator#broken()}: a valid
 * generated spec with one defect added, labelled with the kind of error and where the
 * compiler must report it.
 *
 * <p>Thread-safety: immutable.
 *
 * @param kind the kind of defect
 * @param text the specification text
 * @param line the 1-based line the error must be reported on
 * @param column the 1-based column the error must be reported at, or 0 when only the line is
 *     pinned down
 * @param fragment a fragment the error message must contain
 * @param base the valid spec the defect was added to
 */
public record BrokenSpec(Kind kind, String text, int line, int column, String fragment,
    GeneratedSpec base) {
  /** The kinds of defects. */
  public enum Kind {
    /** A reference to a stream that is not declared. */
    UNKNOWN_NAME,
    /** A same-tick dependency cycle between two or more streams. */
    CYCLE,
    /** A stream that reads itself without a positive delay. */
    SELF_REFERENCE,
    /** A computed stream declared without an equation. */
    MISSING_EQUATION,
    /**
     * A second declaration or equation for a stream, an equation for an input, or an
     * equation for an undeclared stream.
     */
    DUPLICATE,
    /** A static type error that gradual typing reports (the types are known). */
    TYPE_ERROR,
    /** A lexical or syntax error. */
    SYNTAX_ERROR
  }

  /** Validates. */
  public BrokenSpec {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(fragment, "fragment");
    if (line < 1 || column < 0) {
      throw new IllegalArgumentException("bad location " + line + ":" + column);
    }
  }

  /** The expected location as {@code line:column} (or {@code line} when the column is open). */
  public String expectedLocation() {
    return column == 0 ? Integer.toString(line) : line + ":" + column;
  }

  /** The kind, the expected location and message, and the text. */
  @Override
  public String toString() {
    return kind + " at " + expectedLocation() + " containing '" + fragment + "':\n" + text;
  }
}
