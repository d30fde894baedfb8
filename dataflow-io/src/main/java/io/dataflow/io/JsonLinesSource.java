package io.dataflow.io;

import com.fasterxml.jackson.databind.JsonNode;
import io.dataflow.core.spi.ControlRequest;
import io.dataflow.core.IngressException;
import io.dataflow.core.SourceLocation;
import io.dataflow.core.spi.Source;
import io.dataflow.core.spi.SourceContext;
import io.dataflow.core.TickBatch;
import io.dataflow.core.Value;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import io.dataflow.io.internal.EncodedControlRequest;
import io.dataflow.io.internal.Json5;
import io.dataflow.io.internal.ContentLines;
import io.dataflow.io.internal.JsonValues;
import io.dataflow.io.internal.TickShapes;

/**
 * A source reading JSON Lines: each line is one tick object ({@code {"x": 1, "y": 2.5}}, values
 * as in {@link JsonValues}), or a control line {@code {"$reconfigure": {...}}}. Blank lines and
 * lines starting with {@code //} are skipped. A bad line fails the source with its location.
 *
 * <p>A file is read pull-style on the owner thread; a stream (stdin, a socket) is read by a
 * thread of its own that submits each line as soon as it is read (live mode).
 *
 * <p>Thread-safety: the reading thread, if any, is the source's own.
 */
public final class JsonLinesSource implements Source {
  private final TickShapes shapes = new TickShapes();
  private final String name;
  private final String fileName;
  private final Path path;
  private final InputStream stream;
  private ContentLines in;
  private SourceContext context;
  private boolean done;
  private Object held;
  private volatile boolean closed;
  private Thread reader;
  private long skip;

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
      if (nextItem() == null) {
        throw new IOException(fileName + " has " + i + " items, but the checkpoint to resume"
            + " from consumed " + skip);
      }
    }
  }

  @Override
  public void open(SourceContext ctx) throws IOException {
    this.context = ctx;
    if (path != null) {
      in = new ContentLines(Files.newBufferedReader(path, StandardCharsets.UTF_8));
      skipResumed();
      return;
    }
    in = new ContentLines(new BufferedReader(new InputStreamReader(stream,
        StandardCharsets.UTF_8)));
    reader = ctx.threadFactory().newThread(this::readLoop);
    reader.start();
  }

  /** Live mode: submit each line as it arrives, in order. */
  private void readLoop() {
    try {
      skipResumed();
      while (!closed) {
        Object item = nextItem();
        if (item == null) {
          context.complete();
          return;
        }
        if (item instanceof TickBatch b) {
          context.submit(b, Long.MAX_VALUE);
        } else if (item instanceof ControlRequest c) {
          context.submitControl(c, Long.MAX_VALUE);
        }
      }
    } catch (IngressException e) {
      // The runtime stopped admitting input; there is nobody left to deliver to.
    } catch (Exception e) {
      if (!closed) {
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
    while (!done && work < 64) {
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
    try {
      Object item = nextItem();
      return item == null ? PullDelivery.END : item;
    } catch (TraceException | IOException e) {
      return e;
    }
  }

  /** The next tick batch or control request, or null at the end. */
  private Object nextItem() throws IOException {
    String line = in.next();
    return line == null ? null : decode(line);
  }

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
    return TickBatch.of(shapes.tick(values));
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
