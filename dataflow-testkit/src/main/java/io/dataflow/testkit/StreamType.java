package io.dataflow.testkit;

/**
 * The scalar types the generators use for streams and trace values: {@code Int}, {@code Float},
 * {@code Bool} and {@code Str}, each with its annotation spelling.
 *
 * <p>Thread-safety: immutable.
 */
public enum StreamType {
  /** A 64-bit signed integer. */
  INT("Int"),
  /** An IEEE double. */
  FLOAT("Float"),
  /** A boolean. */
  BOOL("Bool"),
  /** A string. */
  STR("Str");

  private final String annotation;

  StreamType(String annotation) {
    this.annotation = annotation;
  }

  /** The type as a specification spells it in an annotation ({@code Int}, ...). */
  public String annotation() {
    return annotation;
  }

  /** True for {@link #INT} and {@link #FLOAT}. */
  public boolean isNumeric() {
    return this == INT || this == FLOAT;
  }
}
