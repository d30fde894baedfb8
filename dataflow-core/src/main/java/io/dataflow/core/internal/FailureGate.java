package io.dataflow.core.internal;

import io.dataflow.core.FatalReason;
import java.util.function.Consumer;

import java.util.concurrent.atomic.AtomicReference;
import io.dataflow.core.DataflowException;

/**
 * One owner per failure slot: the first fatal error wins (compare-and-set); later ones are
 * logged and attached to the first as suppressed, never lost. A cancel is recorded the same
 * way but stays distinguishable from a fatal error.
 *
 * <p>Thread-safety: safe from any thread.
 */
public final class FailureGate {
  // Looked up on use: a clean run never starts SLF4J (docs/decisions.md, loggers on use).
  private static org.slf4j.Logger log() {
    return org.slf4j.LoggerFactory.getLogger(FailureGate.class);
  }

  /**
   * A recorded failure.
   *
   * @param component what failed ({@code monitor}, {@code sink:out}, {@code operator}, ...)
   * @param cause the error (for a cancel, an exception carrying the reason)
   * @param cancel true when an operator cancelled rather than something failing
   * @param fatal why the run failed and what a restart can do; null for a cancel
   */
  public record Failure(String component, Throwable cause, boolean cancel, FatalReason fatal) {
    /** The message to report. */
    public String reason() {
      return cause.getMessage() == null ? cause.toString() : cause.getMessage();
    }
  }

  private final AtomicReference<Failure> first = new AtomicReference<>();
  private final java.util.concurrent.atomic.AtomicBoolean durableMutation =
      new java.util.concurrent.atomic.AtomicBoolean();
  private final Consumer<FatalReason> onFirstFatal;

  /** A gate that only logs the first fatal reason. */
  public FailureGate() {
    this(reason -> {});
  }

  /** A gate that also hands the first fatal reason, once, to {@code onFirstFatal}. */
  public FailureGate(Consumer<FatalReason> onFirstFatal) {
    this.onFirstFatal = onFirstFatal;
  }

  /**
   * Records a fatal error.
   *
   * @return true when this was the first failure
   */
  public boolean fail(String component, Throwable cause) {
    return record(new Failure(component, cause, false, FatalReason.of(component, cause)));
  }

  /**
   * Records an operator cancel.
   *
   * @return true when this was the first failure
   */
  public boolean cancel(String reason) {
    return record(new Failure("operator", new DataflowException("cancelled: " + reason), true,
        null));
  }

  private boolean record(Failure f) {
    if (first.compareAndSet(null, f)) {
      if (f.fatal() != null) {
        // Once per run, however many threads fail together: the operator reads one line.
        log().error("{}", f.fatal().line());
        onFirstFatal.accept(f.fatal());
      }
      return true;
    }
    Failure winner = first.get();
    if (winner.cause() != f.cause()) {
      winner.cause().addSuppressed(f.cause());
    }
    log().warn("{} failed after the run already ended because of {}: {}", f.component(),
        winner.component(), f.reason());
    return false;
  }

  /**
   * Marks the point of no return: the run started a mutation outside itself that a restart
   * must not repeat (a durable run's publication, once dispatch started). From now on no
   * failure sets the run's evidence aside, and the exit report says a durable mutation
   * happened. Safe from any thread; idempotent.
   */
  public void pointOfNoReturn() {
    durableMutation.set(true);
  }

  /** True once {@link #pointOfNoReturn()} was called. */
  public boolean pastPointOfNoReturn() {
    return durableMutation.get();
  }

  /** Sets a run's newest checkpoint aside (renamed, never deleted); returns where it went. */
  @FunctionalInterface
  public interface SetAside {
    /** Sets it aside because of {@code why}; false when there was nothing to set aside. */
    boolean setAside(String why) throws Exception;
  }

  /**
   * What becomes of a run's checkpoints at its end, decided once for every runtime: none when
   * it wrote or resumed from none; kept when it completed, was cancelled, failed with a reason
   * that keeps the checkpoint resumable, or passed the {@link #pointOfNoReturn() point of no
   * return} (the evidence stays); otherwise set aside through {@code setAside}, with a warning.
   */
  public io.dataflow.core.ExitReport.CheckpointOutcome checkpointOutcome(boolean hasCheckpoint,
      SetAside setAside, Consumer<String> warn) {
    if (!hasCheckpoint) {
      return io.dataflow.core.ExitReport.CheckpointOutcome.NONE;
    }
    Failure f = first.get();
    if (f == null || f.fatal() == null || f.fatal().resumable()) {
      return io.dataflow.core.ExitReport.CheckpointOutcome.KEPT;
    }
    if (pastPointOfNoReturn()) {
      warn.accept("the checkpoint is kept although " + f.fatal().kind() + " does not keep it"
          + " resumable: the run passed its point of no return, so the evidence stays");
      return io.dataflow.core.ExitReport.CheckpointOutcome.KEPT;
    }
    try {
      if (setAside.setAside(f.fatal().line())) {
        return io.dataflow.core.ExitReport.CheckpointOutcome.SET_ASIDE;
      }
    } catch (Exception e) {
      warn.accept("the checkpoint could not be set aside: " + e.getMessage());
    }
    return io.dataflow.core.ExitReport.CheckpointOutcome.KEPT;
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
