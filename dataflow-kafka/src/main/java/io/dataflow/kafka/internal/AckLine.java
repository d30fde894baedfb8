package io.dataflow.kafka.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.StringWriter;
import java.util.Map;

/** The JSON line of an acknowledgement on an ack topic: fields in the order given. */
public final class AckLine {
  private static final JsonFactory FACTORY = new JsonFactory();

  private AckLine() {}

  /** A JSON object of strings, numbers, booleans and lists of numbers (nulls are left out). */
  public static String of(Map<String, ?> fields) {
    StringWriter w = new StringWriter(128);
    try (JsonGenerator g = FACTORY.createGenerator(w)) {
      g.writeStartObject();
      for (Map.Entry<String, ?> e : fields.entrySet()) {
        Object v = e.getValue();
        if (v == null) {
          continue;
        }
        g.writeFieldName(e.getKey());
        if (v instanceof Boolean b) {
          g.writeBoolean(b);
        } else if (v instanceof Long || v instanceof Integer) {
          g.writeNumber(((Number) v).longValue());
        } else if (v instanceof Iterable<?> it) {
          g.writeStartArray();
          for (Object o : it) {
            g.writeNumber(((Number) o).longValue());
          }
          g.writeEndArray();
        } else {
          g.writeString(v.toString());
        }
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new IllegalStateException(e); // a string writer does not fail
    }
    return w.toString();
  }
}
