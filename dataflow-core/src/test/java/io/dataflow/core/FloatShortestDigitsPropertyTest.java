package io.dataflow.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeded property test of {@link ValueFormat#formatFloat}: for random doubles the printed digits
 * parse back to the same double, no decimal with fewer significant digits does, among the
 * candidates with the printed number of digits the closest one is printed (ties upwards, as Rust
 * does), and the notation follows the plain/exponent thresholds. A failure names its seed and the
 * bits of the double, so it can be replayed.
 */
class FloatShortestDigitsPropertyTest {
  private static final int SAMPLES_PER_SEED = 400;

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1L, 2L, 3L, 42L, 1234567L, 0x5DEECE66DL, -7L, 20240229L})
  void printsShortestRoundTrippingDigitsForRandomBitPatterns(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < SAMPLES_PER_SEED; i++) {
      checkDouble(seed, random.nextLong());
    }
  }

  /** Moderate magnitudes (2^-20 .. 2^60), where plain notation and digit ties are common. */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {5L, 6L, 77L, 31337L})
  void printsShortestRoundTrippingDigitsForModerateMagnitudes(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < SAMPLES_PER_SEED; i++) {
      long exponent = 1023 - 20 + random.nextInt(81);
      long mantissa = random.nextLong() & ((1L << 52) - 1);
      if (random.nextBoolean()) {
        mantissa &= -1L << random.nextInt(52); // few significant bits: exact decimal ties
      }
      long sign = random.nextBoolean() ? Long.MIN_VALUE : 0;
      checkDouble(seed, sign | exponent << 52 | mantissa);
    }
  }

  private static void checkDouble(long seed, long bits) {
    double d = Double.longBitsToDouble(bits);
    if (!Double.isFinite(d) || d == 0.0) {
      return;
    }
    String printed = ValueFormat.formatFloat(d);
    String context = "seed " + seed + ", bits 0x" + Long.toHexString(bits) + ", printed " + printed;

    assertThat(Double.doubleToRawLongBits(Double.parseDouble(printed)))
        .as("round trip; %s", context)
        .isEqualTo(bits);
    double abs = Math.abs(d);
    if (abs >= 1e16 || abs < 1e-4) {
      assertThat(printed)
          .as("exponent form; %s", context)
          .matches("-?[1-9](\\.[0-9]*[1-9])?e-?[1-9][0-9]*");
    } else {
      assertThat(printed)
          .as("plain form; %s", context)
          .matches("-?[0-9]+\\.[0-9]+")
          .doesNotContain("e");
    }

    BigDecimal exact = new BigDecimal(abs);
    BigDecimal shown = new BigDecimal(printed).abs();
    int digits = shown.stripTrailingZeros().precision();
    if (digits > 1) {
      for (RoundingMode mode : new RoundingMode[] {RoundingMode.DOWN, RoundingMode.UP}) {
        BigDecimal shorter = exact.round(new MathContext(digits - 1, mode));
        assertThat(shorter.doubleValue())
            .as("%s has %d digits and round-trips too; %s", shorter, digits - 1, context)
            .isNotEqualTo(abs);
      }
    }
    BigDecimal down = exact.round(new MathContext(digits, RoundingMode.DOWN));
    BigDecimal up = exact.round(new MathContext(digits, RoundingMode.UP));
    boolean downTrips = down.doubleValue() == abs;
    boolean upTrips = up.doubleValue() == abs;
    BigDecimal expected;
    if (downTrips && upTrips) {
      int cmp = exact.subtract(down).compareTo(up.subtract(exact));
      expected = cmp < 0 ? down : up; // ties upwards
    } else {
      expected = downTrips ? down : up;
    }
    assertThat(shown.compareTo(expected))
        .as("closest %d-digit candidate is %s; %s", digits, expected, context)
        .isZero();
  }
}
