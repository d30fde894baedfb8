package io.dataflow.io.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.dataflow.core.Value;
import java.io.IOException;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The JSON encoding of values: exact text, and a round trip for every kind. */
class JsonValuesTest {

  static String write(Value v) throws IOException {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
      JsonValues.write(g, v);
    }
    return out.toString();
  }

  static Value read(String json) throws IOException {
    return JsonValues.read(Json5.parseValue(json));
  }

  static Value[] everyKind() {
    return new Value[] {
      Value.of(0),
      Value.of(-3),
      Value.of(Long.MAX_VALUE),
      Value.of(Long.MIN_VALUE),
      Value.of(1.0),
      Value.of(-0.0),
      Value.of(0.1 + 0.2),
      Value.of(1e16),
      Value.of(1e23),
      Value.of(2.5e-7),
      Value.of(Double.MIN_VALUE),
      Value.of(Double.MAX_VALUE),
      Value.of(Double.NaN),
      Value.of(Double.POSITIVE_INFINITY),
      Value.of(Double.NEGATIVE_INFINITY),
      Value.of(""),
      Value.of("a\"b\\c\n\t\u0001 \uD83D\uDE00"),
      Value.of("$map"),
      Value.TRUE,
      Value.FALSE,
      Value.UNIT,
      Value.DEFERRED,
      Value.list(),
      Value.list(Value.of(1), Value.of(1.0), Value.list(Value.UNIT)),
      Value.map(),
      Value.map("b", Value.of(2), "a", Value.list()),
      Value.map("$deferred", Value.TRUE),
      Value.map("$map", Value.map("$float", Value.of("x"))),
      Value.map("\uD83D\uDE00", Value.of(1), "\uFFFF", Value.of(2)),
      Value.list(Value.map("$x", Value.of(Double.NaN)), Value.of(Double.NEGATIVE_INFINITY)),
    };
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("everyKind")
  void readsBackWhatItWrites(Value v) throws IOException {
    assertThat(read(write(v))).isEqualTo(v);
  }

  @Test
  void writesScalarsAsJsonScalars() throws IOException {
    assertThat(write(Value.of(3))).isEqualTo("3");
    assertThat(write(Value.of(-9223372036854775808L))).isEqualTo("-9223372036854775808");
    assertThat(write(Value.of("x\"\n"))).isEqualTo("\"x\\\"\\n\"");
    assertThat(write(Value.TRUE)).isEqualTo("true");
    assertThat(write(Value.UNIT)).isEqualTo("null");
  }

  @Test
  void writesFloatsWithAFractionOrExponentInTheTextDigits() throws IOException {
    assertThat(write(Value.of(1.0))).isEqualTo("1.0");
    assertThat(write(Value.of(-0.0))).isEqualTo("-0.0");
    assertThat(write(Value.of(1e16))).isEqualTo("1e16");
    assertThat(write(Value.of(1e23))).isEqualTo("1e23");
    assertThat(write(Value.of(2.5e-7))).isEqualTo("2.5e-7");
    assertThat(write(Value.of(0.1 + 0.2))).isEqualTo("0.30000000000000004");
  }

  @Test
  void writesNonFiniteFloatsAsTaggedStrings() throws IOException {
    assertThat(write(Value.of(Double.NaN))).isEqualTo("{\"$float\":\"NaN\"}");
    assertThat(write(Value.of(Double.POSITIVE_INFINITY))).isEqualTo("{\"$float\":\"inf\"}");
    assertThat(write(Value.of(Double.NEGATIVE_INFINITY))).isEqualTo("{\"$float\":\"-inf\"}");
  }

  @Test
  void writesCollectionsWithMapKeysInCodePointOrder() throws IOException {
    assertThat(write(Value.list(Value.of(1), Value.list()))).isEqualTo("[1,[]]");
    assertThat(
            write(Value.map("b", Value.of(1), "\uD83D\uDE00", Value.UNIT, "\uFFFF", Value.FALSE)))
        .isEqualTo("{\"b\":1,\"\uFFFF\":false,\"\uD83D\uDE00\":null}");
    assertThat(write(Value.map())).isEqualTo("{}");
  }

  @Test
  void wrapsAMapWithADollarKey() throws IOException {
    assertThat(write(Value.map("$a", Value.of(1), "b", Value.of(2))))
        .isEqualTo("{\"$map\":{\"$a\":1,\"b\":2}}");
    assertThat(write(Value.map("a$", Value.of(1)))).isEqualTo("{\"a$\":1}");
  }

  @Test
  void writesDeferredAsATag() throws IOException {
    assertThat(write(Value.DEFERRED)).isEqualTo("{\"$deferred\":true}");
  }

  @Test
  void refusesToWriteNoVal() {
    assertThatThrownBy(() -> write(Value.NOVAL))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cannot encode NoVal");
  }

  @Test
  void readsIntegersAsIntsAndOtherNumbersAsFloats() throws IOException {
    assertThat(read("7")).isEqualTo(Value.of(7));
    assertThat(read("7.0")).isEqualTo(Value.of(7.0));
    assertThat(read("7e0")).isEqualTo(Value.of(7.0));
    assertThat(read("-0")).isEqualTo(Value.of(0));
    assertThat(read("1e400")).isEqualTo(Value.of(Double.POSITIVE_INFINITY));
  }

  @Test
  void readsJson5NonFiniteNumbersAndTaggedFloats() throws IOException {
    assertThat(read("NaN")).isEqualTo(Value.of(Double.NaN));
    assertThat(read("-Infinity")).isEqualTo(Value.of(Double.NEGATIVE_INFINITY));
    assertThat(read("{'$float': '-inf'}")).isEqualTo(Value.of(Double.NEGATIVE_INFINITY));
    assertThat(read("{$float: '2.5'}")).isEqualTo(Value.of(2.5));
  }

  @Test
  void readsNullAsUnit() throws IOException {
    assertThat(read("null")).isSameAs(Value.UNIT);
    assertThat(read("{a: null}")).isEqualTo(Value.map("a", Value.UNIT));
  }

  @Test
  void rejectsAnIntegerOutOfRange() {
    assertThatThrownBy(() -> read("9223372036854775808"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("integer out of range: 9223372036854775808");
    assertThatThrownBy(() -> read("-9223372036854775809"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("integer out of range: -9223372036854775809");
  }

  @Test
  void rejectsUnknownTagsAndMalformedTaggedValues() {
    assertThatThrownBy(() -> read("{\"$set\": [1]}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown tag $set");
    assertThatThrownBy(() -> read("{\"$map\": [1]}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("$map needs an object");
    assertThatThrownBy(() -> read("{\"$float\": \"nan\"}"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void rejectsDeferredInsideACollection() {
    assertThatThrownBy(() -> read("[1, {\"$deferred\": true}]"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a list cannot hold Deferred");
    assertThatThrownBy(() -> read("{\"a\": {\"$deferred\": true}}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a map cannot hold Deferred");
  }
}
