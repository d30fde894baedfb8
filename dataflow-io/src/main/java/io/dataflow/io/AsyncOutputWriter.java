package io.dataflow.io;

import io.dataflow.core.spi.OutputWriter;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;

/**
 * Moves a slow destination off the owner thread: rows are copied into a bounded queue that a
 * writer thread of its own drains in order. A full queue blocks the owner (backpressure, never
 * a drop). If the runtime's shutdown deadline passes before the queue drained, the runtime
 * calls {@link #abandon()}, which gives up on the remaining rows and reports how many.
 *
 * <p>Thread-safety: {@code feed}, {@code flush}, {@code close} on the owner thread (close may run
 * on the runtime's closer thread); {@link #abandon()} from any thread.
 */
public final class AsyncOutputWriter implements OutputWriter {
  private record Op(int kind, long tick, RowLayout layout, Row row) {}

  private static final int FEED = 0;
  private static final int FLUSH = 1;
  private static final int CLOSE = 2;

  private final OutputWriter delegate;
  private final BlockingQueue<Op> queue;
  private final Thread worker;
  private final CountDownLatch finished = new CountDownLatch(1);
  private volatile IOException failure;
  private volatile boolean abandoned;
  private volatile int inFlight;

  /** Wraps {@code delegate} with a queue of {@code capacity} operations. */
  public AsyncOutputWriter(OutputWriter delegate, int capacity, ThreadFactory threads) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.queue = new ArrayBlockingQueue<>(capacity);
    this.worker = threads.newThread(this::drain);
    worker.setDaemon(true);
    worker.start();
  }

  private void drain() {
    try {
      while (true) {
        Op op = queue.take();
        inFlight = op.kind == FEED ? 1 : 0;
        try {
          switch (op.kind) {
            case FEED:
              delegate.feed(op.tick, op.layout, op.row);
              break;
            case FLUSH:
              delegate.flush();
              break;
            default:
              delegate.close();
              return;
          }
        } catch (Throwable e) {
          failure = e instanceof IOException io ? io : new IOException(e);
          // The rows behind the failed one will never be written (the failure reports the
          // destination); clearing them releases an owner blocked on a full queue.
          queue.clear();
          try {
            delegate.close(); // released all the same; the first failure is the one reported
          } catch (Throwable closing) {
            failure.addSuppressed(closing);
          }
          return;
        } finally {
          inFlight = 0;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // abandoned
    } finally {
      finished.countDown();
    }
  }

  @Override
  public void feed(long tick, RowLayout layout, Row row) throws IOException {
    Row copy = new Row(row.width());
    copy.copyFrom(row);
    put(new Op(FEED, tick, layout, copy));
  }

  @Override
  public void flush() throws IOException {
    put(new Op(FLUSH, 0, null, null));
  }

  /** Waits until every queued row was written and the destination closed. */
  @Override
  public void close() throws IOException {
    try {
      put(new Op(CLOSE, 0, null, null));
    } catch (IOException e) {
      if (abandoned) {
        throw e; // the writer thread may be stuck in the destination: do not wait for it
      }
      // The destination failed: the writer thread is ending and releases it; wait for that.
    }
    try {
      finished.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while closing", e);
    }
    check();
  }

  private void put(Op op) throws IOException {
    check();
    try {
      queue.put(op);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while queueing output", e);
    }
  }

  private void check() throws IOException {
    if (failure != null) {
      throw failure;
    }
    if (abandoned) {
      throw new IOException("output abandoned");
    }
  }

  /** Gives up on every row not yet written; returns how many rows that was. */
  public long abandon() {
    abandoned = true;
    long rows = inFlight;
    for (Op op : queue) {
      if (op.kind == FEED) {
        rows++;
      }
    }
    queue.clear();
    worker.interrupt();
    return rows;
  }
}
