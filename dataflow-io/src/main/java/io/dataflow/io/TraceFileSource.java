package io.dataflow.io;

import io.dataflow.core.spi.Source;
import io.dataflow.core.spi.SourceContext;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import io.dataflow.io.internal.EncodedControlRequest;
import io.dataflow.io.internal.TickColumnsBuilder;

/**
 * A pull-style source reading a trace file (docs/io.md#trace-files) on the owner thread: ticks
 * go out in columnar batches of up to {@value #TICKS_PER_BATCH} ticks, {@code @reconfigure}
 * lines as {@link EncodedControlRequest} control items in their place in the input, and a bad
 * line fails the source after every tick before it.
 *
 * <p>Thread-safety: owner thread only.
 */
public final class TraceFileSource implements Source {
  private static final int TICKS_PER_BATCH = 256;
  private final TickColumnsBuilder batch = new TickColumnsBuilder(TICKS_PER_BATCH);
  private static final int ITEMS_PER_POLL = 16;

  private final String name;
  private final Path path;
  private final Reader reader;
  private final String fileName;
  private TraceReader trace;
  private SourceContext context;
  private long skip;
  /** The next item to deliver: a batch, a control request, END or the error. */
  private Object held;
  private boolean done;

  private TraceFileSource(String name, Path path, Reader reader, String fileName) {
    this.name = name;
    this.path = path;
    this.reader = reader;
    this.fileName = fileName;
  }

  /** A source reading the trace file at {@code path}. */
  public static TraceFileSource open(String name, Path path) {
    return new TraceFileSource(name, path, null, path.toString());
  }

  /** A source reading a trace from {@code reader}; {@code fileName} names it in messages. */
  public static TraceFileSource of(String name, Reader reader, String fileName) {
    return new TraceFileSource(name, null, reader, fileName);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public void resumeAfter(long items) {
    if (items < 0) {
      throw new IllegalArgumentException("negative position: " + items);
    }
    this.skip = items;
  }

  @Override
  public void open(SourceContext ctx) throws IOException {
    this.context = ctx;
    this.trace = path != null ? TraceReader.open(path) : new TraceReader(fileName, reader);
    // Resuming: the items a checkpoint says were evaluated are read again and dropped (the
    // reader must see them to know the tick numbers and shapes that follow).
    for (long i = 0; i < skip; i++) {
      if (trace.next() == null) {
        throw new IOException(fileName + " has " + i + " items, but the checkpoint to resume"
            + " from consumed " + skip);
      }
    }
  }

  @Override
  public int poll(long nowNanos) {
    int work = 0;
    while (!done && work < ITEMS_PER_POLL) {
      if (held == null) {
        held = assemble();
      }
      // Never wait on the owner thread: an item that does not fit is kept for the next poll.
      if (!PullDelivery.offer(context, held)) {
        return work;
      }
      done = PullDelivery.isLast(held);
      held = null;
      work++;
    }
    return work;
  }

  /** The next deliverable: consecutive ticks form one batch, stopping before anything else. */
  private Object assemble() {
    try {
      Object item = trace.nextBatch(batch);
      if (item instanceof TraceReader.Reconfigure r) {
        return new EncodedControlRequest(r.json(), r.location());
      }
      return item == null ? PullDelivery.END : item;
    } catch (TraceException e) {
      return e;
    } catch (UncheckedIOException e) {
      return e.getCause();
    }
  }

  @Override
  public void close() throws IOException {
    done = true;
    if (trace != null) {
      trace.close();
    }
  }
}
