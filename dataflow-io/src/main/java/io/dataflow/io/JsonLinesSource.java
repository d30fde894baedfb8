package io.dataflow.io;

import com.fasterxml.jackson.databind.JsonNode;
import io.dataflow.core.spi.ControlRequest;
import io.dataflow.core.IngressException;
import io.dataflow.core.SourceLocation;
import io.dataflow.core.spi.Source;
import io.dataflow.core.spi.SourceContext;
import io.dataflow.core.TickBatch;
import io.dataflow.core.Value;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import io.dataflow.io.internal.ByteLines;
import io.dataflow.io.internal.EncodedControlRequest;
import io.dataflow.io.internal.Json5;
import io.dataflow.io.internal.JsonValues;
import io.dataflow.io.internal.TickColumnsBuilder;

/**
 * A source reading JSON Lines: each line is one tick object ({@code {"x": 1, "y": 2.5}}, values
 * as in {@link JsonValues}), or a control line {@code {"$reconfigure": {...}}}. Blank lines and
 * lines starting with {@code //} are skipped. A bad line fails the source with its location,
 * after every tick before it.
 *
 * <p>A file is read pull-style on the owner thread; a stream (stdin, a socket) is read by a
 * thread of its own. Either delivers consecutive ticks as one columnar batch (up to
 * {@value #TICKS_PER_BATCH}); the stream's thread hands over what it has read before every read
 * that may wait, so a line typed alone is delivered at once (live mode).
 *
 * <h2>Implementation note</h2>
 * The usual line, a flat object of plain names and Int, Float, Bool, null or plain ASCII string
 * values in strict JSON, is read from its bytes ({@link JsonLineScanner}); every other line
 * (JSON5 conveniences, nested values, escapes, control lines) and every malformed one is decoded
 * and parsed by Jackson ({@link Json5}), which alone reports errors.
 *
 * <p>Thread-safety: the reading thread, if any, is the source's own.
 */
public final class JsonLinesSource implements Source {
  private static final int TICKS_PER_BATCH = 256;
  private final String name;
  private final String fileName;
  private final Path path;
  private final InputStream stream;
  private final TickColumnsBuilder batch = new TickColumnsBuilder(TICKS_PER_BATCH);
  private final JsonLineScanner scanner = new JsonLineScanner();
  private ByteLines in;
  private SourceContext context;
  private boolean done;
  private Object held;
  private Object next; // what a pull read found after the batch it ended: a request or an error
  private volatile boolean closed;
  private Thread reader;
  private long skip;
  private int bufferSize = 1 << 16;

  private JsonLinesSource(String name, String fileName, Path path, InputStream stream) {
    this.name = name;
    this.fileName = fileName;
    this.path = path;
    this.stream = stream;
  }

  /** A pull-style source over a JSON Lines file. */
  public static JsonLinesSource file(String name, Path path) {
    return new JsonLinesSource(name, path.toString(), path, null);
  }

  /** A file read in blocks of {@code bufferSize} bytes (tests: lines split by them). */
  static JsonLinesSource file(String name, Path path, int bufferSize) {
    JsonLinesSource s = new JsonLinesSource(name, path.toString(), path, null);
    s.bufferSize = bufferSize;
    return s;
  }

  /** A push-style source reading {@code stream} on its own thread until it ends. */
  public static JsonLinesSource stream(String name, InputStream stream, String displayName) {
    return new JsonLinesSource(name, displayName, null, stream);
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

  /** Drops the items a checkpoint says were evaluated (each line is one item). */
  private void skipResumed() throws IOException {
    for (long i = 0; i < skip; i++) {
      Object item = readLine();
      if (item == null) {
        throw new IOException(fileName + " has " + i + " items, but the checkpoint to resume"
            + " from consumed " + skip);
      }
      scanner.pending().clear(); // a tick's values are dropped, not batched
    }
  }

  @Override
  public void open(SourceContext ctx) throws IOException {
    this.context = ctx;
    if (path != null) {
      in = new ByteLines(Files.newInputStream(path), bufferSize);
      skipResumed();
      return;
    }
    in = new ByteLines(stream);
    reader = ctx.threadFactory().newThread(this::readLoop);
    reader.start();
  }

  /**
   * Live mode: batches of what was read, handed over before any read that may wait, then each
   * control line in its place.
   */
  private void readLoop() {
    try {
      skipResumed();
      while (!closed) {
        if (batch.size() > 0 && (batch.isFull() || !in.hasBufferedLine())) {
          context.submit(batch.take(), Long.MAX_VALUE);
          continue;
        }
        Object item = readLine();
        if (item == scanner) {
          addPending();
          continue;
        }
        if (item == null) {
          if (batch.size() > 0) {
            context.submit(batch.take(), Long.MAX_VALUE);
          }
          context.complete();
          return;
        }
        if (item instanceof ControlRequest c) {
          if (batch.size() > 0) {
            context.submit(batch.take(), Long.MAX_VALUE);
          }
          context.submitControl(c, Long.MAX_VALUE);
        }
      }
    } catch (IngressException e) {
      // The runtime stopped admitting input; there is nobody left to deliver to.
    } catch (Exception e) {
      if (!closed) {
        if (batch.size() > 0) {
          try {
            context.submit(batch.take(), Long.MAX_VALUE); // the ticks before the bad line
          } catch (IngressException stopped) {
            return;
          }
        }
        context.fail(e);
      }
    }
  }

  @Override
  public int poll(long nowNanos) {
    if (path == null || done) {
      return 0;
    }
    int work = 0;
    while (!done && work < 16) {
      if (held == null) {
        held = read();
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

  /** The next item of a file: a batch, a control request, the end or the error. */
  private Object read() {
    if (next != null) {
      Object item = next;
      next = null;
      return item;
    }
    while (true) {
      Object item;
      try {
        item = readLine();
      } catch (TraceException | IOException e) {
        item = e;
      }
      if (item == scanner) {
        addPending();
        if (batch.isFull()) {
          return batch.take();
        }
        continue;
      }
      if (batch.size() > 0) {
        next = item == null ? PullDelivery.END : item; // after the ticks before it
        return batch.take();
      }
      return item == null ? PullDelivery.END : item;
    }
  }

  private void addPending() {
    batch.add(scanner.pending());
    scanner.pending().clear();
  }

  /**
   * Reads the next line with content: for a tick, its values are left pending in the scanner
   * and {@link #scanner} is returned; a control line is returned as a request; null at the end.
   */
  private Object readLine() throws IOException {
    while (true) {
      // The usual line, read once: the scanner finds its end (ByteLines#peek).
      int from = in.peek();
      if (from < 0) {
        return null;
      }
      int end = scanner.scanLine(in.buffer(), from, in.wholeLimit());
      if (end >= 0) {
        in.take(end);
        return scanner;
      }
      if (!in.next()) {
        return null;
      }
      switch (scanner.scan(in.buffer(), in.start(), in.end())) {
        case JsonLineScanner.TICK:
          return scanner;
        case JsonLineScanner.BLANK:
          continue;
        default:
          String line = in.text();
          String trimmed = line.strip();
          if (trimmed.isEmpty() || trimmed.startsWith("//")) {
            continue;
          }
          Object item = decode(line);
          return item == null ? scanner : item;
      }
    }
  }

  /** The general path: a control request, or null with the tick's values pending. */
  private Object decode(String line) {
    JsonNode node;
    try {
      node = Json5.parseObject(line);
    } catch (Json5.SyntaxError e) {
      throw new TraceException(location(e.column()), "malformed JSON line: " + e.getMessage());
    }
    if (node.size() == 1 && node.has("$reconfigure")) {
      JsonNode request = node.get("$reconfigure");
      if (!request.isObject()) {
        throw new TraceException(location(1), "$reconfigure needs a request object");
      }
      return new EncodedControlRequest(request.toString(), location(1));
    }
    Map<String, Value> values = JsonValues.tickValues(node, null, location(1));
    scanner.pending().clear();
    values.forEach(scanner.pending()::put);
    return null;
  }

  private SourceLocation location(int column) {
    return new SourceLocation(fileName, in.lineNo(), column);
  }

  @Override
  public void close() throws IOException {
    closed = true;
    done = true;
    if (path != null && in != null) {
      in.close();
    }
    // A live stream (stdin) is not closed here: its thread is a daemon and ends with the input.
  }
}
