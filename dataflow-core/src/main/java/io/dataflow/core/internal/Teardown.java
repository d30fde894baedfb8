package io.dataflow.core.internal;

import java.util.ArrayList;
import java.util.List;
import io.dataflow.core.DataflowException;

/**
 * Runs every cleanup step even when one fails, and joins the errors: the first becomes the
 * primary, the others are attached with {@link Throwable#addSuppressed}.
 *
 * <p>Thread-safety: not thread-safe; one teardown per thread.
 */
public final class Teardown {
  /** A cleanup step. */
  @FunctionalInterface
  public interface Step {
    /** Performs the step. */
    void run() throws Exception;
  }

  private final List<String> names = new ArrayList<>();
  private final List<Step> steps = new ArrayList<>();

  /** Adds a named step. */
  public Teardown step(String name, Step step) {
    names.add(name);
    steps.add(step);
    return this;
  }

  /**
   * Runs every step in order.
   *
   * @return the joined error, or null when every step succeeded
   */
  public Exception run() {
    Exception primary = null;
    for (int i = 0; i < steps.size(); i++) {
      try {
        steps.get(i).run();
      } catch (Exception e) {
        Exception named = new DataflowException(names.get(i) + ": " + DataflowException.describe(e), e);
        if (primary == null) {
          primary = named;
        } else {
          primary.addSuppressed(named);
        }
      }
    }
    return primary;
  }

}
