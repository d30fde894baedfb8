package io.dataflow.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Strings print quoted, with the escapes of Rust's {@code {:?}}, always on one line. */
class StringQuotingTest {

  @Test
  void escapesQuoteBackslashNewlineAndTab() {
    assertThat(Value.of("a\"b\\c\nd\te")).hasToString("Str(\"a\\\"b\\\\c\\nd\\te\")");
  }

  @Test
  void printsPlainTextUnchanged() {
    assertThat(Value.of("idle")).hasToString("Str(\"idle\")");
    assertThat(Value.of("")).hasToString("Str(\"\")");
    assertThat(Value.of("it's")).hasToString("Str(\"it's\")");
  }

  @Test
  void keepsNonAsciiTextIncludingSupplementaryCharacters() {
    assertThat(ValueFormat.quote("\u00e9\u4e2d\uD83D\uDE00"))
        .isEqualTo("\"\u00e9\u4e2d\uD83D\uDE00\"");
  }

  @Test
  void escapesCarriageReturnNulAndOtherControlsLikeRust() {
    // format!("{:?}", "\r\0\x01\x1b\x7f") in Rust
    assertThat(ValueFormat.quote("\r\0\u0001\u001b\u007f"))
        .isEqualTo("\"\\r\\0\\u{1}\\u{1b}\\u{7f}\"");
  }
}
