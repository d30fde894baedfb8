package io.dataflow.io;

import io.dataflow.core.Kind;
import io.dataflow.core.spi.OutputWriter;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Value;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Ready-made output writers: text and JSON Lines onto a stream or a file, a callback, a
 * collecting sink and a null sink. The stream and file writers format straight into UTF-8
 * bytes; their output is byte for byte that of {@link TextOutputWriter} and
 * {@link JsonLinesOutputWriter} over a UTF-8 writer.
 */
public final class Sinks {
  private Sinks() {}

  /** The text format (docs/language.md#text-output) onto {@code out}, which stays open. */
  public static OutputWriter text(OutputStream out) {
    return new Utf8TextWriter(out, false);
  }

  /** The text format into a new file (UTF-8). */
  public static OutputWriter textFile(Path path) throws IOException {
    return new Utf8TextWriter(Files.newOutputStream(path), true);
  }

  /** JSON Lines onto {@code out}, which stays open. */
  public static OutputWriter jsonLines(OutputStream out) {
    return new Utf8JsonLinesWriter(out, false);
  }

  /** JSON Lines into a new file (UTF-8). */
  public static OutputWriter jsonLinesFile(Path path) throws IOException {
    return new Utf8JsonLinesWriter(Files.newOutputStream(path), true);
  }

  /** Calls {@code callback} with each tick that has a present output, on the owner thread. */
  public static OutputWriter callback(Consumer<OutputRow> callback) {
    Objects.requireNonNull(callback, "callback");
    return new OutputWriter() {
      @Override
      public void feed(long tick, RowLayout layout, Row row) {
        OutputRow r = box(tick, layout, row);
        if (!r.values().isEmpty()) {
          callback.accept(r);
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
  }

  /**
   * Calls {@code callback} with each tick that has an output value, like {@link #callback}, but
   * as a reusable read-only {@link OutputRowView} instead of a boxed {@link OutputRow}: reading
   * scalars from it allocates nothing, so the sink costs no garbage per row. The view is valid
   * only during the call (copy what you keep). Called on the owner thread; an exception it
   * throws fails the run like any sink's.
   */
  public static OutputWriter viewCallback(Consumer<OutputRowView> callback) {
    Objects.requireNonNull(callback, "callback");
    OutputRowView view = new OutputRowView(); // owner thread only, reused for every row
    return new OutputWriter() {
      @Override
      public void feed(long tick, RowLayout layout, Row row) {
        view.reset(tick, layout, row);
        if (view.anyValue()) {
          callback.accept(view);
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
  }

  /** Discards every row. */
  public static OutputWriter nullSink() {
    return new OutputWriter() {
      @Override
      public void feed(long tick, RowLayout layout, Row row) {}

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
  }

  /** A new collecting sink. */
  public static Collecting collecting() {
    return new Collecting();
  }

  /**
   * Keeps every tick that has a present output. Thread-safety: written by the owner thread,
   * readable from any thread (reads take a snapshot).
   */
  public static final class Collecting implements OutputWriter {
    private final List<OutputRow> rows = new ArrayList<>();
    private boolean closed;

    @Override
    public synchronized void feed(long tick, RowLayout layout, Row row) {
      OutputRow r = box(tick, layout, row);
      if (!r.values().isEmpty()) {
        rows.add(r);
      }
    }

    @Override
    public void flush() {}

    @Override
    public synchronized void close() {
      closed = true;
    }

    /** The rows collected so far. */
    public synchronized List<OutputRow> rows() {
      return List.copyOf(rows);
    }

    /** The rows collected so far in the text output format, one line per value. */
    public synchronized List<String> lines() {
      List<String> out = new ArrayList<>();
      for (OutputRow r : rows) {
        for (Map.Entry<String, Value> e : r.values().entrySet()) {
          out.add(e.getKey() + "[" + r.tick() + "] = " + e.getValue());
        }
      }
      return out;
    }

    /** True once closed. */
    public synchronized boolean isClosed() {
      return closed;
    }
  }

  static OutputRow box(long tick, RowLayout layout, Row row) {
    Map<String, Value> values = new LinkedHashMap<>();
    for (int i = 0; i < row.width(); i++) {
      if (row.kind(i) != Kind.NOVAL) {
        values.put(layout.name(i), row.get(i));
      }
    }
    return new OutputRow(tick, values);
  }
}
