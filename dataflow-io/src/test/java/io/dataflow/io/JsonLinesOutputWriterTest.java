package io.dataflow.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Value;
import java.io.IOException;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import io.dataflow.io.internal.Json5;
import io.dataflow.io.internal.JsonValues;

/** One JSON object per tick with present outputs, outputs in layout order. */
class JsonLinesOutputWriterTest {
  private final StringWriter out = new StringWriter();
  private final JsonLinesOutputWriter writer = new JsonLinesOutputWriter(out, false);

  private static Row row(RowLayout layout, Value... values) {
    Row row = layout.newRow();
    for (int i = 0; i < values.length; i++) {
      row.set(i, values[i]);
    }
    return row;
  }

  @Test
  void writesOneObjectPerTick() throws IOException {
    RowLayout layout = RowLayout.of("z", "ok");
    writer.feed(0, layout, row(layout, Value.of(3), Value.TRUE));
    writer.feed(1, layout, row(layout, Value.of(4), Value.FALSE));
    assertThat(out.toString())
        .isEqualTo(
            "{\"tick\":0,\"outputs\":{\"z\":3,\"ok\":true}}\n"
                + "{\"tick\":1,\"outputs\":{\"z\":4,\"ok\":false}}\n");
  }

  @Test
  void keepsLayoutOrderAndLeavesNoValOut() throws IOException {
    RowLayout layout = RowLayout.of("zeta", "gone", "alpha");
    writer.feed(5, layout, row(layout, Value.of(1.5), Value.NOVAL, Value.of("s")));
    assertThat(out.toString())
        .isEqualTo("{\"tick\":5,\"outputs\":{\"zeta\":1.5,\"alpha\":\"s\"}}\n");
  }

  @Test
  void writesNothingForATickWithoutPresentOutputs() throws IOException {
    RowLayout layout = RowLayout.of("a", "b");
    writer.feed(0, layout, row(layout, Value.NOVAL, Value.NOVAL));
    writer.feed(1, RowLayout.of(), RowLayout.of().newRow());
    writer.feed(2, layout, row(layout, Value.NOVAL, Value.of(1)));
    assertThat(out.toString()).isEqualTo("{\"tick\":2,\"outputs\":{\"b\":1}}\n");
  }

  @Test
  void writesDeferredAndEveryOtherKindInTheValueEncoding() throws IOException {
    RowLayout layout = RowLayout.of("d", "u", "f", "n", "l", "m");
    writer.feed(
        3,
        layout,
        row(
            layout,
            Value.DEFERRED,
            Value.UNIT,
            Value.of(1e16),
            Value.of(Double.NaN),
            Value.list(Value.of(1)),
            Value.map("$k", Value.of("v"))));
    assertThat(out.toString())
        .isEqualTo(
            "{\"tick\":3,\"outputs\":{\"d\":{\"$deferred\":true},\"u\":null,\"f\":1e16,"
                + "\"n\":{\"$float\":\"NaN\"},\"l\":[1],\"m\":{\"$map\":{\"$k\":\"v\"}}}}\n");
  }

  @Test
  void writesLinesThatReadBackAsTheValues() throws Exception {
    RowLayout layout = RowLayout.of("x", "y");
    Value x = Value.map("a", Value.list(Value.of(0.1 + 0.2), Value.UNIT));
    writer.feed(0, layout, row(layout, x, Value.of(-0.0)));
    var node = Json5.parseObject(out.toString().trim());
    assertThat(node.get("tick").asLong()).isZero();
    assertThat(JsonValues.read(node.get("outputs").get("x"))).isEqualTo(x);
    assertThat(JsonValues.read(node.get("outputs").get("y"))).isEqualTo(Value.of(-0.0));
  }

  @Test
  void escapesOutputNamesAndStringsAsJson() throws IOException {
    RowLayout layout = RowLayout.of("s");
    writer.feed(0, layout, row(layout, Value.of("line\nbreak \"q\" \u0001")));
    assertThat(out.toString())
        .isEqualTo("{\"tick\":0,\"outputs\":{\"s\":\"line\\nbreak \\\"q\\\" \\u0001\"}}\n");
  }
}
