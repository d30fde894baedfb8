package io.dataflow.io.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** The lenient JSON5 reader: one object, with the JSON5 conveniences requests use. */
class Json5Test {

  private static String parse(String text) throws Json5.SyntaxError {
    return Json5.parseObject(text).toString();
  }

  @Test
  void readsPlainJson() throws Exception {
    assertThat(parse("{\"a\": 1, \"b\": [true, null, \"s\"]}"))
        .isEqualTo("{\"a\":1,\"b\":[true,null,\"s\"]}");
  }

  @Test
  void acceptsLineAndBlockComments() throws Exception {
    assertThat(parse("// first\n{a: /* inline */ 1, // end of line\n b: 2}\n// after"))
        .isEqualTo("{\"a\":1,\"b\":2}");
  }

  @Test
  void acceptsSingleQuotedStringsAndKeys() throws Exception {
    assertThat(parse("{'a': 'it\\'s', b: 'say \"hi\"'}"))
        .isEqualTo("{\"a\":\"it's\",\"b\":\"say \\\"hi\\\"\"}");
  }

  @Test
  void acceptsUnquotedKeysIncludingDollarAndUnderscore() throws Exception {
    assertThat(parse("{specification: 'in x', _x1: 1, $map: {}}"))
        .isEqualTo("{\"specification\":\"in x\",\"_x1\":1,\"$map\":{}}");
  }

  @Test
  void acceptsTrailingCommasInObjectsAndArrays() throws Exception {
    assertThat(parse("{a: [1, 2,], b: {c: 3,},}")).isEqualTo("{\"a\":[1,2],\"b\":{\"c\":3}}");
  }

  @Test
  void acceptsJson5Numbers() throws Exception {
    JsonNode n = Json5.parseObject("{a: +1, b: .5, c: 5., d: NaN, e: Infinity, f: -Infinity}");
    assertThat(n.get("a").asLong()).isEqualTo(1);
    assertThat(n.get("b").asDouble()).isEqualTo(0.5);
    assertThat(n.get("c").asDouble()).isEqualTo(5.0);
    assertThat(n.get("d").asDouble()).isNaN();
    assertThat(n.get("e").asDouble()).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(n.get("f").asDouble()).isEqualTo(Double.NEGATIVE_INFINITY);
  }

  @Test
  void acceptsAnEscapeOfAnyCharacter() throws Exception {
    assertThat(Json5.parseObject("{a: '\\q'}").get("a").asText()).isEqualTo("q");
  }

  @Test
  void rejectsEmptyText() {
    assertThatThrownBy(() -> Json5.parseObject(""))
        .isInstanceOfSatisfying(Json5.SyntaxError.class, e -> assertThat(e.column()).isEqualTo(1))
        .hasMessage("expected a JSON object, found nothing");
    assertThatThrownBy(() -> Json5.parseObject("  // only a comment"))
        .isInstanceOf(Json5.SyntaxError.class)
        .hasMessage("expected a JSON object, found nothing");
  }

  @Test
  void rejectsAValueThatIsNotAnObject() {
    assertThatThrownBy(() -> Json5.parseObject("[1]"))
        .hasMessage("expected a JSON object, found array");
    assertThatThrownBy(() -> Json5.parseObject("1"))
        .hasMessage("expected a JSON object, found number");
    assertThatThrownBy(() -> Json5.parseObject("'s'"))
        .hasMessage("expected a JSON object, found string");
    assertThatThrownBy(() -> Json5.parseObject("null"))
        .hasMessage("expected a JSON object, found null");
  }

  @Test
  void rejectsAnUnclosedObjectAtTheEndWithoutParserInternalsInTheMessage() {
    assertThatThrownBy(() -> Json5.parseObject("{a: 1"))
        .isInstanceOfSatisfying(Json5.SyntaxError.class, e -> assertThat(e.column()).isEqualTo(6))
        .hasMessage("Unexpected end-of-input: expected close marker for Object");
  }

  @Test
  void rejectsTextAfterTheObject() {
    assertThatThrownBy(() -> Json5.parseObject("{a: 1} {b: 2}"))
        .isInstanceOfSatisfying(Json5.SyntaxError.class, e -> assertThat(e.column()).isEqualTo(8))
        .hasMessageStartingWith("Trailing token (of type START_OBJECT) found after value");
    assertThatThrownBy(() -> Json5.parseObject("{a: 1}}"))
        .isInstanceOfSatisfying(Json5.SyntaxError.class, e -> assertThat(e.column()).isEqualTo(7))
        .hasMessage("Unexpected close marker '}': no open Object to close");
  }

  @Test
  void rejectsAMissingValueAtItsColumn() {
    assertThatThrownBy(() -> Json5.parseObject("{a: }"))
        .isInstanceOfSatisfying(Json5.SyntaxError.class, e -> assertThat(e.column()).isEqualTo(5))
        .hasMessageStartingWith("Unexpected character ('}' (code 125)): expected a valid value");
  }

  @Test
  void rejectsWhatJson5DoesNotHave() {
    assertThatThrownBy(() -> Json5.parseObject("{a: # yaml comment\n1}"))
        .isInstanceOfSatisfying(Json5.SyntaxError.class, e -> assertThat(e.column()).isEqualTo(5));
    assertThatThrownBy(() -> Json5.parseObject("{a: 01}"))
        .isInstanceOf(Json5.SyntaxError.class)
        .hasMessageContaining("Leading zeroes not allowed");
  }
}
