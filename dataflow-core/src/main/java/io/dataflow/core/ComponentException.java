package io.dataflow.core;


/**
 * Wraps an error with the name of the component it came from ({@code sink:out},
 * {@code source:main}, ...), so the exit report can say which one failed.
 */
public final class ComponentException extends DataflowException {
  private static final long serialVersionUID = 1L;
  private final String component;

  /** An error from {@code component}. */
  public ComponentException(String component, Throwable cause) {
    super(component + ": " + DataflowException.describe(cause), cause);
    this.component = component;
  }

  /** The component that failed. */
  public String component() {
    return component;
  }
}
