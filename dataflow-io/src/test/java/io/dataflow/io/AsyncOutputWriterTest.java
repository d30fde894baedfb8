package io.dataflow.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.dataflow.core.spi.OutputWriter;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Value;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The writer thread keeps order, and its failure reaches the owner, even a blocked one. */
class AsyncOutputWriterTest {
  private static final RowLayout LAYOUT = RowLayout.of(List.of("z"));

  /** A destination whose first feed waits for a signal and then succeeds or fails. */
  private static final class Gate implements OutputWriter {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final List<Long> written = new ArrayList<>();
    final boolean fail;
    volatile boolean closed;

    Gate(boolean fail) {
      this.fail = fail;
    }

    @Override
    public void feed(long tick, RowLayout layout, Row row) throws IOException {
      if (written.isEmpty() && entered.getCount() > 0) {
        entered.countDown();
        try {
          if (!release.await(30, TimeUnit.SECONDS)) {
            throw new IOException("never released");
          }
        } catch (InterruptedException e) {
          throw new IOException(e);
        }
        if (fail) {
          throw new IOException("sink broke");
        }
      }
      written.add(tick);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {
      closed = true;
    }
  }

  private static Row row(long v) {
    Row r = LAYOUT.newRow();
    r.set(0, Value.of(v));
    return r;
  }

  @Test
  void rowsAreWrittenInOrderAndCloseWaitsForThem() throws Exception {
    Gate gate = new Gate(false);
    AsyncOutputWriter w = new AsyncOutputWriter(gate, 4, Thread::new);
    for (long t = 0; t < 4; t++) {
      w.feed(t, LAYOUT, row(t));
    }
    assertThat(gate.entered.await(30, TimeUnit.SECONDS)).isTrue();
    gate.release.countDown();
    w.close();
    assertThat(gate.written).containsExactly(0L, 1L, 2L, 3L);
    assertThat(gate.closed).isTrue();
  }

  @Test
  void anOwnerBlockedOnAFullQueueIsReleasedWhenTheDestinationFails() throws Exception {
    Gate gate = new Gate(true);
    AsyncOutputWriter w = new AsyncOutputWriter(gate, 1, Thread::new);
    w.feed(0, LAYOUT, row(0)); // taken by the writer thread, which waits in the destination
    assertThat(gate.entered.await(30, TimeUnit.SECONDS)).isTrue();
    w.feed(1, LAYOUT, row(1)); // fills the queue
    List<Throwable> seen = new ArrayList<>();
    Thread owner = new Thread(() -> {
      try {
        w.feed(2, LAYOUT, row(2)); // blocks: the queue is full
        w.feed(3, LAYOUT, row(3)); // the failure is reported by now at the latest
      } catch (IOException e) {
        synchronized (seen) {
          seen.add(e);
        }
      }
    });
    owner.start();
    gate.release.countDown(); // the destination fails now
    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> owner.join());
    synchronized (seen) {
      assertThat(seen).singleElement().extracting(Throwable::getMessage)
          .isEqualTo("sink broke");
    }
    assertThatThrownBy(w::close).hasMessage("sink broke");
    assertThat(gate.closed).isTrue(); // a failed destination is still released
  }
}
