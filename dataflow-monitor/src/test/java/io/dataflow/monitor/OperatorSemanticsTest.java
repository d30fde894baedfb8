package io.dataflow.monitor;

import static io.dataflow.monitor.Specs.assertThrowsAgain;
import static io.dataflow.monitor.Specs.describe;
import static io.dataflow.monitor.Specs.monitor;
import static io.dataflow.monitor.Specs.row;
import static io.dataflow.monitor.Specs.rows;
import static io.dataflow.monitor.Specs.run;
import static io.dataflow.monitor.Specs.runtimeError;
import static io.dataflow.monitor.Specs.series;
import static io.dataflow.monitor.Specs.valueOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.MonitorException;
import io.dataflow.core.Row;
import io.dataflow.core.Value;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every operator and form of docs/language.md#operators, under the rules of
 * docs/language.md#arithmetic, docs/language.md#lifting and docs/language.md#runtime-errors, with
 * absent (NoVal), Deferred and held operands. {@link TemporalFormsTest} covers
 * docs/language.md#time.
 */
class OperatorSemanticsTest {
  private static final String XY = "in x\nin y\nout z\naux f = \\a, b -> a * 10 + b\nz = ";

  // ---- section 4: sample-and-hold lifting ----

  @Test
  void constantHasAValueOnEveryTick() {
    assertThat(series("in x\nout z\nz = 42", "| x=1 |")).isEqualTo("Int(42) Int(42) Int(42)");
  }

  @Test
  void heldOperandsExampleOfSectionFour() {
    assertThat(series("in x\nin y\nout z\nz = x + y", "x=1 y=10 | y=20 | | x=4 y=40"))
        .isEqualTo("Int(11) Int(21) Int(21) Int(44)");
  }

  @Test
  void oneInputPerTickExampleOfSectionFour() {
    assertThat(series("in x\nin y\nout z\nz = x + y", "x=0 | y=1 | x=2 | y=3"))
        .isEqualTo("- Int(1) Int(3) Int(5)");
  }

  @Test
  void bareReferencePassesNoVal() {
    assertThat(series("in x\nout z\nz = x", "x=1 | | x=3")).isEqualTo("Int(1) - Int(3)");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = ';', value = {
      "x + y; Int(11) Int(21) Int(21) Int(44)",
      "y - x; Int(9) Int(19) Int(19) Int(36)",
      "x * y; Int(10) Int(20) Int(20) Int(160)",
      "y / x; Int(10) Int(20) Int(20) Int(10)",
      "y % (x + 2); Int(1) Int(2) Int(2) Int(4)",
      "y ** x; Int(10) Int(20) Int(20) Int(2560000)",
      "x * 10 == y; Bool(true) Bool(false) Bool(false) Bool(true)",
      "x * 10 != y; Bool(false) Bool(true) Bool(true) Bool(false)",
      "x * 15 < y; Bool(false) Bool(true) Bool(true) Bool(false)",
      "x * 15 >= y; Bool(true) Bool(false) Bool(false) Bool(true)",
      "y > 15 => x > 2; Bool(true) Bool(false) Bool(false) Bool(true)",
      "y > 15 && x > 2; Bool(false) Bool(false) Bool(false) Bool(true)",
      "y > 15 || x > 2; Bool(false) Bool(true) Bool(true) Bool(true)",
      "-x; Int(-1) Int(-1) Int(-1) Int(-4)",
      "!(x > 2); Bool(true) Bool(true) Bool(true) Bool(false)",
      "[x, y]; List([Int(1), Int(10)]) List([Int(1), Int(20)]) List([Int(1), Int(20)]) "
          + "List([Int(4), Int(40)])",
      "List(y, x); List([Int(10), Int(1)]) List([Int(20), Int(1)]) List([Int(20), Int(1)]) "
          + "List([Int(40), Int(4)])",
      "{\"b\": x, \"a\": y}; Map({\"a\": Int(10), \"b\": Int(1)}) Map({\"a\": Int(20), \"b\": "
          + "Int(1)}) Map({\"a\": Int(20), \"b\": Int(1)}) Map({\"a\": Int(40), \"b\": Int(4)})",
      "abs(x - y); Int(9) Int(19) Int(19) Int(36)",
      "f(x, y); Int(20) Int(30) Int(30) Int(80)"})
  void everyStrictFormHoldsEachOperand(String expr, String values) {
    assertThat(series(XY + expr, "x=1 y=10 | y=20 | | x=4 y=40")).isEqualTo(values);
  }

  @Test
  void builtInCallLiftsEachOperand() {
    DataflowMonitor m = monitor("in l\nin i\nout z\nz = List.get(l, i)");
    Value list = Value.list(Value.of(5), Value.of(6), Value.of(7));
    assertThat(run(m, rows(row("l", list, "i", 0), row("i", 2), row(), row("l", Value.list(
        Value.of(9), Value.of(8), Value.of(6)))))).containsExactly(
        "z[0] = Int(5)", "z[1] = Int(7)", "z[2] = Int(7)", "z[3] = Int(6)");
  }

  /**
   * A stands for {@code x[1]} (Deferred at tick 0), B for {@code y}. Each strict form is
   * Deferred when an operand is Deferred, NoVal when an operand is NoVal (NoVal wins), and
   * otherwise computes its value (here with A = 2, B = 3).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = ';', value = {
      "A + B; Int(5)",
      "A - B; Int(-1)",
      "A * B; Int(6)",
      "A / B; Int(0)",
      "A % B; Int(2)",
      "A ** B; Int(8)",
      "A == B; Bool(false)",
      "A != B; Bool(true)",
      "A < B; Bool(true)",
      "A <= B; Bool(true)",
      "A > B; Bool(false)",
      "A >= B; Bool(false)",
      "A < B && B > 0; Bool(true)",
      "A > B || B > 0; Bool(true)",
      "A > B => B > 0; Bool(true)",
      "-(A - B); Int(1)",
      "!(A < B); Bool(false)",
      "[A, B]; List([Int(2), Int(3)])",
      "List(A, B); List([Int(2), Int(3)])",
      "{\"k\": A, \"j\": B}; Map({\"j\": Int(3), \"k\": Int(2)})",
      "List.get([A, B], 1); Int(3)",
      "List.append([A], B); List([Int(2), Int(3)])",
      "List.len([A, B]); Int(2)",
      "Map.insert({\"k\": A}, \"j\", B); Map({\"j\": Int(3), \"k\": Int(2)})",
      "abs(A - B); Int(1)",
      "sqrt(A + B + 4); Float(3.0)",
      "f(A, B); Int(23)"})
  void strictFormIsDeferredOrNoValWithAnAbsentOperand(String form, String value) {
    String spec = XY + form.replace("A", "x[1]").replace("B", "y");
    assertThat(series(spec, "x=2 y=3 |")).isEqualTo("Deferred " + value);
    assertThat(series(spec, "x=2 | y=3")).isEqualTo("- " + value);
  }

  @Test
  void unaryOperatorsPassAbsence() {
    assertThat(series("in x\nout z\nz = -x", "| x=2.5 |")).isEqualTo("- Float(-2.5) Float(-2.5)");
    assertThat(series("in x\nout z\nz = -x[1]", "x=1 | x=2")).isEqualTo("Deferred Int(-1)");
    assertThat(series("in b\nout z\nz = not b", "| b=true")).isEqualTo("- Bool(false)");
    assertThat(series("in b\nout z\nz = !b[1]", "b=true | ")).isEqualTo("Deferred Bool(false)");
  }

  // ---- arithmetic ----

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource(delimiter = ';', value = {
      "-7 / 2; Int(-3)",
      "-7 % 2; Int(-1)",
      "7 / -2; Int(-3)",
      "7 % -2; Int(1)",
      "7 / 2; Int(3)",
      "-9223372036854775807 - 1; Int(-9223372036854775808)",
      "2 ** 62; Int(4611686018427387904)",
      "2 ** 0; Int(1)",
      "(-2) ** 3; Int(-8)",
      "2 ** -2; Float(0.25)",
      "2.0 ** 3; Float(8.0)",
      "4 ** 0.5; Float(2.0)",
      "1 + 2.5; Float(3.5)",
      "2.5 * 2; Float(5.0)",
      "7 / 2.0; Float(3.5)",
      "-7.5 % 2; Float(-1.5)",
      "0.1 + 0.2; Float(0.30000000000000004)",
      "1.0 / 0.0; Float(inf)",
      "-1.0 / 0.0; Float(-inf)",
      "1 / 0.0; Float(inf)",
      "0.0 / 0.0; Float(NaN)",
      "5 % 0.0; Float(NaN)",
      "-(1.0 - 1.0); Float(-0.0)"})
  void arithmetic(String expr, String value) {
    assertThat(valueOf("out z\nz = " + expr)).isEqualTo(value);
  }

  // MIN % -1 fails like Rust's checked_rem in the TC, although its value (0) would fit.
  @ParameterizedTest(name = "{0} fails: {1}")
  @CsvSource(delimiter = ';', value = {
      "9223372036854775807 + 1; integer overflow in '+' (9223372036854775807 + 1)",
      "-9223372036854775807 - 2; integer overflow in '-' (-9223372036854775807 - 2)",
      "4611686018427387904 * 2; integer overflow in '*' (4611686018427387904 * 2)",
      "2 ** 63; integer overflow in '**' (2 ** 63)",
      "(-9223372036854775807 - 1) / -1; "
          + "integer overflow in '/' (-9223372036854775808 / -1)",
      "-(-9223372036854775807 - 1); integer overflow in '-' (-(-9223372036854775808))",
      "abs(-9223372036854775807 - 1); integer overflow in abs(-9223372036854775808)",
      "(-9223372036854775807 - 1) % -1; "
          + "integer overflow in '%' (-9223372036854775808 % -1)",
      "1 / 0; division by zero",
      "1 % 0; modulo by zero"})
  void checkedIntArithmeticFails(String expr, String reason) {
    assertThat(describe(runtimeError("out z\nz = " + expr, "")))
        .isEqualTo("tick 0: stream 'z': " + reason);
  }

  @Test
  void overflowCheckAppliesToStreamValuesToo() {
    // x and y are untyped, so this is the generic (not the statically Int) addition.
    assertThat(describe(runtimeError("in x\nin y\nout z\nz = x + y",
        "x=1 y=2 | x=9223372036854775807")))
        .isEqualTo("tick 1: stream 'z': integer overflow in '+' (9223372036854775807 + 2)");
    assertThat(describe(runtimeError("in x: Int\nin y: Int\nout z: Int\nz = x + y",
        "x=1 y=2 | x=9223372036854775807")))
        .isEqualTo("tick 1: stream 'z': integer overflow in '+' (9223372036854775807 + 2)");
  }

  // ---- comparison and equality ----

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource(delimiter = ';', value = {
      "1 < 2; true",
      "2 <= 2; true",
      "3 > 2.5; true",
      "2.5 >= 3; false",
      "2 <= 2.0; true",
      "\"ab\" < \"b\"; true",
      "\"a\" < \"ab\"; true",
      "\"B\" < \"a\"; true",
      "\"b\" >= \"b\"; true",
      "false < true; true",
      "true <= false; false",
      "\"\uFFFF\" < \"\uD83D\uDE00\"; true",
      "\"\uE000\" < \"\uD83D\uDE00\"; true",
      "\"\uD83D\uDE00\" > \"\uFFFF\"; true",
      "1 == 1.0; false",
      "1 != 1.0; true",
      "1 == 1; true",
      "\"1\" == 1; false",
      "1.5 == 1.5; true",
      "0.0 == -0.0; true",
      "0.0 / 0.0 == 0.0 / 0.0; false",
      "0.0 / 0.0 != 0.0 / 0.0; true",
      "() == (); true",
      "true != false; true",
      "[1, 2] == [1, 2]; true",
      "[1, 2] == [2, 1]; false",
      "[1] == [1.0]; false",
      "{\"a\": 1, \"b\": [2]} == {\"b\": [2], \"a\": 1}; true",
      "{\"a\": 1} == {\"a\": 2}; false"})
  void comparisonAndEquality(String expr, boolean result) {
    assertThat(valueOf("out z\nz = " + expr)).isEqualTo("Bool(" + result + ")");
  }

  @Test
  void stringsOrderByCodePointNotByUtf16Unit() {
    // In UTF-16 the surrogate 0xD83D sorts before 0xFFFF; by code point U+1F600 is larger.
    DataflowMonitor m = monitor("in a\nin b\nout z\nz = a < b");
    assertThat(run(m, rows(row("a", "\uFFFF", "b", "\uD83D\uDE00"),
        row("a", "\uD83D\uDE00", "b", "\uFFFF"))))
        .containsExactly("z[0] = Bool(true)", "z[1] = Bool(false)");
  }

  // ---- logical and string operators ----

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource(delimiter = ';', value = {
      "true && true; true", "true && false; false", "false and true; false",
      "false || false; false", "false or true; true", "true || false; true",
      "true => false; false", "false => false; true", "false => true; true",
      "true => true; true", "!true; false", "not false; true"})
  void logicalOperators(String expr, boolean result) {
    assertThat(valueOf("out z\nz = " + expr)).isEqualTo("Bool(" + result + ")");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = ';', value = {
      "false && 1 / d == 0", "true || 1 / d == 0", "false => 1 / d == 0"})
  void logicalOperatorsDoNotShortCircuit(String expr) {
    assertThat(describe(runtimeError("in d\nout z\nz = " + expr, "d=0")))
        .isEqualTo("tick 0: stream 'z': division by zero");
  }

  @Test
  void concatenationHoldsItsOperands() {
    assertThat(series("in a\nin b\nout z\nz = a ++ b", "a=\"x\" b=\"1\" | b=\"2\" | a=\"y\""))
        .isEqualTo("Str(\"x1\") Str(\"x2\") Str(\"y2\")");
  }

  @ParameterizedTest(name = "{0} with a={1} b={2}")
  @CsvSource(delimiter = ';', value = {
      "a + b; 1; \"s\"; operator '+' cannot be applied to Int and Str",
      "a < b; 1; \"s\"; operator '<' cannot be applied to Int and Str",
      "a < b; true; 1; operator '<' cannot be applied to Bool and Int",
      "a && b; 1; true; operator '&&' cannot be applied to Int and Bool",
      "a => b; true; (); operator '=>' cannot be applied to Bool and Unit",
      "a ++ b; \"s\"; 1; operator '++' cannot be applied to Str and Int",
      "-a; \"s\"; 1; operator '-' cannot be applied to Str",
      "!a; 1; 1; operator '!' needs Bool, found Int",
      "if a then 1 else 2; 1; 1; the condition of if needs Bool, found Int"})
  void operandOfTheWrongTypeIsARuntimeErrorWhenUntyped(String expr, String a, String b,
      String reason) {
    assertThat(describe(runtimeError("in a\nin b\nout z\nz = " + expr, "a=" + a + " b=" + b)))
        .isEqualTo("tick 0: stream 'z': " + reason);
  }

  // ---- collections and built-ins ----

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource(delimiter = ';', value = {
      "[]; List([])",
      "List(); List([])",
      "[1, \"a\", true, ()]; List([Int(1), Str(\"a\"), Bool(true), Unit])",
      "{}; Map({})",
      "Map(\"k\": 1); Map({\"k\": Int(1)})",
      "{\"b\": 1, \"a\": 2}; Map({\"a\": Int(2), \"b\": Int(1)})",
      "{\"a\": 1, \"a\": 2}; Map({\"a\": Int(2)})",
      "[[1], [{\"a\": 2.5}]]; List([List([Int(1)]), List([Map({\"a\": Float(2.5)})])])",
      "List.get([1, 2, 3], 1); Int(2)",
      "List.append([1], 2); List([Int(1), Int(2)])",
      "List.concat([1], [2, 3]); List([Int(1), Int(2), Int(3)])",
      "List.head([1, 2]); Int(1)",
      "List.tail([1, 2, 3]); List([Int(2), Int(3)])",
      "List.tail([1]); List([])",
      "List.len([1, 2, 3]); Int(3)",
      "List.len([]); Int(0)",
      "Map.get({\"a\": 1}, \"a\"); Int(1)",
      "Map.insert({\"a\": 1}, \"b\", 2); Map({\"a\": Int(1), \"b\": Int(2)})",
      "Map.insert({\"a\": 1}, \"a\", 5); Map({\"a\": Int(5)})",
      "Map.remove({\"a\": 1, \"b\": 2}, \"a\"); Map({\"b\": Int(2)})",
      "Map.remove({\"a\": 1}, \"z\"); Map({\"a\": Int(1)})",
      "Map.has_key({\"a\": 1}, \"a\"); Bool(true)",
      "Map.has_key({\"a\": 1}, \"b\"); Bool(false)",
      "abs(-3); Int(3)",
      "abs(-2.5); Float(2.5)",
      "sin(0); Float(0.0)",
      "cos(0); Float(1.0)",
      "tan(0.0); Float(0.0)",
      "sqrt(4); Float(2.0)",
      "sqrt(2.25); Float(1.5)",
      "sqrt(-1.0); Float(NaN)"})
  void collectionsAndBuiltIns(String expr, String value) {
    assertThat(valueOf("out z\nz = " + expr)).isEqualTo(value);
  }

  @ParameterizedTest(name = "{0} fails: {1}")
  @CsvSource(delimiter = ';', value = {
      "List.get([1, 2, 3], 3); List.get: index 3 out of range for a list of length 3",
      "List.get([1], -1); List.get: index -1 out of range for a list of length 1",
      "List.head([]); List.head of an empty list",
      "List.tail([]); List.tail of an empty list",
      "Map.get({\"a\": 1}, \"b\"); Map.get: no key \"b\""})
  void builtInFails(String expr, String reason) {
    assertThat(describe(runtimeError("out z\nz = " + expr, "")))
        .isEqualTo("tick 0: stream 'z': " + reason);
  }

  // ---- section 9 examples ----

  @Test
  void additionExampleOfSectionNine() {
    assertThat(run("in x\nin y\nout z\nz = x + y", "x=1 y=2 | x=3 y=4"))
        .containsExactly("z[0] = Int(3)", "z[1] = Int(7)");
  }

  @Test
  void auxIsComputedButNotEmittedExampleOfSectionNine() {
    String spec = "in x\naux total\nout below: Bool\ntotal = default(total[1], 0) + x\n"
        + "below = total < 3";
    assertThat(run(spec, "x=1 | x=1 | x=1 | x=1")).containsExactly(
        "below[0] = Bool(true)", "below[1] = Bool(true)", "below[2] = Bool(false)",
        "below[3] = Bool(false)");
  }

  // ---- section 6: runtime errors ----

  @Test
  void runtimeErrorPoisonsTheMonitorAndTheFailingRowIsNotEmitted() {
    DataflowMonitor m = monitor("in d\nout z\nz = 10 / d");
    assertThat(run(m, "d=2")).containsExactly("z[0] = Int(5)");
    Row in = m.inputs().newRow();
    in.setInt(0, 0);
    Row out = m.outputs().newRow();
    out.setInt(0, 99);

    assertThatThrownBy(() -> m.evaluate(in, out)).isInstanceOf(MonitorException.class);
    MonitorException first = m.failure();
    assertThat(describe(first)).isEqualTo("tick 1: stream 'z': division by zero");
    assertThat(out.get(0)).isEqualTo(Value.of(99));
    assertThat(m.nextTick()).isEqualTo(1);

    in.setInt(0, 5);
    assertThatThrownBy(() -> m.evaluate(in, out))
        .isInstanceOf(MonitorException.class)
        .hasMessage(first.getMessage());
    assertThrowsAgain(m, first);
    assertThat(m.failure()).isSameAs(first);
    assertThat(out.get(0)).isEqualTo(Value.of(99));
  }

  @Test
  void rowOfTheWrongWidthIsRejectedWithoutPoisoningOrCommitting() {
    DataflowMonitor m = monitor("in x\nout z\nz = default(z[1], 0) + x");
    assertThatThrownBy(() -> m.evaluate(new Row(2), m.outputs().newRow()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("input row has 2 slots, the program has 1 inputs");
    Row in = m.inputs().newRow();
    in.setInt(0, 1);
    assertThatThrownBy(() -> m.evaluate(in, new Row(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("output row has 2 slots, the program has 1 outputs");
    assertThat(m.failure()).isNull();
    assertThat(m.nextTick()).isZero();
    assertThat(series(m, "x=1 | x=1")).isEqualTo("Int(1) Int(2)");
  }

  @Test
  void wrongTypedInputValueNamesTickInputAndBothTypes() {
    MonitorException e = runtimeError("in x: Int\nout z\nz = x", "x=1 | x=2 | x=1.5");
    assertThat(describe(e))
        .isEqualTo("tick 2: stream 'x': input 'x' is declared Int but got a value of type Float");
  }

  @Test
  void typedListInputChecksItsElements() {
    DataflowMonitor m = monitor("in xs: List<Int>\nout z\nz = List.len(xs)");
    assertThat(run(m, rows(row("xs", Value.list(Value.of(1)))))).containsExactly("z[0] = Int(1)");
    assertThatThrownBy(() -> m.evaluate(row("xs", Value.list(Value.of("a")))))
        .isInstanceOf(MonitorException.class)
        .hasMessage("tick 1: stream 'xs': input 'xs' is declared List<Int> but got a value of "
            + "type List");
  }

  @Test
  void typedInputAcceptsAbsenceMarkers() {
    assertThat(series("in x: Int\nout z\nz = x", "x=deferred | | x=3"))
        .isEqualTo("Deferred - Int(3)");
  }
}
