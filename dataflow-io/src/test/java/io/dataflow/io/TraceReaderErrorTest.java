package io.dataflow.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.SourceLocation;
import org.junit.jupiter.api.Test;

/**
 * Bad trace lines: one-line messages with {@code file:line:column}, and the streaming rule (every
 * complete tick before a bad line is returned before the error is thrown; a tick whose own
 * continuation line is bad is incomplete and dropped).
 */
class TraceReaderErrorTest {

  @Test
  void rejectsARepeatedTickWithItsLineAndColumn() {
    TraceRun run = TraceRun.of("0: x = 1\n1: x = 2\n1: x = 3\n");
    assertThat(run.ticks()).containsExactly("0: x=Int(1)", "1: x=Int(2)");
    assertThat(run.error)
        .hasMessage("trace.input:3:1: tick 1 is not greater than the previous tick 1");
    assertThat(run.error.location()).isEqualTo(new SourceLocation("trace.input", 3, 1));
    assertThat(run.error.reason()).isEqualTo("tick 1 is not greater than the previous tick 1");
  }

  @Test
  void rejectsADecreasingTickAfterReturningEveryTickBeforeIt() {
    TraceRun run = TraceRun.of("0: x = 1\n// c\n3: x = 2\n   y = 3\n  2: x = 3\n4: x = 4\n");
    assertThat(run.ticks()).containsExactly("0: x=Int(1)", "1:", "2:", "3: x=Int(2), y=Int(3)");
    assertThat(run.error)
        .hasMessage("trace.input:5:3: tick 2 is not greater than the previous tick 3");
  }

  @Test
  void reportsABadTickLineAfterTheTicksBeforeIt() {
    TraceRun run = TraceRun.of("0: x = 1\n1: x = ?\n2: x = 3\n");
    assertThat(run.ticks()).containsExactly("0: x=Int(1)");
    assertThat(run.error).hasMessage("trace.input:2:8: unexpected character '?'");
  }

  @Test
  void dropsTheIncompleteTickOfABadContinuationLine() {
    TraceRun run = TraceRun.of("0: x = 1\n1: x = 2\n   y = ?\n2: x = 3\n");
    assertThat(run.ticks()).containsExactly("0: x=Int(1)");
    assertThat(run.error).hasMessage("trace.input:3:8: unexpected character '?'");
  }

  @Test
  void reportsAnErrorOnTheFirstTickWithNoTicksBefore() {
    TraceRun run = TraceRun.of("0: x = [1,\n");
    assertThat(run.items).isEmpty();
    assertThat(run.error).hasMessage("trace.input:1:11: expected ']'");
  }

  @Test
  void returnsTheTicksBeforeAnUnknownDirective() {
    TraceRun run = TraceRun.of("0: x = 1\n   y = 2\n@pause now\n1: x = 2\n");
    assertThat(run.ticks()).containsExactly("0: x=Int(1), y=Int(2)");
    assertThat(run.error)
        .hasMessage("trace.input:3:1: unknown directive '@pause' (expected @reconfigure)");
  }

  @Test
  void rejectsValuesNestedTooDeeplyWithTheirPosition() {
    TraceRun run = TraceRun.of("0: x = 1\n1: x = " + "[".repeat(20_000) + "]".repeat(20_000)
        + "\n");
    assertThat(run.items).hasSize(1);
    assertThat(run.error).hasMessage("trace.input:2:264: value nested more than 256 levels deep");
    assertThat(TraceRun.of("0: x = " + "[".repeat(256) + "]".repeat(256) + "\n").error)
        .isNull();
  }

  @Test
  void rejectsABareAtSign() {
    assertThat(TraceRun.of("  @\n").error)
        .hasMessage("trace.input:1:3: unknown directive '@' (expected @reconfigure)");
  }

  @Test
  void rejectsAnAssignmentBeforeTheFirstTick() {
    TraceRun run = TraceRun.of("// c\n\n  x = 1\n0: x = 2\n");
    assertThat(run.items).isEmpty();
    assertThat(run.error)
        .hasMessage(
            "trace.input:3:3: assignment before the first tick"
                + " (start a tick with 'N: name = value')");
  }

  @Test
  void rejectsANegativeTickAfterReturningTheTicksBeforeIt() {
    TraceRun run = TraceRun.of("0: x = 1\n-1: x = 2\n");
    assertThat(run.ticks()).containsExactly("0: x=Int(1)");
    assertThat(run.error).hasMessage("trace.input:2:1: tick numbers are non-negative: -1");
  }

  @Test
  void rejectsATickNumberOutOfRange() {
    TraceRun run = TraceRun.of("0: x = 1\n99999999999999999999: x = 2\n");
    assertThat(run.ticks()).containsExactly("0: x=Int(1)");
    assertThat(run.error)
        .hasMessage("trace.input:2:1: tick number out of range: 99999999999999999999");
  }

  @Test
  void acceptsTheLargestTickNumber() {
    TraceReader reader =
        new TraceReader("t", new java.io.StringReader("9223372036854775807: x = 1\n"));
    assertThat(((TraceReader.Tick) reader.next()).number()).as("the first gap tick").isZero();
  }

  @Test
  void rejectsAnIntegerOutOfRange() {
    assertThat(TraceRun.of("0: x = 9223372036854775808\n").error)
        .hasMessage("trace.input:1:8: integer out of range: 9223372036854775808");
    assertThat(TraceRun.of("0: x = -9223372036854775809\n").error)
        .hasMessage("trace.input:1:8: integer out of range: -9223372036854775809");
  }

  @Test
  void rejectsAnAssignmentWithoutEqualsSignOrName() {
    assertThat(TraceRun.of("0: x\n").error).hasMessage("trace.input:1:5: expected '=' after 'x'");
    assertThat(TraceRun.of("0: x 1\n").error).hasMessage("trace.input:1:6: expected '=' after 'x'");
    assertThat(TraceRun.of("0: = 1\n").error)
        .hasMessage("trace.input:1:4: expected 'name = value'");
    assertThat(TraceRun.of("0: x =\n").error).hasMessage("trace.input:1:7: expected a value");
    assertThat(TraceRun.of("0: x = // c\n").error)
        .hasMessage("trace.input:1:8: unexpected character '/'");
  }

  @Test
  void rejectsTextAfterAValue() {
    assertThat(TraceRun.of("0: x = 1 2\n").error)
        .hasMessage("trace.input:1:10: unexpected text after the value: '2'");
    assertThat(TraceRun.of("0: x = 1 y = 2\n").error)
        .hasMessage("trace.input:1:10: unexpected text after the value: 'y = 2'");
  }

  @Test
  void reportsABadEscapeAtItsBackslash() {
    assertThat(TraceRun.of("0: x = \"a\\qb\"\n").error)
        .hasMessage("trace.input:1:10: unknown escape '\\q'");
  }

  @Test
  void reportsAnUnterminatedStringAtItsQuote() {
    assertThat(TraceRun.of("0: x = [\"abc\\\"]\n").error)
        .hasMessage("trace.input:1:9: unterminated string");
  }

  @Test
  void rejectsMalformedNumbers() {
    assertThat(TraceRun.of("0: x = 1.\n").error).hasMessage("trace.input:1:8: malformed number");
    assertThat(TraceRun.of("0: x = 1e\n").error).hasMessage("trace.input:1:8: malformed number");
    assertThat(TraceRun.of("0: x = 12abc\n").error).hasMessage("trace.input:1:8: malformed number");
    assertThat(TraceRun.of("0: x = 1.2.3\n").error).hasMessage("trace.input:1:8: malformed number");
    assertThat(TraceRun.of("0: x = .5\n").error)
        .hasMessage("trace.input:1:8: unexpected character '.'");
    assertThat(TraceRun.of("0: x = -\n").error).hasMessage("trace.input:1:8: expected a number");
  }

  @Test
  void rejectsDigitsOutsideAscii() {
    // U+0663 ARABIC-INDIC DIGIT THREE is a digit to Character.isDigit, but not to the language.
    assertThat(TraceRun.of("0: x = 1.\u0663\n").error)
        .hasMessage("trace.input:1:8: malformed number");
    assertThat(TraceRun.of("0: x = \u0663\n").error)
        .hasMessage("trace.input:1:8: unexpected character '\u0663'");
    assertThat(TraceRun.of("\u0663: x = 1\n").error)
        .hasMessage(
            "trace.input:1:1: assignment before the first tick"
                + " (start a tick with 'N: name = value')");
  }

  @Test
  void rejectsUnknownWordsAndBrokenUnit() {
    assertThat(TraceRun.of("0: x = True\n").error)
        .hasMessage("trace.input:1:8: unknown value 'True'");
    assertThat(TraceRun.of("0: x = (1)\n").error).hasMessage("trace.input:1:8: expected '()'");
    assertThat(TraceRun.of("0: x = {k: 1}\n").error)
        .hasMessage("trace.input:1:9: expected a quoted map key");
    assertThat(TraceRun.of("0: x = {\"k\" 1}\n").error)
        .hasMessage("trace.input:1:13: expected ':'");
    assertThat(TraceRun.of("0: x = List[1]\n").error).hasMessage("trace.input:1:12: expected '('");
  }
}
