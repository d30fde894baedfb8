package io.dataflow.io;

import io.dataflow.core.Kind;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.ValueFormat;
import java.io.IOException;
import java.io.Writer;

/**
 * Writes the text output format (docs/language.md#text-output): one line {@code name[tick] = Value}
 * per present output value, outputs of one tick in the layout's order. NoVal is never printed.
 *
 * <p>Thread-safety: owner thread only.
 */
public final class TextOutputWriter extends CharacterOutputWriter {
  private final StringBuilder line = new StringBuilder(64);

  /**
   * A writer onto {@code out}.
   *
   * @param closeTarget whether {@link #close()} closes {@code out} (false for stdout)
   */
  public TextOutputWriter(Writer out, boolean closeTarget) {
    super(out, closeTarget);
  }

  @Override
  public void feed(long tick, RowLayout layout, Row row) throws IOException {
    for (int i = 0; i < row.width(); i++) {
      if (row.kind(i) == Kind.NOVAL) {
        continue;
      }
      line.setLength(0);
      line.append(layout.name(i)).append('[').append(tick).append("] = ");
      ValueFormat.appendTo(line, row.kind(i), row.bits(i), row.ref(i));
      line.append('\n');
      out.append(line);
    }
  }
}
