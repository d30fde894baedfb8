package io.dataflow.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A row keeps one unboxed value per slot and boxes it only at the API edge. */
class RowTest {

  @Test
  void startsWithEverySlotNoVal() {
    Row row = new Row(3);
    assertThat(row.width()).isEqualTo(3);
    for (int i = 0; i < 3; i++) {
      assertThat(row.kind(i)).isEqualTo(Kind.NOVAL);
      assertThat(row.isPresent(i)).isFalse();
      assertThat(row.get(i)).isSameAs(Value.NOVAL);
    }
  }

  @Test
  void storesScalarsUnboxed() {
    Row row = new Row(4);
    row.setInt(0, Long.MIN_VALUE);
    row.setFloat(1, -0.0);
    row.setBool(2, true);
    row.setStr(3, "s");
    assertThat(row.getInt(0)).isEqualTo(Long.MIN_VALUE);
    assertThat(row.bits(0)).isEqualTo(Long.MIN_VALUE);
    assertThat(Double.doubleToRawLongBits(row.getFloat(1)))
        .isEqualTo(Double.doubleToRawLongBits(-0.0));
    assertThat(row.getBool(2)).isTrue();
    assertThat(row.bits(2)).isEqualTo(1);
    assertThat(row.kind(3)).isEqualTo(Kind.STR);
    assertThat(row.ref(3)).isEqualTo("s");
    assertThat(row.ref(0)).isNull();
  }

  @Test
  void keepsTheBitsOfANaNPayload() {
    Row row = new Row(1);
    double payloadNaN = Double.longBitsToDouble(0x7ff8_0000_0000_1234L);
    row.setFloat(0, payloadNaN);
    assertThat(row.bits(0)).isEqualTo(0x7ff8_0000_0000_1234L);
    row.set(0, Value.of(payloadNaN));
    assertThat(row.bits(0)).isEqualTo(0x7ff8_0000_0000_1234L);
  }

  @Test
  void boxesEveryKindBackToAnEqualValue() {
    Value[] values = {
      Value.of(7),
      Value.of(2.5),
      Value.of("x"),
      Value.TRUE,
      Value.FALSE,
      Value.UNIT,
      Value.list(Value.of(1)),
      Value.map("k", Value.of(1)),
      Value.DEFERRED,
      Value.NOVAL
    };
    Row row = new Row(values.length);
    for (int i = 0; i < values.length; i++) {
      row.set(i, values[i]);
    }
    for (int i = 0; i < values.length; i++) {
      assertThat(row.get(i)).isEqualTo(values[i]);
      assertThat(row.kind(i)).isEqualTo(values[i].kind());
    }
    assertThat(row.isPresent(8)).as("Deferred is not present").isFalse();
    assertThat(row.isPresent(5)).as("Unit is present").isTrue();
  }

  @Test
  void setsASlotFromRawParts() {
    Row row = new Row(1);
    row.setRaw(0, Kind.FLOAT, Double.doubleToRawLongBits(1.25), null);
    assertThat(row.get(0)).isEqualTo(Value.of(1.25));
  }

  @Test
  void dropsTheReferenceWhenASlotIsOverwrittenWithAScalar() {
    Row row = new Row(1);
    row.setStr(0, "big");
    row.setInt(0, 3);
    assertThat(row.ref(0)).isNull();
    row.set(0, Value.list());
    row.setNoVal(0);
    assertThat(row.ref(0)).isNull();
    assertThat(row.get(0)).isSameAs(Value.NOVAL);
  }

  @Test
  void clearSetsEverySlotToNoVal() {
    Row row = new Row(2);
    row.setStr(0, "a");
    row.set(1, Value.DEFERRED);
    row.clear();
    assertThat(row.get(0)).isSameAs(Value.NOVAL);
    assertThat(row.get(1)).isSameAs(Value.NOVAL);
    assertThat(row.ref(0)).isNull();
  }

  @Test
  void rejectsReadingASlotAsTheWrongKind() {
    Row row = new Row(2);
    row.setFloat(0, 1.0);
    assertThatThrownBy(() -> row.getInt(0))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("slot 0 holds Float, not Int");
    assertThatThrownBy(() -> row.getBool(1))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("slot 1 holds NoVal, not Bool");
    assertThatThrownBy(() -> row.getFloat(1)).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void copiesEverySlotOfAnotherRow() {
    Row source = new Row(3);
    source.setInt(0, 1);
    source.setStr(1, "b");
    Row target = new Row(3);
    target.setBool(2, true);
    target.copyFrom(source);
    assertThat(target).hasToString("Row[Int(1), Str(\"b\"), NoVal]");
    source.setInt(0, 2);
    assertThat(target.getInt(0)).as("a copy, not a view").isEqualTo(1);
  }

  @Test
  void rejectsCopyingARowOfAnotherWidth() {
    Row target = new Row(2);
    assertThatThrownBy(() -> target.copyFrom(new Row(3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cannot copy a row of width 3 into a row of width 2");
    assertThatThrownBy(() -> target.copyFrom(new Row(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rendersItsValuesInSlotOrder() {
    Row row = new Row(3);
    row.setFloat(0, 1e16);
    row.set(2, Value.DEFERRED);
    assertThat(row).hasToString("Row[Float(1e16), NoVal, Deferred]");
    assertThat(new Row(0)).hasToString("Row[]");
  }
}
