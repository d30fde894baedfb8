package io.dataflow.monitor;

import static io.dataflow.monitor.Specs.compileError;
import static io.dataflow.monitor.Specs.run;
import static io.dataflow.monitor.Specs.valueOf;
import static io.dataflow.monitor.Specs.where;
import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.monitor.lang.Canonical;
import io.dataflow.monitor.lang.Parser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Literals, comments, precedence and the positions of syntax errors (docs/language.md#literals,
 * docs/language.md#comments, docs/language.md#operators, docs/language.md#compile-errors).
 */
class LexerParserTest {

  /** The canonical s-expression of one expression: shows exactly how it was grouped. */
  private static String tree(String expr) {
    return Canonical.print(Parser.parseExpression("e", expr));
  }

  // ---- literals ----

  @Test
  void largestIntLiteralIsAccepted() {
    assertThat(valueOf("out z\nz = 9223372036854775807")).isEqualTo("Int(9223372036854775807)");
  }

  @Test
  void intLiteralOutOfLongRangeIsAParseError() {
    SpecException e = compileError("out z\nz = 1 + 9223372036854775808");
    assertThat(where(e)).isEqualTo("2:9 integer literal out of range: 9223372036854775808");
    assertThat(e).hasMessage("spec.dsrv:2:9: integer literal out of range: 9223372036854775808");
  }

  @Test
  void minusIsAUnaryOperatorSoTheMostNegativeLongIsOutOfRangeAsALiteral() {
    assertThat(where(compileError("out z\nz = -9223372036854775808")))
        .isEqualTo("2:6 integer literal out of range: 9223372036854775808");
  }

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource(delimiter = ';', value = {
      "1.5; Float(1.5)",
      "1e6; Float(1000000.0)",
      "1E6; Float(1000000.0)",
      "1.5e-3; Float(0.0015)",
      "2.5e+2; Float(250.0)",
      "0.0; Float(0.0)",
      "42; Int(42)",
      "007; Int(7)"})
  void numberLiterals(String literal, String value) {
    assertThat(valueOf("out z\nz = " + literal)).isEqualTo(value);
  }

  @Test
  void oneDotIsNotAFloat() {
    // "1." lexes as the Int 1 followed by a '.', which cannot continue the specification.
    assertThat(where(compileError("out z\nz = 1.")))
        .isEqualTo("2:6 expected a declaration or an equation, found '.'");
  }

  @Test
  void aNumberRunningIntoALetterIsMalformed() {
    assertThat(where(compileError("out z\nz = 12ab"))).isEqualTo("2:5 malformed number '12a'");
  }

  @Test
  void stringEscapesAreDecoded() {
    assertThat(valueOf("out z\nz = \"a\\nb\\tc\\\"d\\\\e\\'f\""))
        .isEqualTo("Str(\"a\\nb\\tc\\\"d\\\\e'f\")");
  }

  @Test
  void unknownEscapeIsReportedAtItsBackslash() {
    assertThat(where(compileError("out z\nz = \"ab\\qc\"")))
        .isEqualTo("2:8 unknown escape '\\q'");
  }

  @Test
  void stringMustEndOnItsLine() {
    assertThat(where(compileError("out z\nz = \"abc\n\"")))
        .isEqualTo("2:5 unterminated string literal");
  }

  @Test
  void unitTrueAndFalseLiterals() {
    assertThat(run("out u\nout t\nout f\nu = ()\nt = true\nf = false", ""))
        .containsExactly("u[0] = Unit", "t[0] = Bool(true)", "f[0] = Bool(false)");
  }

  // ---- comments and layout ----

  @Test
  void lineAndBlockCommentsAreSkipped() {
    String spec = "// counter\nin x (* the input *)\nout z // the output\n"
        + "z = x (* a block\n  over lines // with a line comment inside *) + 1";
    assertThat(run(spec, "x=1")).containsExactly("z[0] = Int(2)");
  }

  @Test
  void unterminatedBlockCommentIsReportedWhereItStarts() {
    assertThat(where(compileError("in x\n  (* never closed\nout z")))
        .isEqualTo("2:3 unterminated comment");
  }

  @Test
  void unexpectedCharacterIsReported() {
    assertThat(where(compileError("in x\nout z\nz = x # 1"))).isEqualTo(
        "3:7 unexpected character '#'");
  }

  @Test
  void varIsAnOldSpellingOfAuxAndIsNotEmitted() {
    assertThat(run("in x\nvar t = x * 2\nout z = t + 1", "x=1"))
        .containsExactly("z[0] = Int(3)");
  }

  // ---- precedence, lowest first: if, ++, =>, ||, &&, == !=, < <= > >=, + -, * / %, unary, ** ----

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = ';', value = {
      "if c then a else b ++ d; (if $c $a (++ $b $d))",
      "a ++ b == c; (++ $a (== $b $c))",
      "a ++ b => c; (++ $a (=> $b $c))",
      "a => b || c; (=> $a (|| $b $c))",
      "a || b && c; (|| $a (&& $b $c))",
      "a or b and c; (|| $a (&& $b $c))",
      "a && b == c; (&& $a (== $b $c))",
      "a != b < c; (!= $a (< $b $c))",
      "a <= b + c; (<= $a (+ $b $c))",
      "a >= b - c * d; (>= $a (- $b (* $c $d)))",
      "a + b / c % d; (+ $a (% (/ $b $c) $d))",
      "a * -b; (* $a (- $b))",
      "!a == b; (== (! $a) $b)",
      "not a && b; (&& (! $a) $b)",
      "-a ** b; (- (** $a $b))",
      "a ** -b; (** $a (- $b))",
      "-a[1]; (- (index 1 $a))",
      "a[1] ** 2; (** (index 1 $a) Int(2))"})
  void eachLevelBindsTighterThanTheOneBefore(String expr, String grouped) {
    assertThat(tree(expr)).isEqualTo(grouped);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = ';', value = {
      "a - b - c; (- (- $a $b) $c)",
      "a / b * c; (* (/ $a $b) $c)",
      "a => b => c; (=> (=> $a $b) $c)",
      "a ++ b ++ c; (++ (++ $a $b) $c)",
      "a ** b ** c; (** $a (** $b $c))"})
  void associativity(String expr, String grouped) {
    assertThat(tree(expr)).isEqualTo(grouped);
  }

  @Test
  void indexAfterAListLiteralIsHistoryNotElementAccess() {
    assertThat(tree("[10, 20][1]")).isEqualTo("(index 1 (list Int(10) Int(20)))");
    assertThat(Specs.series("out z\nz = [10, 20][1]", "|"))
        .isEqualTo("Deferred List([Int(10), Int(20)])");
  }

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource(delimiter = ';', value = {
      "-2 ** 2; Int(-4)",
      "2 ** 3 ** 2; Int(512)",
      "(-2) ** 2; Int(4)",
      "2 ** -1; Float(0.5)",
      "10 - 4 - 3; Int(3)",
      "2 + 3 * 4; Int(14)",
      "false => false => false; Bool(false)",
      "\"a\" ++ \"b\" ++ \"c\"; Str(\"abc\")",
      "if 1 < 2 then \"yes\" else \"no\" ++ \"!\"; Str(\"yes\")"})
  void precedenceShowsInValues(String expr, String value) {
    assertThat(valueOf("out z\nz = " + expr)).isEqualTo(value);
  }

  @Test
  void concatBindsWeakestSoStringEqualityNeedsParentheses() {
    // a ++ b == c is a ++ (b == c): Str ++ Bool.
    assertThat(where(compileError("out z\nz = \"a\" ++ \"b\" == \"ab\"")))
        .isEqualTo("2:9 operator '++' cannot be applied to Str and Bool");
    assertThat(valueOf("out z\nz = (\"a\" ++ \"b\") == \"ab\"")).isEqualTo("Bool(true)");
  }

  // ---- syntax errors and their positions ----

  @Test
  void elseIsRequired() {
    assertThat(where(compileError("in c\nout z\nz = if c then 1")))
        .isEqualTo("3:16 expected 'else' (an if needs both branches), found end of input");
    assertThat(where(compileError("in c\nout z\nz = if c then 1\nout w\nw = 2")))
        .isEqualTo("4:1 expected 'else' (an if needs both branches), found 'out'");
  }

  @Test
  void errorAtEndOfInputPointsJustAfterTheLastToken() {
    assertThat(where(compileError("in x\nout z\nz = x +")))
        .isEqualTo("3:8 expected an expression, found end of input");
  }

  @Test
  void trailingBlankLinesAndCommentsDoNotMoveTheEndOfInputPosition() {
    assertThat(where(compileError("in x\nout z\nz = x +   \n\n// nothing more\n")))
        .isEqualTo("3:8 expected an expression, found end of input");
  }

  @Test
  void unclosedParenthesis() {
    assertThat(where(compileError("in x\nout z\nz = (x + 1\nout w\nw = 1")))
        .isEqualTo("4:1 expected ')', found 'out'");
  }

  @Test
  void historyOffsetMustBeANonNegativeIntegerLiteral() {
    assertThat(where(compileError("in x\nout z\nz = x[-1]"))).isEqualTo(
        "3:7 a history offset is a non-negative integer literal: write x[1] for the previous "
            + "value and default(x[1], d) for a fallback");
    assertThat(where(compileError("in x\nin n\nout z\nz = x[n]")))
        .isEqualTo("4:7 expected a non-negative integer literal as history offset, found 'n'");
    assertThat(where(compileError("in x\nout z\nz = x[1.5]"))).isEqualTo(
        "3:7 expected a non-negative integer literal as history offset, found number 1.5");
  }

  @Test
  void inputCannotHaveAnInlineEquation() {
    assertThat(where(compileError("in x = 1")))
        .isEqualTo("1:6 input stream 'x' cannot have an equation");
  }

  @Test
  void specMustStartWithADeclarationOrAnEquation() {
    assertThat(where(compileError("in x\n42"))).isEqualTo(
        "2:1 expected a declaration or an equation, found number 42");
  }

  @Test
  void unknownTypeIsASyntaxError() {
    assertThat(where(compileError("in x: Integer"))).isEqualTo("1:7 unknown type 'Integer'");
  }

  @Test
  void unknownQualifiedFunction() {
    assertThat(where(compileError("out z\nz = List.size([1])")))
        .isEqualTo("2:10 unknown function 'List.size'");
  }

  @Test
  void mapFunctionsNeedAStringLiteralKey() {
    assertThat(where(compileError("in k\nout z\nz = Map.get({\"a\": 1}, k)")))
        .isEqualTo("3:23 Map.get needs a string literal key, found 'k'");
  }

  @Test
  void deeplyNestedExpressionsAreSyntaxErrorsNotStackOverflows() {
    String parens = "(".repeat(20_000) + "x" + ")".repeat(20_000);
    assertThat(where(compileError("in x\nout z\nz = " + parens))).startsWith("3:205 ")
        .contains("nested too deeply");
    assertThat(where(compileError("in x\nout z\nz = " + "-".repeat(20_000) + "x")))
        .contains("nested too deeply");
    assertThat(where(compileError("in x\nout z\nz = " + "if true then ".repeat(5_000)
        + "x" + " else x".repeat(5_000)))).contains("nested too deeply");
    String chain = "x" + " + x".repeat(20_000);
    assertThat(where(compileError("in x\nout z\nz = " + chain)))
        .contains("more than 400 levels deep");
  }

  @Test
  void nestingWithinTheLimitsCompilesAndEvaluates() {
    String parens = "(".repeat(150) + "x" + ")".repeat(150);
    assertThat(Specs.series("in x\nout z\nz = " + parens + " + 1", "x=1")).isEqualTo("Int(2)");
    String chain = "x" + " + x".repeat(399);
    assertThat(Specs.series("in x\nout z\nz = " + chain, "x=1")).isEqualTo("Int(400)");
  }
}
