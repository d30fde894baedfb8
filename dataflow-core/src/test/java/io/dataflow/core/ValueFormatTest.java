package io.dataflow.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Float rendering of docs/language.md#text-output: Rust's {@code {:?}}. Every expected string below
 * was printed by {@code rustc} ({@code format!("{:?}", x)}), the reference the language follows.
 */
class ValueFormatTest {

  @ParameterizedTest(name = "{0} prints {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "1.0      | Float(1.0)",
        "26.25    | Float(26.25)",
        "0.001    | Float(0.001)",
        "1e16     | Float(1e16)",
        "1.5e20   | Float(1.5e20)",
        "2.5e-7   | Float(2.5e-7)",
        "0.5      | Float(0.5)",
        "-1.5     | Float(-1.5)",
        "100      | Float(100.0)",
        "1e7      | Float(10000000.0)",
        "0.0      | Float(0.0)",
      })
  void printsTheLanguageExamples(double value, String expected) {
    assertThat(Value.of(value).toString()).isEqualTo(expected);
  }

  @Test
  void printsNonFiniteValuesAsRustDoes() {
    assertThat(Value.of(Double.POSITIVE_INFINITY)).hasToString("Float(inf)");
    assertThat(Value.of(Double.NEGATIVE_INFINITY)).hasToString("Float(-inf)");
    assertThat(Value.of(Double.NaN)).hasToString("Float(NaN)");
  }

  @Test
  void printsNaNWithoutSignWhateverItsBits() {
    double negativeNaN = Double.longBitsToDouble(0xfff8_0000_0000_0001L);
    assertThat(ValueFormat.formatFloat(negativeNaN)).isEqualTo("NaN");
  }

  @Test
  void keepsTheSignOfNegativeZero() {
    assertThat(Value.of(-0.0)).hasToString("Float(-0.0)");
    assertThat(Value.of(0.0)).hasToString("Float(0.0)");
  }

  @Test
  void printsOneTenThousandthPlainAndAnythingSmallerInExponentForm() {
    assertThat(ValueFormat.formatFloat(1e-4)).isEqualTo("0.0001");
    assertThat(ValueFormat.formatFloat(9.999e-5)).isEqualTo("9.999e-5");
    assertThat(ValueFormat.formatFloat(Math.nextUp(1e-4))).isEqualTo("0.00010000000000000002");
    assertThat(ValueFormat.formatFloat(Math.nextDown(1e-4))).isEqualTo("9.999999999999999e-5");
    assertThat(ValueFormat.formatFloat(1e-5)).isEqualTo("1e-5");
  }

  @Test
  void printsTenToTheSixteenInExponentFormAndAnythingSmallerPlain() {
    assertThat(ValueFormat.formatFloat(1e16)).isEqualTo("1e16");
    assertThat(ValueFormat.formatFloat(9999999999999998.0)).isEqualTo("9999999999999998.0");
    assertThat(ValueFormat.formatFloat(1e15)).isEqualTo("1000000000000000.0");
    assertThat(ValueFormat.formatFloat(-1e16)).isEqualTo("-1e16");
  }

  @ParameterizedTest(name = "2^{0} prints {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "53    | 9007199254740992.0",
        "54    | 1.8014398509481984e16",
        "-13   | 0.0001220703125",
        "-14   | 6.103515625e-5",
        "-20   | 9.5367431640625e-7",
        "60    | 1.152921504606847e18",
        "10    | 1024.0",
        "-2    | 0.25",
        "1023  | 8.98846567431158e307",
        "-1022 | 2.2250738585072014e-308",
        "-1074 | 5e-324",
      })
  void printsPowersOfTwoNearTheBoundaries(int exponent, String expected) {
    assertThat(ValueFormat.formatFloat(Math.scalb(1.0, exponent))).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} prints {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        // JDK 17's Double.toString prints 9.999999999999999E22, 1.9999999999999998E23, ...
        "1e23                   | 1e23",
        "2e23                   | 2e23",
        "8.41e21                | 8.41e21",
        "2.82879384806159E17    | 2.82879384806159e17",
        "1.387364135037754E18   | 1.387364135037754e18",
        "1.45800632428665E17    | 1.45800632428665e17",
        "1.9400994884341945E25  | 1.9400994884341945e25",
        "5.684341886080802E-14  | 5.684341886080802e-14",
        "4.8726570057E288       | 4.8726570057e288",
        "2e-3                   | 0.002",
        // JDK 17 prints 1.0E-323; JDK 25 (two digits at least) prints 9.9E-323 for 1e-322.
        "9.9E-324               | 1e-323",
        "1.0E-322               | 1e-322",
        "5e-310                 | 5e-310",
      })
  void printsTheShortestDigitsWhereJdk17DoesNot(double value, String expected) {
    assertThat(ValueFormat.formatFloat(value)).isEqualTo(expected);
  }

  @Test
  void printsTheClassicSumWithAllSeventeenDigits() {
    assertThat(Value.of(0.1 + 0.2)).hasToString("Float(0.30000000000000004)");
    assertThat(Value.of(0.3)).hasToString("Float(0.3)");
    assertThat(Value.of(2.0 / 3.0)).hasToString("Float(0.6666666666666666)");
  }

  @Test
  void printsTheExtremesOfTheDoubleRange() {
    assertThat(Value.of(Double.MIN_VALUE)).hasToString("Float(5e-324)");
    assertThat(Value.of(Double.MAX_VALUE)).hasToString("Float(1.7976931348623157e308)");
    assertThat(Value.of(-Double.MAX_VALUE)).hasToString("Float(-1.7976931348623157e308)");
    assertThat(Value.of(Double.MIN_NORMAL)).hasToString("Float(2.2250738585072014e-308)");
    assertThat(Value.of(Math.nextDown(Double.MIN_NORMAL)))
        .hasToString("Float(2.225073858507201e-308)");
  }

  /**
   * When two candidates with the fewest digits are equally close to the double, Rust takes the
   * upper one (JDK 25's {@code Double.toString} takes the even one and would print ...312.2).
   */
  @ParameterizedTest(name = "{0} prints {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "562949953421312.25   | 562949953421312.3",
        "-562949953421312.25  | -562949953421312.3",
        "2733763488801.53125  | 2733763488801.5313",
        "140737488355328.125  | 140737488355328.13",
        "999999999999993.25   | 999999999999993.3",
      })
  void breaksTiesBetweenShortestCandidatesUpwards(double value, String expected) {
    assertThat(ValueFormat.formatFloat(value)).isEqualTo(expected);
  }
}
