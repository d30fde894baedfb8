package io.dataflow.core;

import java.util.Objects;

/**
 * Why a run ended with a failure, and what a restart can do about it: the kind, the failing
 * component, the message, advice for the operator, and whether the last checkpoint stays
 * resumable (a restart from it can succeed) or is set aside (a restart from it would fail the
 * same way, or it cannot be trusted).
 *
 * <p>The first fatal error of a run decides its reason ({@link #of}); an error that knows more
 * than its component and message (a reconfiguration that failed part-way) supplies its own
 * reason through {@link Explained}.
 *
 * @param kind what failed
 * @param component the failing component ({@code monitor}, {@code sink:out},
 *     {@code source:main}, {@code control}, ...)
 * @param message the error's message
 * @param advice what an operator can do, in one sentence or two
 * @param resumable true when the last checkpoint stays valid for a restart
 */
public record FatalReason(Kind kind, String component, String message, String advice,
    boolean resumable) {

  /** What failed. */
  public enum Kind {
    /** A source could not be read. */
    SOURCE,
    /** A destination failed, stayed unreachable past its retries, or lost rows at the end. */
    SINK,
    /** A runtime error in a tick (division by zero, a type error, ...). */
    TICK,
    /** A reconfiguration request was refused before anything changed. */
    REQUEST,
    /** A reconfiguration failed part-way through its application. */
    CUTOVER,
    /** The run could not start (a source or destination could not be opened). */
    STARTUP,
    /** A checkpoint could not be read or written. */
    CHECKPOINT,
    /** An error inside the library: a bug. */
    INTERNAL
  }

  /** An error that states its own fatal reason. */
  public interface Explained {
    /** The reason, for an error reported by {@code component}. */
    FatalReason fatalReason(String component);
  }

  /** Validates the reason. */
  public FatalReason {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(component, "component");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(advice, "advice");
  }

  /** The one line an operator reads: {@code sink:out failed: ... Advice: ...}. */
  public String line() {
    return component + " failed: " + message + ". " + advice;
  }

  /** The reason of a request that was refused before anything changed. */
  public static FatalReason refusedRequest(String component, String message) {
    return new FatalReason(Kind.REQUEST, component, message, "The request was refused before"
        + " anything changed; fix the request and send it again. The last checkpoint stays"
        + " resumable.", true);
  }

  /** Classifies the first fatal error of a run, reported by {@code component}. */
  public static FatalReason of(String component, Throwable error) {
    Throwable cause = error;
    while (cause instanceof ComponentException && cause.getCause() != null) {
      cause = cause.getCause();
    }
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof Explained e) {
        return e.fatalReason(component);
      }
    }
    String message = DataflowException.describe(cause);
    if (component.equals("monitor")) {
      return new FatalReason(Kind.TICK, component, message, "The same input fails again unless the"
          + " input or the specification changes; a restart resumes from the last checkpoint"
          + " before the failing tick.", true);
    }
    if (component.equals("sink") || component.startsWith("sink:")) {
      String advice = cause instanceof RetryFailedException r && !r.cancelled()
          ? "The destination stayed unreachable after " + r.attempts() + " attempts; once it is"
              + " reachable, a restart replays from the last checkpoint."
          : "Rows after the last checkpoint may not have been written; once the destination"
              + " works, a restart replays them from the last checkpoint.";
      return new FatalReason(Kind.SINK, component, message, advice, true);
    }
    if (component.startsWith("source:") || component.equals("input")) {
      return new FatalReason(Kind.SOURCE, component, message, "Once the source can be read, a"
          + " restart replays from the last checkpoint.", true);
    }
    // A refused request explains itself (REQUEST); a failure in the control path that does not
    // is a bug and falls through to INTERNAL.
    if (component.equals("checkpoint")) {
      return new FatalReason(Kind.CHECKPOINT, component, message, "A checkpoint could not be"
          + " written (disk space, permissions) or read; the previous checkpoint stays valid and"
          + " a restart resumes from it once the directory works.", true);
    }
    if (component.equals("startup")) {
      return new FatalReason(Kind.STARTUP, component, message, "The run did not start; fix what"
          + " the message names and start again.", true);
    }
    return new FatalReason(Kind.INTERNAL, component, message, "An error inside the library: the"
        + " last checkpoint is set aside rather than trusted; report it with the log.", false);
  }
}
