package io.dataflow.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.Kind;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Value;
import io.dataflow.core.spi.OutputWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link Sinks#viewCallback}: the typed path beside the boxed callback (that it allocates nothing
 * per row is checked in dataflow-bench, {@code ViewCallbackAllocationTest}).
 */
class ViewCallbackTest {
  private static final RowLayout LAYOUT = RowLayout.of("i", "f", "b", "s");

  private static Row row(long i, double f, boolean b, String s) {
    Row r = LAYOUT.newRow();
    r.setInt(0, i);
    r.setFloat(1, f);
    r.setBool(2, b);
    r.setStr(3, s);
    return r;
  }

  @Test
  void readsEveryScalarKindFromItsSlot() throws Exception {
    List<String> seen = new ArrayList<>();
    OutputWriter sink = Sinks.viewCallback(v -> seen.add(v.tick() + ": " + v.getInt(0) + " "
        + v.getFloat(1) + " " + v.getBool(2) + " " + v.getStr(3) + " " + v.name(3) + "@"
        + v.slotOf("s") + " of " + v.width()));
    sink.feed(7, LAYOUT, row(-3, 2.5, true, "hi"));
    assertThat(seen).containsExactly("7: -3 2.5 true hi s@3 of 4");
  }

  @Test
  void deliversTheTicksAndValuesTheBoxedCallbackDelivers() throws Exception {
    List<OutputRow> boxed = new ArrayList<>();
    List<OutputRow> viewed = new ArrayList<>();
    OutputWriter a = Sinks.callback(boxed::add);
    OutputWriter b = Sinks.viewCallback(v -> viewed.add(v.toOutputRow()));
    Row r = LAYOUT.newRow();
    for (int t = 0; t < 6; t++) {
      r.clear(); // tick 0: no output at all, skipped by both
      if (t % 2 == 1) {
        r.setInt(0, t);
      }
      if (t % 3 == 2) {
        r.setStr(3, "t" + t);
      }
      if (t == 4) {
        r.set(1, Value.DEFERRED);
      }
      a.feed(t, LAYOUT, r);
      b.feed(t, LAYOUT, r);
    }
    assertThat(viewed).isEqualTo(boxed);
    assertThat(viewed).extracting(OutputRow::tick).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(viewed.get(3).values()).isEqualTo(Map.of("f", Value.DEFERRED));
  }

  @Test
  void tellsValuesFromAbsenceAndRefusesTheWrongKind() throws Exception {
    List<String> seen = new ArrayList<>();
    Row r = LAYOUT.newRow();
    r.setInt(0, 1);
    r.set(1, Value.DEFERRED);
    OutputWriter sink = Sinks.viewCallback(v -> {
      seen.add(v.hasValue(0) + " " + v.isPresent(0) + " " + Kind.name(v.kind(0)));
      seen.add(v.hasValue(1) + " " + v.isPresent(1) + " " + v.get(1));
      seen.add(v.hasValue(2) + " " + v.isPresent(2) + " " + v.get(2));
      assertThatThrownBy(() -> v.getStr(0)).isInstanceOf(IllegalStateException.class)
          .hasMessage("tick 0: output 'i' (slot 0) holds Int, not Str");
      assertThatThrownBy(() -> v.getBool(2)).isInstanceOf(IllegalStateException.class)
          .hasMessage("tick 0: output 'b' (slot 2) holds NoVal, not Bool");
    });
    sink.feed(0, LAYOUT, r);
    assertThat(seen).containsExactly("true true Int", "true false Deferred",
        "false false NoVal");
  }

  @Test
  void followsTheLayoutOfEachRow() throws Exception {
    RowLayout after = RowLayout.of("s", "z");
    List<String> seen = new ArrayList<>();
    OutputWriter sink = Sinks.viewCallback(v -> seen.add(v.layout() + " z@" + v.slotOf("z")));
    sink.feed(0, LAYOUT, row(1, 1, true, "a"));
    Row r = after.newRow();
    r.setInt(1, 5);
    sink.feed(1, after, r);
    assertThat(seen).containsExactly("[i, f, b, s] z@-1", "[s, z] z@1");
  }
}
