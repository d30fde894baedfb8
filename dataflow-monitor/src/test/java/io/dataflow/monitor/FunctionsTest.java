package io.dataflow.monitor;

import static io.dataflow.monitor.Specs.compileError;
import static io.dataflow.monitor.Specs.describe;
import static io.dataflow.monitor.Specs.run;
import static io.dataflow.monitor.Specs.runtimeError;
import static io.dataflow.monitor.Specs.series;
import static io.dataflow.monitor.Specs.valueOf;
import static io.dataflow.monitor.Specs.where;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Lambdas, application and the higher-order list functions (docs/language.md#lambdas,
 * docs/language.md#builtins).
 */
class FunctionsTest {

  @Test
  void lambdaInAnAuxStreamIsApplied() {
    assertThat(series("in x: Int\naux inc = \\v: Int -> v + 1\nout z: Int\nz = inc(x)",
        "x=1 | | x=41")).isEqualTo("Int(2) Int(2) Int(42)");
  }

  @Test
  void lambdaAppliedDirectly() {
    assertThat(valueOf("out z\nz = (\\v -> v * 2)(21)")).isEqualTo("Int(42)");
  }

  @Test
  void severalParameters() {
    assertThat(valueOf("aux sub = \\a, b -> a - b\nout z\nz = sub(10, 3)")).isEqualTo("Int(7)");
  }

  @Test
  void closureCapturesTheEnclosingParameter() {
    assertThat(series("in x\naux adder = \\n -> \\v -> v + n\nout z\nz = adder(100)(x)",
        "x=1 | x=2")).isEqualTo("Int(101) Int(102)");
  }

  @Test
  void functionChosenAtRunTime() {
    String spec = "in c: Bool\nin x\naux double = \\v -> v * 2\naux negate = \\v -> -v\n"
        + "aux f = if c then double else negate\nout z\nz = f(x)";
    assertThat(series(spec, "c=true x=5 | c=false | x=7")).isEqualTo("Int(10) Int(-5) Int(-7)");
  }

  @Test
  void applicationLiftsTheFunctionAndTheArguments() {
    assertThat(series("in x\nin y\naux add = \\a, b -> a + b\nout z\nz = add(x, y)",
        "x=0 | y=1 | x=2 | y=3")).isEqualTo("- Int(1) Int(3) Int(5)");
    assertThat(series("in x\naux f = \\v -> v\nout z\nz = f(x[1])", "x=1 | x=2"))
        .isEqualTo("Deferred Int(1)");
  }

  @Test
  void temporalStateIsKeptPerCallSite() {
    // Both outputs call prev; each call site keeps its own delay.
    String spec = "in x\naux prev = \\v -> default(v[1], 0)\nout a\nout b\n"
        + "a = prev(x)\nb = prev(x * 10)";
    assertThat(run(spec, "x=1 | x=2 | x=3")).containsExactly(
        "a[0] = Int(0)", "b[0] = Int(0)",
        "a[1] = Int(1)", "b[1] = Int(10)",
        "a[2] = Int(2)", "b[2] = Int(20)");
  }

  @Test
  void twoCallSitesInOneExpressionKeepSeparateState() {
    String spec = "in x\naux prev = \\v -> default(v[1], 0)\nout z\nz = prev(x) * 100 + prev(-x)";
    assertThat(series(spec, "x=1 | x=2")).isEqualTo("Int(0) Int(99)");
  }

  // ---- higher-order list functions ----

  @ParameterizedTest(name = "{0} is {1}")
  @CsvSource(delimiter = ';', value = {
      "List.map(\\v -> v * 2, [1, 2, 3]); List([Int(2), Int(4), Int(6)])",
      "List.map(\\v -> [v], []); List([])",
      "List.filter(\\v -> v > 1, [1, 2, 3]); List([Int(2), Int(3)])",
      "List.fold(\\acc, v -> acc + v, 0, [1, 2, 3]); Int(6)",
      "List.fold(\\acc, v -> acc ++ v, \"\", [\"a\", \"b\"]); Str(\"ab\")",
      "List.fold(\\acc, v -> acc + v, 10, []); Int(10)",
      "List.map(\\v -> v + k, [1, 2]); List([Int(11), Int(12)])",
      "List.map(double, [1, 2]); List([Int(2), Int(4)])",
      "List.map(\\v -> v[0] + 1, [1]); List([Int(2)])"})
  void higherOrderListFunctions(String expr, String value) {
    assertThat(valueOf("aux k = 10\naux double = \\v -> v * 2\nout z\nz = " + expr))
        .isEqualTo(value);
  }

  @Test
  void callbackReadingAnAbsentStreamMakesTheResultAbsent() {
    // Like every strict form: no error while k has no value yet, the result once it has one.
    String head = "in k\nout z\nz = ";
    assertThat(series(head + "List.map(\\v -> v * k, [1, 2])", "| k=deferred | k=10 | "))
        .isEqualTo("- Deferred List([Int(10), Int(20)]) List([Int(10), Int(20)])");
    assertThat(series(head + "List.filter(\\v -> v > k, [1, 2])", "| k=deferred | k=1"))
        .isEqualTo("- Deferred List([Int(2)])");
    assertThat(series(head + "List.fold(\\a, v -> a + v * k, 0, [1, 2])", "| k=deferred | k=2"))
        .isEqualTo("- Deferred Int(6)");
  }

  @Test
  void filterCallbackMustReturnBool() {
    assertThat(describe(runtimeError("in x\nout z\nz = List.filter(\\v -> v, [x])", "x=1")))
        .isEqualTo("tick 0: stream 'z': the callback of List.filter must return Bool, got Int");
  }

  @Test
  void listFunctionOnANonList() {
    assertThat(describe(runtimeError("in l\nout z\nz = List.map(\\v -> v, l)", "l=1")))
        .isEqualTo("tick 0: stream 'z': List.map cannot be applied to Int");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = ';', value = {
      "List.map(\\v -> v[1], l); 3:21 temporal operator e[1] is not allowed inside a "
          + "List.map/filter/fold callback",
      "List.filter(\\v -> x[2] > v, l); 3:24 temporal operator e[2] is not allowed inside a "
          + "List.map/filter/fold callback",
      "List.map(\\v -> init(v, 0), l); 3:20 temporal operator init is not allowed inside a "
          + "List.map/filter/fold callback",
      "List.map(\\v -> when(v), l); 3:20 temporal operator when is not allowed inside a "
          + "List.map/filter/fold callback",
      "List.map(\\v -> update(v, x), l); 3:20 temporal operator update is not allowed "
          + "inside a List.map/filter/fold callback",
      "List.map(\\v -> latch(v, x), l); 3:20 temporal operator latch is not allowed inside "
          + "a List.map/filter/fold callback",
      "List.fold(\\a, v -> a + (v + 1)[1], 0, l); 3:35 temporal operator e[1] is not "
          + "allowed inside a List.map/filter/fold callback",
      "List.map(\\v -> \\w -> w[1], l); 3:27 temporal operator e[1] is not allowed inside a "
          + "List.map/filter/fold callback",
      "List.map(\\v -> dynamic(v), l); 3:20 dynamic properties are not allowed inside a "
          + "List.map/filter/fold callback"})
  void temporalOperatorsInsideCallbacksAreCompileErrors(String expr, String error) {
    assertThat(where(compileError("in x\nin l\nz = " + expr + "\nout z"))).isEqualTo(error);
  }

  @Test
  void callbackGivenAsAFunctionValueMayNotKeepStateEither() {
    // Not visible to the checker: the callback is an aux function, or calls one.
    assertThat(describe(runtimeError("in x\naux prev = \\v -> default(v[1], 0)\nout z\n"
        + "z = List.map(prev, [x])", "x=1"))).isEqualTo("tick 0: stream 'z': "
        + "temporal operator e[1] is not allowed inside a List.map/filter/fold callback");
    assertThat(describe(runtimeError("in x\naux first = \\v -> init(v, 0)\nout z\n"
        + "z = List.filter(\\v -> first(v) > 0, [x])", "x=1"))).isEqualTo("tick 0: stream 'z': "
        + "temporal operator init is not allowed inside a List.map/filter/fold callback");
  }

  @Test
  void functionWithStateIsFineOutsideCallbacks() {
    assertThat(series("in x\naux prev = \\v -> default(v[1], 0)\nout z\nz = [prev(x)]",
        "x=1 | x=2")).isEqualTo("List([Int(0)]) List([Int(1)])");
  }

  // ---- errors ----

  @Test
  void outputCannotCarryAFunction() {
    assertThat(where(compileError("out f\nf = \\v -> v")))
        .isEqualTo("2:1 output stream 'f' cannot carry a function (declare it aux)");
  }

  @Test
  void wrongNumberOfArguments() {
    // An unannotated aux stream is Any (gradual typing), so only an annotated one is checked
    // at compile time; the other fails when it is called.
    assertThat(where(compileError("aux f: Int -> Int = \\v: Int -> v\nout z\nz = f(1, 2)")))
        .isEqualTo("3:6 function expects 1 argument, got 2");
    assertThat(describe(runtimeError("aux f = \\v -> v\nout z\nz = f(1, 2)", "")))
        .isEqualTo("tick 0: stream 'z': function expects 1 argument, got 2");
  }

  @Test
  void callingANonFunction() {
    assertThat(where(compileError("in x: Int\nout z\nz = x(1)")))
        .isEqualTo("3:6 cannot call a value of type Int");
    assertThat(describe(runtimeError("in x\nout z\nz = x(1)", "x=1")))
        .isEqualTo("tick 0: stream 'z': cannot call a value of type Int");
  }

  @Test
  void argumentOfTheWrongTypeForATypedParameter() {
    assertThat(where(compileError("aux f: Int -> Int = \\v: Int -> v\nout z\nz = f(\"a\")")))
        .isEqualTo("3:6 function argument 1 has type Str, expected Int");
    assertThat(describe(runtimeError("in x\naux f = \\v: Int -> v\nout z\nz = f(x)", "x=1.5")))
        .isEqualTo("tick 0: stream 'z': function parameter 'v' expects Int, got Float");
  }

  @Test
  void duplicateParameter() {
    assertThat(where(compileError("aux f = \\a, a -> a\nout z\nz = f(1, 2)")))
        .isEqualTo("1:13 duplicate parameter 'a'");
  }
}
