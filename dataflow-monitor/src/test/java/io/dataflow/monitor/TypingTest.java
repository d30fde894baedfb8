package io.dataflow.monitor;

import static io.dataflow.monitor.Specs.compileError;
import static io.dataflow.monitor.Specs.describe;
import static io.dataflow.monitor.Specs.monitor;
import static io.dataflow.monitor.Specs.runtimeError;
import static io.dataflow.monitor.Specs.series;
import static io.dataflow.monitor.Specs.where;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Gradual, strict and untyped checking (docs/language.md#typing). */
class TypingTest {

  // ---- gradual (the default) ----

  @Test
  void annotatedStreamWithAnotherExpressionTypeIsACompileError() {
    assertThat(where(compileError("out z: Int\nz = \"a\" ++ \"b\""))).isEqualTo(
        "2:9 type mismatch: stream 'z' is declared Int but its equation has type Str");
  }

  @Test
  void intAndFloatAreDistinctTypes() {
    assertThat(where(compileError("out z: Float\nz = 1"))).isEqualTo(
        "2:5 type mismatch: stream 'z' is declared Float but its equation has type Int");
  }

  @Test
  void collectionTypesAreCheckedByElement() {
    assertThat(where(compileError("out z: List<Int>\nz = [\"a\"]"))).isEqualTo(
        "2:5 type mismatch: stream 'z' is declared List<Int> but its equation has type "
            + "List<Str>");
    assertThat(where(compileError("out z: Map<Str>\nz = {\"a\": 1}"))).isEqualTo(
        "2:5 type mismatch: stream 'z' is declared Map<Str> but its equation has type Map<Int>");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = ';', value = {
      "s + 1; 5:7 operator '+' cannot be applied to Str and Int",
      "n ++ s; 5:7 operator '++' cannot be applied to Int and Str",
      "n && b; 5:7 operator '&&' cannot be applied to Int and Bool",
      "b => n; 5:7 operator '=>' cannot be applied to Bool and Int",
      "s < n; 5:7 operator '<' cannot be applied to Str and Int",
      "[n] < [n]; 5:9 operator '<' cannot be applied to List<Int> and List<Int>",
      "-s; 5:5 operator '-' cannot be applied to Str",
      "!n; 5:5 operator '!' needs Bool, found Int",
      "if n then 1 else 2; 5:8 the condition of if needs Bool, found Int",
      "List.get([1], s); 5:5 List.get cannot be applied to Str",
      "List.len(n); 5:5 List.len cannot be applied to Int",
      "Map.get(n, \"k\"); 5:5 Map.get cannot be applied to Int",
      "abs(s); 5:5 abs cannot be applied to Str",
      "default(n); 5:5 default expects 2 arguments, got 1"})
  void operatorTypeErrorsCarryTheirPosition(String expr, String error) {
    assertThat(where(compileError("in s: Str\nin n: Int\nin b: Bool\nout z\nz = " + expr)))
        .isEqualTo(error);
  }

  @Test
  void untypedStreamIsCheckedWhenItReachesAnAnnotatedStream() {
    DataflowMonitor m = monitor("in x\nout z: Int\nz = x");
    assertThat(series(m, "x=1")).isEqualTo("Int(1)");
    assertThat(describe(runtimeError(m, "x=\"a\""))).isEqualTo(
        "tick 1: stream 'z': stream 'z' is declared Int but got a value of type Str");
  }

  @Test
  void mixedIntFloatArithmeticIsFloat() {
    assertThat(series("in n: Int\nout z: Float\nz = n * 0.5", "n=3")).isEqualTo("Float(1.5)");
  }

  @Test
  void intPowerOfANegativeLiteralIsFloat() {
    assertThat(series("in n: Int\nout z: Float\nz = n ** -1", "n=4")).isEqualTo("Float(0.25)");
    assertThat(where(compileError("in n: Int\nout z: Int\nz = n ** -1"))).isEqualTo(
        "3:7 type mismatch: stream 'z' is declared Int but its equation has type Float");
  }

  // ---- strict ----

  @Test
  void strictRejectsAnUnannotatedOutput() {
    assertThat(where(compileError("in x: Int\nout z\nz = x", TypingMode.STRICT)))
        .isEqualTo("2:5 strict typing: stream 'z' needs a type annotation");
  }

  @Test
  void strictRejectsUnannotatedInputsAndAuxToo() {
    // The contract names outputs only (docs/decisions.md, "Strict mode annotates every stream").
    // The TC's strict checker demands an annotation for every computed stream (aux too) and types
    // expressions only from annotations, so an unannotated input cannot be used there either;
    // TypingMode.STRICT says so up front.
    SpecException e = compileError("in x\naux t: Int\nt = 1\naux u\nu = 2\nout z: Int\nz = t",
        TypingMode.STRICT);
    assertThat(e.diagnostics()).extracting(Object::toString).containsExactly(
        "spec.dsrv:1:4: strict typing: stream 'x' needs a type annotation",
        "spec.dsrv:4:5: strict typing: stream 'u' needs a type annotation");
  }

  @Test
  void strictRejectsAValueThatWouldNeedARunTimeCheck() {
    assertThat(where(compileError("in n: Int\nout z: Int\nz = 2 ** n", TypingMode.STRICT)))
        .isEqualTo("3:7 strict typing: stream 'z' is declared Int but its equation has type Any");
  }

  @Test
  void strictAcceptsAFullyTypedSpec() {
    assertThat(series(monitor("in x: Int\naux t: Int\nt = x * 2\nout z: Bool\nz = t > 3",
        TypingMode.STRICT), "x=1 | x=2")).isEqualTo("Bool(false) Bool(true)");
  }

  // ---- untyped ----

  @Test
  void untypedIgnoresAnnotations() {
    DataflowMonitor m = monitor("in x: Int\nout z: Int\nz = x ++ \"!\"", TypingMode.UNTYPED);
    assertThat(series(m, "x=\"a\"")).isEqualTo("Str(\"a!\")");
  }

  @Test
  void untypedReportsOperatorTypeErrorsAtRunTime() {
    assertThat(describe(runtimeError(monitor("in s: Str\nout z\nz = s + 1", TypingMode.UNTYPED),
        "s=\"a\""))).isEqualTo("tick 0: stream 'z': operator '+' cannot be applied to Str and Int");
  }

  @Test
  void untypedStillChecksTheNumberOfArguments() {
    // Arity is syntax, not typing: without this check the monitor could not even be built.
    assertThat(where(compileError("out z\nz = default(1)", TypingMode.UNTYPED)))
        .isEqualTo("2:5 default expects 2 arguments, got 1");
    assertThat(where(compileError("out z\nz = abs()", TypingMode.UNTYPED)))
        .isEqualTo("2:5 abs expects 1 argument, got 0");
  }
}
