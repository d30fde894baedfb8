package io.dataflow.pipeline.io;

import io.dataflow.core.Kind;
import io.dataflow.core.Row;
import io.dataflow.core.ValueFormat;
import io.dataflow.pipeline.spi.Acknowledgement;
import io.dataflow.pipeline.spi.KeyedOutput;
import io.dataflow.pipeline.spi.KeyedSink;
import java.io.PrintStream;
import java.util.List;
import java.util.function.Consumer;

/**
 * Sinks that write synchronously and acknowledge each batch once written: text lines, JSON
 * Lines, or a callback.
 */
public final class KeyedSinks {
  private KeyedSinks() {}

  /**
   * One line per present value, {@code KEY: name[tick] = Value} (KEY as written: strings
   * without quotes), on {@code out}; a batch is acknowledged once printed and flushed, failed
   * when the stream reports an error.
   */
  public static KeyedSink text(PrintStream out) {
    return new Printing(out, false);
  }

  /** One JSON object per output tick, {@code {"key": K, "tick": n, "name": value}}. */
  public static KeyedSink jsonLines(PrintStream out) {
    return new Printing(out, true);
  }

  /** Hands every output to {@code each} (from the driver threads, serialized) and acks. */
  public static KeyedSink callback(Consumer<KeyedOutput> each) {
    return new KeyedSink() {
      @Override
      public synchronized void send(List<KeyedOutput> outputs, Acknowledgement ack) {
        try {
          outputs.forEach(each);
        } catch (RuntimeException e) {
          ack.failed(e);
          return;
        }
        ack.succeeded();
      }

      @Override
      public void close() {}
    };
  }

  private static final class Printing implements KeyedSink {
    private final PrintStream out;
    private final boolean json;

    Printing(PrintStream out, boolean json) {
      this.out = out;
      this.json = json;
    }

    @Override
    public void send(List<KeyedOutput> outputs, Acknowledgement ack) {
      StringBuilder sb = new StringBuilder();
      for (KeyedOutput o : outputs) {
        if (json) {
          json(sb, o);
        } else {
          text(sb, o);
        }
      }
      boolean error;
      synchronized (this) { // lines of one batch stay together
        out.print(sb);
        out.flush();
        error = out.checkError();
      }
      if (error) {
        ack.failed(new java.io.IOException("the output stream reported an error"));
      } else {
        ack.succeeded();
      }
    }

    private static void text(StringBuilder sb, KeyedOutput o) {
      Row row = o.row();
      for (int i = 0; i < row.width(); i++) {
        if (row.kind(i) == Kind.NOVAL) {
          continue;
        }
        sb.append(o.key()).append(": ").append(o.layout().name(i)).append('[').append(o.tick())
            .append("] = ");
        ValueFormat.appendTo(sb, row.kind(i), row.bits(i), row.ref(i));
        sb.append('\n');
      }
    }

    private static void json(StringBuilder sb, KeyedOutput o) {
      sb.append(KeyedJsonLines.outputLine(o)).append('\n');
    }

    @Override
    public void close() {
      out.flush();
    }
  }
}
