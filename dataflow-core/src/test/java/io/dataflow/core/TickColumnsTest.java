package io.dataflow.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Batches in columns: the columnar twin of {@link Row}. */
class TickColumnsTest {
  @Test
  void holdsOneValuePerSlotAndTickLikeARow() {
    TickColumns c = RowLayout.of("a", "b").newColumns(3);
    assertThat(c.width()).isEqualTo(2);
    assertThat(c.capacity()).isEqualTo(3);
    assertThat(c.size()).isZero();
    assertThat(c.get(0, 2)).as("NoVal until set").isEqualTo(Value.NOVAL);
    c.setInt(0, 0, 7);
    c.setFloat(1, 0, 1.5);
    c.setBool(0, 1, true);
    c.setStr(1, 1, "s");
    c.set(0, 2, Value.list(Value.of(1)));
    c.set(1, 2, Value.DEFERRED);
    c.setSize(3);
    assertThat(c.getInt(0, 0)).isEqualTo(7);
    assertThat(c.getFloat(1, 0)).isEqualTo(1.5);
    assertThat(c.getBool(0, 1)).isTrue();
    assertThat(c.get(1, 1)).isEqualTo(Value.of("s"));
    assertThat(c.get(0, 2)).isEqualTo(Value.list(Value.of(1)));
    assertThat(c.kind(1, 2)).isEqualTo(Kind.DEFERRED);
    assertThat(c.kinds(0)[0]).isEqualTo(Kind.INT);
    assertThat(c.payloads(0)[0]).isEqualTo(7);
    assertThatThrownBy(() -> c.getInt(1, 0)).isInstanceOf(IllegalStateException.class)
        .hasMessage("slot 1 at tick 0 holds Float, not Int");
  }

  @Test
  void copiesTicksToAndFromRows() {
    TickColumns c = RowLayout.of("a", "b").newColumns(2);
    Row r = new Row(2);
    r.setInt(0, 3);
    r.setStr(1, "x");
    c.copyFrom(r, 1);
    Row back = new Row(2);
    c.copyTo(1, back);
    assertThat(back.get(0)).isEqualTo(Value.of(3));
    assertThat(back.get(1)).isEqualTo(Value.of("x"));
    c.setNoVal(1, 1);
    c.copyTo(1, back);
    assertThat(back.get(1)).isEqualTo(Value.NOVAL);
    assertThat(back.ref(1)).isNull();
  }

  @Test
  void clearMakesTheBatchEmptyAndItsValuesAbsent() {
    TickColumns c = RowLayout.of("a").newColumns(4);
    c.setStr(0, 0, "x");
    c.setInt(0, 1, 2);
    c.setSize(2);
    c.clear();
    assertThat(c.size()).isZero();
    assertThat(c.get(0, 0)).isEqualTo(Value.NOVAL);
    assertThat(c.refs(0)[0]).isNull();
    assertThat(c.get(0, 1)).isEqualTo(Value.NOVAL);
  }

  @Test
  void clearReferencesNullsTheRangeOnlyWhereReferencesWere() {
    TickColumns c = RowLayout.of("a", "b").newColumns(3);
    c.setStr(0, 0, "x");
    c.setStr(0, 2, "y");
    c.refs(1)[1] = "written through the array";
    c.clearReferences(0, 0, 2);
    c.clearReferences(1, 0, 3);
    assertThat(c.refs(0)).containsExactly(null, null, "y");
    assertThat(c.refs(1)).containsOnlyNulls();
  }

  @Test
  void refusesSizesOutsideItsCapacity() {
    TickColumns c = new TickColumns(1, 2);
    assertThatThrownBy(() -> c.setSize(3)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("size 3 is outside 0..2");
    assertThatThrownBy(() -> c.setSize(-1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TickColumns(-1, 2))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> c.setStr(0, 0, null)).isInstanceOf(NullPointerException.class);
  }
}
