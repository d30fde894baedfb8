package io.dataflow.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Value;
import java.io.IOException;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The text output format (docs/language.md#text-output), line by line. */
class TextOutputWriterTest {
  private final StringWriter out = new StringWriter();
  private final TextOutputWriter writer = new TextOutputWriter(out, false);

  private static Row row(RowLayout layout, Value... values) {
    Row row = layout.newRow();
    for (int i = 0; i < values.length; i++) {
      row.set(i, values[i]);
    }
    return row;
  }

  @Test
  void printsTheLanguageExampleExactly() throws IOException {
    RowLayout layout = RowLayout.of("z", "ok", "name", "ratio", "u", "xs", "m");
    writer.feed(
        0,
        layout,
        row(
            layout,
            Value.of(3),
            Value.TRUE,
            Value.of("idle"),
            Value.of(0.5),
            Value.NOVAL,
            Value.NOVAL,
            Value.NOVAL));
    writer.feed(
        1,
        layout,
        row(
            layout,
            Value.DEFERRED,
            Value.NOVAL,
            Value.NOVAL,
            Value.NOVAL,
            Value.UNIT,
            Value.NOVAL,
            Value.NOVAL));
    writer.feed(
        2,
        layout,
        row(
            layout,
            Value.NOVAL,
            Value.NOVAL,
            Value.NOVAL,
            Value.NOVAL,
            Value.NOVAL,
            Value.list(Value.of(1), Value.of(2)),
            Value.map("b", Value.of("x"), "a", Value.of(1))));
    writer.close();
    assertThat(out.toString())
        .isEqualTo(
            "z[0] = Int(3)\n"
                + "ok[0] = Bool(true)\n"
                + "name[0] = Str(\"idle\")\n"
                + "ratio[0] = Float(0.5)\n"
                + "z[1] = Deferred\n"
                + "u[1] = Unit\n"
                + "xs[2] = List([Int(1), Int(2)])\n"
                + "m[2] = Map({\"a\": Int(1), \"b\": Str(\"x\")})\n");
  }

  @Test
  void printsOutputsInLayoutOrderNotByName() throws IOException {
    RowLayout layout = RowLayout.of("zeta", "alpha", "mid");
    writer.feed(7, layout, row(layout, Value.of(1), Value.of(2), Value.of(3)));
    assertThat(out.toString()).isEqualTo("zeta[7] = Int(1)\nalpha[7] = Int(2)\nmid[7] = Int(3)\n");
  }

  @Test
  void neverPrintsNoVal() throws IOException {
    RowLayout layout = RowLayout.of("a", "b");
    writer.feed(0, layout, row(layout, Value.NOVAL, Value.NOVAL));
    writer.feed(1, layout, row(layout, Value.NOVAL, Value.of(false)));
    assertThat(out.toString()).isEqualTo("b[1] = Bool(false)\n");
  }

  @Test
  void printsFloatsAndStringsInTheirTextForms() throws IOException {
    RowLayout layout = RowLayout.of("f", "g", "s");
    writer.feed(
        9223372036854775807L,
        layout,
        row(layout, Value.of(1e23), Value.of(Double.NEGATIVE_INFINITY), Value.of("a\"\\\n\tb")));
    assertThat(out.toString())
        .isEqualTo(
            "f[9223372036854775807] = Float(1e23)\n"
                + "g[9223372036854775807] = Float(-inf)\n"
                + "s[9223372036854775807] = Str(\"a\\\"\\\\\\n\\tb\")\n");
  }

  @Test
  void readsTheRowAtFeedTimeSoARowCanBeReused() throws IOException {
    RowLayout layout = RowLayout.of("x");
    Row row = layout.newRow();
    row.setInt(0, 1);
    writer.feed(0, layout, row);
    row.setInt(0, 2);
    writer.feed(1, layout, row);
    assertThat(out.toString()).isEqualTo("x[0] = Int(1)\nx[1] = Int(2)\n");
  }

  @Test
  void closesItsTargetOnlyWhenAskedTo() throws IOException {
    boolean[] closed = new boolean[2];
    StringWriter kept =
        new StringWriter() {
          @Override
          public void close() {
            closed[0] = true;
          }
        };
    StringWriter owned =
        new StringWriter() {
          @Override
          public void close() {
            closed[1] = true;
          }
        };
    new TextOutputWriter(kept, false).close();
    new TextOutputWriter(owned, true).close();
    assertThat(closed).containsExactly(false, true);
  }
}
