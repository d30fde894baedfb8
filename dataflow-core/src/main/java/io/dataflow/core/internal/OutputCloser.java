package io.dataflow.core.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Closes an output on a thread of its own, so the owner loop (or the keyed pipeline's
 * controller) can keep its shutdown deadline even when a destination never completes (the
 * owner then abandons it).
 *
 * <p>Thread-safety: started and polled by the owner; {@link #await} from the stepping thread.
 */
public final class OutputCloser {
  private final CompletableFuture<Void> done = new CompletableFuture<>();

  /** Starts closing on a new daemon thread named {@code threadName}. */
  public OutputCloser(String threadName, Teardown.Step close) {
    Thread t = new Thread(() -> {
      try {
        close.run();
        done.complete(null);
      } catch (Throwable e) {
        done.completeExceptionally(e);
      }
    }, threadName);
    t.setDaemon(true);
    t.start();
  }

  /** True once the close finished, either way. */
  public boolean isDone() {
    return done.isDone();
  }

  /** The error the close ended with, or null; only once {@link #isDone()}. */
  public Throwable failure() {
    try {
      done.join();
      return null;
    } catch (RuntimeException e) {
      return e.getCause() == null ? e : e.getCause();
    }
  }

  /** Waits (real time, bounded); true when the close has finished. */
  public boolean await(Duration timeout) throws InterruptedException {
    try {
      done.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
      return true;
    } catch (ExecutionException e) {
      return true;
    } catch (TimeoutException e) {
      return false;
    }
  }
}
