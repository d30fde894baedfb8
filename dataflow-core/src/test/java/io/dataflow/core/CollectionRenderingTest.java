package io.dataflow.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Lists and maps print as in docs/language.md#text-output, map keys in code point order. */
class CollectionRenderingTest {

  @Test
  void printsAListOfValues() {
    assertThat(Value.list(Value.of(1), Value.of(2))).hasToString("List([Int(1), Int(2)])");
  }

  @Test
  void printsAMapOfValues() {
    assertThat(Value.map("a", Value.of(1), "b", Value.of("x")))
        .hasToString("Map({\"a\": Int(1), \"b\": Str(\"x\")})");
  }

  @Test
  void printsEmptyCollections() {
    assertThat(Value.list()).hasToString("List([])");
    assertThat(Value.map()).hasToString("Map({})");
  }

  @Test
  void printsNestedCollectionsAndEveryScalarInside() {
    Value v =
        Value.list(
            Value.list(),
            Value.map("k", Value.list(Value.of(1.5), Value.TRUE)),
            Value.UNIT,
            Value.of("q\""));
    assertThat(v)
        .hasToString(
            "List([List([]), Map({\"k\": List([Float(1.5), Bool(true)])}), Unit,"
                + " Str(\"q\\\"\")])");
    assertThat(ValueFormat.format(v)).isEqualTo(v.toString());
  }

  @Test
  void quotesMapKeysWithEscapes() {
    assertThat(Value.map("a\"b\n", Value.of(0))).hasToString("Map({\"a\\\"b\\n\": Int(0)})");
  }

  @Test
  void sortsMapKeysByCodePointWhateverTheInsertionOrder() {
    assertThat(Value.map("b", Value.of(2), "a", Value.of(1), "B", Value.of(3), "", Value.of(0)))
        .hasToString("Map({\"\": Int(0), \"B\": Int(3), \"a\": Int(1), \"b\": Int(2)})");
  }

  @Test
  void sortsASupplementaryCharacterKeyAfterTheLastBmpCharacter() {
    String emoji = "\uD83D\uDE00"; // U+1F600, UTF-16 D83D DE00 (below U+FFFF as units)
    String lastBmp = "\uFFFF";
    String privateUse = "\uE000";
    assertThat(Value.map(emoji, Value.of(1), lastBmp, Value.of(2), privateUse, Value.of(3)))
        .hasToString("Map({\"\uE000\": Int(3), \"\uFFFF\": Int(2), \"" + emoji + "\": Int(1)})");
  }

  @Test
  void resortsAMapBuiltFromAMapInUtf16Order() {
    TreeMap<String, Value> utf16Order = new TreeMap<>();
    utf16Order.put("\uD83D\uDE00", Value.of(1));
    utf16Order.put("\uFFFF", Value.of(2));
    Value.Map map = new Value.Map(utf16Order);
    assertThat(map.entries().keySet()).containsExactly("\uFFFF", "\uD83D\uDE00");
  }
}
