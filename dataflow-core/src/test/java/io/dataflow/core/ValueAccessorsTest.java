package io.dataflow.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The typed accessors: each returns its own type's payload and refuses every other value. */
class ValueAccessorsTest {
  @Test
  void eachAccessorReturnsThePayloadOfItsType() {
    assertThat(Value.of(42).asLong()).isEqualTo(42L);
    assertThat(Value.of(-0.5).asDouble()).isEqualTo(-0.5);
    assertThat(Value.of("é").asString()).isEqualTo("é");
    assertThat(Value.of(true).asBoolean()).isTrue();
    assertThat(Value.list(Value.of(1), Value.of(2)).asList())
        .containsExactly(Value.of(1), Value.of(2));
    assertThat(Value.map("b", Value.of(2), "a", Value.of(1)).asMap())
        .containsExactly(java.util.Map.entry("a", Value.of(1)), java.util.Map.entry("b",
            Value.of(2)));
  }

  @Test
  void anAccessorOfAnotherTypeNamesWhatItExpectedAndWhatItGot() {
    assertThatThrownBy(() -> Value.of(0.5).asLong()).isInstanceOf(ValueTypeException.class)
        .hasMessage("expected an Int but the value is Float(0.5)");
    // Int is not widened to Float.
    assertThatThrownBy(() -> Value.of(1).asDouble())
        .hasMessage("expected a Float but the value is Int(1)");
    assertThatThrownBy(() -> Value.NOVAL.asBoolean())
        .hasMessage("expected a Bool but the value is NoVal");
    assertThatThrownBy(() -> Value.DEFERRED.asString())
        .hasMessage("expected a Str but the value is Deferred");
    assertThatThrownBy(() -> Value.of("x").asList()).isInstanceOf(DataflowException.class)
        .hasMessageStartingWith("expected a List");
    assertThatThrownBy(() -> Value.UNIT.asMap()).hasMessage("expected a Map but the value is Unit");
  }

  @Test
  void theListsTheAccessorsReturnAreImmutable() {
    List<Value> elements = Value.list(Value.of(1)).asList();
    assertThatThrownBy(() -> elements.add(Value.of(2)))
        .isInstanceOf(UnsupportedOperationException.class);
  }
}
