package io.dataflow.core;

/**
 * A typed accessor of {@link Value} was called on a value of another type (or on an absence
 * marker): {@code Value.of(0.5).asLong()}. The message names the expected type and the value.
 */
public final class ValueTypeException extends DataflowException {
  private static final long serialVersionUID = 1L;

  private ValueTypeException(String message) {
    super(message);
  }

  static ValueTypeException expected(String what, Value actual) {
    return new ValueTypeException("expected " + what + " but the value is " + actual);
  }
}
