package io.dataflow.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ValueFormat#CODE_POINT_ORDER} orders strings by code point, not by UTF-16 unit. */
class CodePointOrderTest {
  private static final String GRINNING = "\uD83D\uDE00"; // U+1F600
  private static final String ROCKET = "\uD83D\uDE80"; // U+1F680
  private static final String CLEF = "\uD834\uDD1E"; // U+1D11E

  @Test
  void ordersSupplementaryCharactersAfterEveryBmpCharacter() {
    assertThat(ValueFormat.compareCodePoints(GRINNING, "\uFFFF")).isPositive();
    assertThat(ValueFormat.compareCodePoints("\uFFFF", GRINNING)).isNegative();
    assertThat(ValueFormat.compareCodePoints(GRINNING, "\uE000")).isPositive();
    assertThat(ValueFormat.compareCodePoints("a", GRINNING)).isNegative();
  }

  @Test
  void ordersSupplementaryCharactersAmongThemselvesByCodePoint() {
    assertThat(ValueFormat.compareCodePoints(CLEF, GRINNING)).isNegative();
    assertThat(ValueFormat.compareCodePoints(GRINNING, ROCKET)).isNegative();
  }

  @Test
  void ordersAPrefixFirstAndEqualStringsEqual() {
    assertThat(ValueFormat.compareCodePoints("ab", "abc")).isNegative();
    assertThat(ValueFormat.compareCodePoints("abc", "ab")).isPositive();
    assertThat(ValueFormat.compareCodePoints(GRINNING + "x", GRINNING + "x")).isZero();
    assertThat(ValueFormat.compareCodePoints("", "")).isZero();
  }

  @Test
  void sortsLikeComparingCodePointArrays() {
    List<String> strings =
        new ArrayList<>(List.of("b", "\uFFFF", GRINNING, "a" + ROCKET, "a\uFFFF", "", CLEF, "A"));
    strings.sort(ValueFormat.CODE_POINT_ORDER);
    assertThat(strings)
        .containsExactly("", "A", "a\uFFFF", "a" + ROCKET, "b", "\uFFFF", CLEF, GRINNING);
  }
}
