package io.dataflow.core.internal;

import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.dataflow.core.DataflowException;

/**
 * One owner per failure slot: the first fatal error wins (compare-and-set); later ones are
 * logged and attached to the first as suppressed, never lost. A cancel is recorded the same
 * way but stays distinguishable from a fatal error.
 *
 * <p>Thread-safety: safe from any thread.
 */
public final class FailureGate {
  private static final Logger LOG = LoggerFactory.getLogger(FailureGate.class);

  /**
   * A recorded failure.
   *
   * @param component what failed ({@code monitor}, {@code sink:out}, {@code operator}, ...)
   * @param cause the error (for a cancel, an exception carrying the reason)
   * @param cancel true when an operator cancelled rather than something failing
   */
  public record Failure(String component, Throwable cause, boolean cancel) {
    /** The message to report. */
    public String reason() {
      return cause.getMessage() == null ? cause.toString() : cause.getMessage();
    }
  }

  private final AtomicReference<Failure> first = new AtomicReference<>();

  /**
   * Records a fatal error.
   *
   * @return true when this was the first failure
   */
  public boolean fail(String component, Throwable cause) {
    return record(new Failure(component, cause, false));
  }

  /**
   * Records an operator cancel.
   *
   * @return true when this was the first failure
   */
  public boolean cancel(String reason) {
    return record(new Failure("operator", new DataflowException("cancelled: " + reason), true));
  }

  private boolean record(Failure f) {
    if (first.compareAndSet(null, f)) {
      return true;
    }
    Failure winner = first.get();
    if (winner.cause() != f.cause()) {
      winner.cause().addSuppressed(f.cause());
    }
    LOG.warn("{} failed after the run already ended because of {}: {}", f.component(),
        winner.component(), f.reason());
    return false;
  }

  /** The first failure, or null. */
  public Failure get() {
    return first.get();
  }

  /** True once a failure or cancel was recorded. */
  public boolean isSet() {
    return first.get() != null;
  }
}
