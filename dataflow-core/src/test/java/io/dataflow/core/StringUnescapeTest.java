package io.dataflow.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Literal bodies decode the escapes {@code \n \t \" \\ \'}; a bad escape names its offset. */
class StringUnescapeTest {

  @Test
  void decodesEveryEscapeOfTheLanguage() {
    assertThat(ValueFormat.unescape("a\\nb\\tc\\\"d\\\\e\\'f")).isEqualTo("a\nb\tc\"d\\e'f");
  }

  @Test
  void returnsABodyWithoutEscapesUnchanged() {
    assertThat(ValueFormat.unescape("plain text")).isEqualTo("plain text");
    assertThat(ValueFormat.unescape("")).isEmpty();
  }

  @Test
  void keepsTextAroundEscapes() {
    assertThat(ValueFormat.unescape("\\n")).isEqualTo("\n");
    assertThat(ValueFormat.unescape("ab\\\\")).isEqualTo("ab\\");
  }

  @Test
  void rejectsAnUnknownEscapeAtTheOffsetOfItsBackslash() {
    assertThatThrownBy(() -> ValueFormat.unescape("ab\\qc"))
        .isInstanceOfSatisfying(
            ValueFormat.BadEscapeException.class, e -> assertThat(e.offset()).isEqualTo(2))
        .hasMessage("unknown escape '\\q'");
  }

  @Test
  void rejectsEscapesTheLanguageDoesNotHave() {
    assertThatThrownBy(() -> ValueFormat.unescape("\\r"))
        .isInstanceOfSatisfying(
            ValueFormat.BadEscapeException.class, e -> assertThat(e.offset()).isZero())
        .hasMessage("unknown escape '\\r'");
    assertThatThrownBy(() -> ValueFormat.unescape("x\\u0041"))
        .isInstanceOfSatisfying(
            ValueFormat.BadEscapeException.class, e -> assertThat(e.offset()).isEqualTo(1));
  }

  @Test
  void rejectsABackslashAtTheEndOfTheBody() {
    assertThatThrownBy(() -> ValueFormat.unescape("abc\\"))
        .isInstanceOfSatisfying(
            ValueFormat.BadEscapeException.class, e -> assertThat(e.offset()).isEqualTo(3))
        .hasMessage("unterminated escape");
  }

  @Test
  void reportsTheFirstBadEscapeAfterGoodOnes() {
    assertThatThrownBy(() -> ValueFormat.unescape("\\n\\t\\x"))
        .isInstanceOfSatisfying(
            ValueFormat.BadEscapeException.class, e -> assertThat(e.offset()).isEqualTo(4));
  }
}
