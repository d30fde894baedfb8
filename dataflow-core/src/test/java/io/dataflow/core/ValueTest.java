package io.dataflow.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Boxed values: kinds, presence, value equality, immutability and the scalar renderings. */
class ValueTest {

  @Test
  void namesEveryKindAsTheLanguageSpellsIt() {
    assertThat(Value.of(1).typeName()).isEqualTo("Int");
    assertThat(Value.of(1.0).typeName()).isEqualTo("Float");
    assertThat(Value.of("").typeName()).isEqualTo("Str");
    assertThat(Value.TRUE.typeName()).isEqualTo("Bool");
    assertThat(Value.UNIT.typeName()).isEqualTo("Unit");
    assertThat(Value.list().typeName()).isEqualTo("List");
    assertThat(Value.map().typeName()).isEqualTo("Map");
    assertThat(Value.NOVAL.typeName()).isEqualTo("NoVal");
    assertThat(Value.DEFERRED.typeName()).isEqualTo("Deferred");
    assertThat(Kind.name(Kind.FUNCTION)).isEqualTo("Function");
    assertThatThrownBy(() -> Kind.name((byte) 42)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void treatsOnlyNoValAndDeferredAsAbsent() {
    assertThat(Value.NOVAL.isPresent()).isFalse();
    assertThat(Value.DEFERRED.isPresent()).isFalse();
    assertThat(Value.UNIT.isPresent()).isTrue();
    assertThat(Value.FALSE.isPresent()).isTrue();
    assertThat(Value.list().isPresent()).isTrue();
  }

  @Test
  void rendersScalarsAndMarkers() {
    assertThat(Value.of(3)).hasToString("Int(3)");
    assertThat(Value.of(-9223372036854775808L)).hasToString("Int(-9223372036854775808)");
    assertThat(Value.TRUE).hasToString("Bool(true)");
    assertThat(Value.of(false)).hasToString("Bool(false)");
    assertThat(Value.UNIT).hasToString("Unit");
    assertThat(Value.DEFERRED).hasToString("Deferred");
    assertThat(Value.NOVAL).hasToString("NoVal");
    assertThat(Value.of("idle")).hasToString("Str(\"idle\")");
  }

  @Test
  void comparesFloatsByValueWithNaNEqualToItselfAndSignedZerosDistinct() {
    assertThat(Value.of(Double.NaN)).isEqualTo(Value.of(Double.NaN));
    assertThat(Value.of(0.0)).isNotEqualTo(Value.of(-0.0));
    assertThat(Value.of(1)).isNotEqualTo(Value.of(1.0));
  }

  @Test
  void comparesCollectionsStructurally() {
    assertThat(Value.list(Value.of(1), Value.of("a")))
        .isEqualTo(Value.list(Value.of(1), Value.of("a")));
    assertThat(Value.map("b", Value.of(1), "a", Value.of(2)))
        .isEqualTo(Value.map("a", Value.of(2), "b", Value.of(1)));
  }

  @Test
  void copiesTheElementsOfAList() {
    List<Value> source = new ArrayList<>(List.of(Value.of(1)));
    Value.List list = new Value.List(source);
    source.add(Value.of(2));
    assertThat(list.elements()).containsExactly(Value.of(1));
    assertThat(list.append(Value.of(3)).elements()).containsExactly(Value.of(1), Value.of(3));
    assertThat(list.elements()).as("append returns a new list").containsExactly(Value.of(1));
  }

  @Test
  void rejectsAMapWithAnOddNumberOfArguments() {
    assertThatThrownBy(() -> Value.map("a"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("map needs key/value pairs");
  }

  @Test
  void rejectsNullStringsAndMapValues() {
    assertThatThrownBy(() -> Value.of((String) null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> Value.map("a", null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void boxesRawPartsOfEveryRowKind() {
    assertThat(Kind.box(Kind.INT, 5, null)).isEqualTo(Value.of(5));
    assertThat(Kind.box(Kind.BOOL, 0, null)).isSameAs(Value.FALSE);
    assertThat(Kind.box(Kind.UNIT, 0, null)).isSameAs(Value.UNIT);
    assertThat(Kind.box(Kind.STR, 0, "s")).isEqualTo(Value.of("s"));
    assertThatThrownBy(() -> Kind.box(Kind.FUNCTION, 0, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cannot box kind Function");
  }
}
