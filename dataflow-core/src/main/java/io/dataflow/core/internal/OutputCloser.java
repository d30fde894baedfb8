package io.dataflow.core.internal;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Closes an output on a thread of its own, so the owner loop can keep its shutdown deadline
 * even when a destination never completes (the owner then abandons it).
 *
 * <p>Thread-safety: started and polled by the owner; {@link #await} from the stepping thread.
 */
final class OutputCloser {
  private final CompletableFuture<Void> done = new CompletableFuture<>();

  OutputCloser(String threadName, OutputSession output) {
    Thread t = new Thread(() -> {
      try {
        output.close();
        done.complete(null);
      } catch (Throwable e) {
        done.completeExceptionally(e);
      }
    }, threadName);
    t.setDaemon(true);
    t.start();
  }

  boolean isDone() {
    return done.isDone();
  }

  /** The error the close ended with, or null; only once {@link #isDone()}. */
  Throwable failure() {
    try {
      done.join();
      return null;
    } catch (RuntimeException e) {
      return e.getCause() == null ? e : e.getCause();
    }
  }

  /** Waits (real time, bounded); true when the close has finished. */
  boolean await(Duration timeout) throws InterruptedException {
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
