package io.dataflow.pipeline.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import io.dataflow.core.Kind;
import io.dataflow.core.Row;
import io.dataflow.core.SourceLocation;
import io.dataflow.core.Tick;
import io.dataflow.io.TraceException;
import io.dataflow.io.internal.Json5;
import io.dataflow.io.internal.JsonValues;
import io.dataflow.io.internal.TickShapes;
import io.dataflow.pipeline.spi.KeyedOutput;
import java.io.IOException;
import java.io.StringWriter;

/**
 * The keyed JSON Lines formats, shared by the shipped sources and sinks and by integrations
 * (Kafka): a record is one tick in the JSON Lines tick format (docs/formats.md), optionally with
 * a key field whose value (a string or an integer) is the monitor key and not an input; an
 * output line is {@code {"key": K, "tick": n, "name": value, ...}}.
 *
 * <p>Thread-safety: a {@link Decoder} is for one thread; {@link #outputLine} from any thread.
 */
public final class KeyedJsonLines {
  private static final JsonFactory FACTORY = new JsonFactory();

  private KeyedJsonLines() {}

  /** A decoded record: its key (null when the decoder has no key field) and its tick. */
  public record Keyed(Object key, Tick tick) {}

  /** A decoder whose records carry the key in {@code keyField}, or none when it is null. */
  public static Decoder decoder(String keyField) {
    return new Decoder(keyField);
  }

  /** Decodes records of one stream; it shares tick shapes between records of equal names. */
  public static final class Decoder {
    private final String keyField;
    private final TickShapes shapes = new TickShapes();

    private Decoder(String keyField) {
      this.keyField = keyField;
    }

    /**
     * Decodes one line.
     *
     * @param where the name of the file or topic, for messages
     * @param lineNo the line number (or offset) for messages
     * @throws TraceException naming {@code where} and {@code lineNo} when the line is not a JSON
     *     object, has no key field, or a key that is neither a string nor an integer
     */
    public Keyed decode(String line, String where, long lineNo) {
      int lineInt = (int) Math.min(Integer.MAX_VALUE, lineNo);
      SourceLocation at = new SourceLocation(where, lineInt, 1);
      JsonNode node;
      try {
        node = Json5.parseObject(line);
      } catch (Json5.SyntaxError e) {
        throw new TraceException(new SourceLocation(where, lineInt, e.column()),
            "malformed JSON line: " + e.getMessage());
      }
      Object key = null;
      if (keyField != null) {
        JsonNode k = node.get(keyField);
        if (k == null) {
          throw new TraceException(at, "the record has no key field '" + keyField + "'");
        } else if (k.isTextual()) {
          key = k.asText();
        } else if (k.isIntegralNumber() && k.canConvertToLong()) {
          key = k.asLong();
        } else {
          throw new TraceException(at, "the key field '" + keyField + "' must be a string or"
              + " an integer, not " + k);
        }
      }
      return new Keyed(key, shapes.tick(JsonValues.tickValues(node, keyField, at)));
    }
  }

  /**
   * The JSON line of a record, without a line break: the tick's values and, when
   * {@code keyField} is not null, the key (a String or a Long) in that field first. What a
   * {@link Decoder} reads back.
   */
  public static String recordLine(String keyField, Object key, Tick tick) {
    StringWriter w = new StringWriter(64);
    try (JsonGenerator g = FACTORY.createGenerator(w)) {
      g.writeStartObject();
      if (keyField != null) {
        g.writeFieldName(keyField);
        if (key instanceof Long l) {
          g.writeNumber(l);
        } else {
          g.writeString(key.toString());
        }
      }
      for (int i = 0; i < tick.size(); i++) {
        g.writeFieldName(tick.shape().name(i));
        JsonValues.write(g, tick.value(i));
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new IllegalStateException(e); // a string writer does not fail
    }
    return w.toString();
  }

  /** The JSON line of one output, without a line break. */
  public static String outputLine(KeyedOutput o) {
    StringWriter w = new StringWriter(64);
    try (JsonGenerator g = FACTORY.createGenerator(w)) {
      g.writeStartObject();
      g.writeFieldName("key");
      if (o.key() instanceof Long l) {
        g.writeNumber(l);
      } else {
        g.writeString(o.key().toString());
      }
      g.writeNumberField("tick", o.tick());
      Row row = o.row();
      for (int i = 0; i < row.width(); i++) {
        if (row.kind(i) != Kind.NOVAL) {
          g.writeFieldName(o.layout().name(i));
          JsonValues.write(g, row.get(i));
        }
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new IllegalStateException(e); // a string writer does not fail
    }
    return w.toString();
  }
}
