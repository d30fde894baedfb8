package io.dataflow.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.dataflow.core.Kind;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import java.io.IOException;
import java.io.StringWriter;
import java.io.Writer;
import io.dataflow.io.internal.JsonValues;

/**
 * Writes one JSON object per tick that has at least one present output:
 * {@code {"tick":0,"outputs":{"z":3,"ok":true}}}, outputs in the layout's order, values in the
 * encoding of {@link JsonValues}. Ticks without present outputs print nothing, as in the text
 * format.
 *
 * <p>Thread-safety: owner thread only.
 */
public final class JsonLinesOutputWriter extends CharacterOutputWriter {
  private static final JsonFactory FACTORY = new JsonFactory();
  private final StringWriter buffer = new StringWriter(128);

  /**
   * A writer onto {@code out}.
   *
   * @param closeTarget whether {@link #close()} closes {@code out} (false for stdout)
   */
  public JsonLinesOutputWriter(Writer out, boolean closeTarget) {
    super(out, closeTarget);
  }

  @Override
  public void feed(long tick, RowLayout layout, Row row) throws IOException {
    boolean any = false;
    for (int i = 0; i < row.width(); i++) {
      if (row.kind(i) != Kind.NOVAL) {
        any = true;
        break;
      }
    }
    if (!any) {
      return;
    }
    buffer.getBuffer().setLength(0);
    try (JsonGenerator g = FACTORY.createGenerator(buffer)) {
      g.writeStartObject();
      g.writeNumberField("tick", tick);
      g.writeFieldName("outputs");
      g.writeStartObject();
      for (int i = 0; i < row.width(); i++) {
        if (row.kind(i) != Kind.NOVAL) {
          g.writeFieldName(layout.name(i));
          JsonValues.write(g, row.get(i));
        }
      }
      g.writeEndObject();
      g.writeEndObject();
    }
    out.append(buffer.getBuffer()).append('\n');
  }

}
