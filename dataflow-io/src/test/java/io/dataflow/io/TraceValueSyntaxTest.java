package io.dataflow.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Every value syntax of trace files (docs/io.md#trace-files), as read from a trace line. */
class TraceValueSyntaxTest {

  private static Value read(String valueText) {
    return TraceRun.of("0: v = " + valueText + "\n").onlyTickValues().get("v");
  }

  @ParameterizedTest(name = "{0} reads as {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "0                     | Int(0)",
        "42                    | Int(42)",
        "-7                    | Int(-7)",
        "+5                    | Int(5)",
        "007                   | Int(7)",
        "9223372036854775807   | Int(9223372036854775807)",
        "-9223372036854775808  | Int(-9223372036854775808)",
      })
  void readsIntegers(String text, String expected) {
    assertThat(read(text)).hasToString(expected);
  }

  @ParameterizedTest(name = "{0} reads as {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "1.0       | Float(1.0)",
        "1.5       | Float(1.5)",
        "-0.25     | Float(-0.25)",
        "-0.0      | Float(-0.0)",
        "1e6       | Float(1000000.0)",
        "1E6       | Float(1000000.0)",
        "2e+3      | Float(2000.0)",
        "1.5e-3    | Float(0.0015)",
        "-2.5e-7   | Float(-2.5e-7)",
        "1e400     | Float(inf)",
        "inf       | Float(inf)",
        "-inf      | Float(-inf)",
        "+inf      | Float(inf)",
        "NaN       | Float(NaN)",
      })
  void readsFloatsWithAPointOrAnExponent(String text, String expected) {
    assertThat(read(text)).hasToString(expected);
  }

  @Test
  void readsANumberWithoutPointOrExponentAsAnInt() {
    assertThat(read("1")).isEqualTo(Value.of(1));
    assertThat(read("1.0")).isEqualTo(Value.of(1.0));
  }

  @Test
  void readsStringsWithEveryEscape() {
    assertThat(read("\"a\\\"b\\\\c\\nd\\te\\'f\"")).isEqualTo(Value.of("a\"b\\c\nd\te'f"));
    assertThat(read("\"\"")).isEqualTo(Value.of(""));
    assertThat(read("\"caf\u00e9 \uD83D\uDE00 // not a comment\""))
        .isEqualTo(Value.of("caf\u00e9 \uD83D\uDE00 // not a comment"));
  }

  @Test
  void readsBooleansAndUnit() {
    assertThat(read("true")).isSameAs(Value.TRUE);
    assertThat(read("false")).isSameAs(Value.FALSE);
    assertThat(read("()")).isSameAs(Value.UNIT);
    assertThat(read("( )")).isSameAs(Value.UNIT);
  }

  @Test
  void readsListsInBothSpellings() {
    Value expected = Value.list(Value.of(1), Value.of(2));
    assertThat(read("List(1, 2)")).isEqualTo(expected);
    assertThat(read("[1, 2]")).isEqualTo(expected);
    assertThat(read("[ 1 ,2 ]")).isEqualTo(expected);
    assertThat(read("List (1,2)")).isEqualTo(expected);
    assertThat(read("[]")).isEqualTo(Value.list());
    assertThat(read("List()")).isEqualTo(Value.list());
  }

  @Test
  void readsMapsInBothSpellingsWithKeysInCodePointOrder() {
    Value expected = Value.map("k", Value.of(1));
    assertThat(read("Map(\"k\": 1)")).isEqualTo(expected);
    assertThat(read("{\"k\": 1}")).isEqualTo(expected);
    assertThat(read("{ \"k\" :1 }")).isEqualTo(expected);
    assertThat(read("{}")).isEqualTo(Value.map());
    assertThat(read("Map()")).isEqualTo(Value.map());
    assertThat(read("{\"b\": 2, \"\uD83D\uDE00\": 3, \"\uFFFF\": 4, \"a\": 1}"))
        .hasToString(
            "Map({\"a\": Int(1), \"b\": Int(2), \"\uFFFF\": Int(4), \"\uD83D\uDE00\": Int(3)})");
  }

  @Test
  void letsTheLastOfDuplicateMapKeysWin() {
    assertThat(read("{\"k\": 1, \"k\": 2}")).isEqualTo(Value.map("k", Value.of(2)));
  }

  @Test
  void readsMapKeysWithEscapes() {
    assertThat(read("{\"a\\\"b\": 1}")).isEqualTo(Value.map("a\"b", Value.of(1)));
  }

  @Test
  void readsNestedCollectionsOfEveryKind() {
    assertThat(read("[[1, [2.5]], {\"a\": List(\"s\", true)}, Map(\"u\": ()), -3]"))
        .hasToString(
            "List([List([Int(1), List([Float(2.5)])]), Map({\"a\": List([Str(\"s\"),"
                + " Bool(true)])}), Map({\"u\": Unit}), Int(-3)])");
  }

  @Test
  void acceptsATrailingCommaInCollections() {
    assertThat(read("[1, 2,]")).isEqualTo(Value.list(Value.of(1), Value.of(2)));
    assertThat(read("{\"k\": 1,}")).isEqualTo(Value.map("k", Value.of(1)));
  }

  @Test
  void acceptsTabsAndACommentAfterAValue() {
    assertThat(read("\t[1]\t// c")).isEqualTo(Value.list(Value.of(1)));
    assertThat(read("\"x\"//c")).isEqualTo(Value.of("x"));
  }
}
