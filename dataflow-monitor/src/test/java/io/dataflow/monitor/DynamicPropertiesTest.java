package io.dataflow.monitor;

import static io.dataflow.monitor.Specs.assertThrowsAgain;
import static io.dataflow.monitor.Specs.compile;
import static io.dataflow.monitor.Specs.compileError;
import static io.dataflow.monitor.Specs.describe;
import static io.dataflow.monitor.Specs.monitor;
import static io.dataflow.monitor.Specs.row;
import static io.dataflow.monitor.Specs.run;
import static io.dataflow.monitor.Specs.runtimeError;
import static io.dataflow.monitor.Specs.series;
import static io.dataflow.monitor.Specs.where;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.MonitorException;
import org.junit.jupiter.api.Test;

/** {@code dynamic}/{@code eval}/{@code defer} (docs/dynamic-properties.md). */
class DynamicPropertiesTest {
  private static final String DYNAMIC = "in x\nin y\nin e\nout z\nz = dynamic(e)";
  private static final String DEFER = "in x\nin y\nin e\nout z\nz = defer(e)";

  // ---- conformance cases and section 9 ----

  @Test
  void conformanceCaseDefer() {
    assertThat(run("in x\nin e\nout z\nz = defer(e)",
        "x=0 | x=1 e=\"x + 1\" | x=2 | x=3 | x=4 | x=5")).containsExactly(
        "z[1] = Int(2)", "z[2] = Int(3)", "z[3] = Int(4)", "z[4] = Int(5)", "z[5] = Int(6)");
  }

  @Test
  void conformanceCaseDynamicEval() {
    assertThat(run("in x\nin e\nout z\nz = eval(e)",
        "x=1 | x=2 e=\"x + 1\" | x=3 | x=4 e=\"x * 10\" | x=5")).containsExactly(
        "z[1] = Int(3)", "z[2] = Int(4)", "z[3] = Int(40)", "z[4] = Int(50)");
  }

  @Test
  void deferExampleOfSectionNine() {
    assertThat(series(DEFER, "x=1 | x=2 e=\"x + 1\" | x=3")).isEqualTo("- Int(3) Int(4)");
  }

  @Test
  void heldSourceExampleOfSectionNine() {
    assertThat(run("in x\nin e\nout z\nz = eval(e)", "| | | | e=\"x + 4\" | x=5"))
        .containsExactly("z[5] = Int(9)");
  }

  // ---- the source ----

  @Test
  void beforeAnyTextNoValGivesNoValAndDeferredGivesDeferred() {
    assertThat(series(DYNAMIC, "x=1 | x=1 e=deferred | x=2 e=\"x\""))
        .isEqualTo("- Deferred Int(2)");
    assertThat(series(DEFER, "x=1 | x=1 e=deferred | x=2 e=\"x\""))
        .isEqualTo("- Deferred Int(2)");
  }

  @Test
  void aDeferredBeforeTheFirstTextIsNotTheLastResultABodyRepeats() {
    // y never arrives: the first body's result is NoVal, and nothing but the Deferred of the
    // source came before it, which no body produced.
    assertThat(series(DYNAMIC, "x=1 e=deferred | x=1 e=\"y\" | x=2 | y=5 | x=3"))
        .isEqualTo("Deferred - - Int(5) Int(5)");
    // After a body's Deferred (the source), a NoVal result repeats that Deferred.
    assertThat(series(DYNAMIC, "e=\"y\" y=1 | e=deferred | e=\"y + x\""))
        .isEqualTo("Int(1) Deferred Deferred");
  }

  @Test
  void nonStringSourceIsARuntimeError() {
    assertThat(describe(runtimeError(DYNAMIC, "x=1 | e=3")))
        .isEqualTo("tick 1: stream 'z': the source of dynamic must be a Str, got Int");
    assertThat(describe(runtimeError(DEFER, "e=true")))
        .isEqualTo("tick 0: stream 'z': the source of defer must be a Str, got Bool");
  }

  @Test
  void sourceOfAKnownNonStringTypeIsACompileError() {
    assertThat(where(compileError("in e: Int\nout z\nz = dynamic(e)")))
        .isEqualTo("3:13 the source of a dynamic property must be Str or Expr<T>, found Int");
  }

  @Test
  void deferredSourceStillAdvancesTheActiveBodyButYieldsDeferred() {
    // The body's compound delay takes its sample at tick 1 although the source is Deferred.
    DataflowMonitor m = monitor(DYNAMIC);
    assertThat(series(m, "e=\"(x * 1)[1]\" x=1 | e=deferred x=2 | e=\"(x * 1)[1]\" x=3"))
        .isEqualTo("Deferred Deferred Int(2)");
    assertThat(m.revision().properties()).isEqualTo(1);
  }

  @Test
  void deferIgnoresLaterTexts() {
    // "Later texts are ignored": once sealed, defer does not look at its source at all, so a
    // later non-string or Deferred source is ignored too rather than being an error.
    DataflowMonitor m = monitor(DEFER);
    assertThat(series(m, "x=1 e=\"x + 1\" | x=2 e=\"x * 100\" | x=3 e=5 | x=4 e=deferred"))
        .isEqualTo("Int(2) Int(3) Int(4) Int(5)");
    assertThat(m.revision().properties()).isEqualTo(1);
  }

  @Test
  void dynamicFollowsEveryNewText() {
    DataflowMonitor m = monitor(DYNAMIC);
    assertThat(series(m, "x=1 e=\"x + 1\" | x=2 e=\"x * 100\" | x=3"))
        .isEqualTo("Int(2) Int(200) Int(300)");
    assertThat(m.revision().properties()).isEqualTo(2);
  }

  // ---- state of a body ----

  @Test
  void historyInsideABodyStartsAtActivation() {
    assertThat(series(DYNAMIC, "x=1 | x=2 | x=3 e=\"x[1]\" | x=4"))
        .isEqualTo("- - Deferred Int(3)");
  }

  @Test
  void outerStreamsAreReadWithRunLongSampleAndHold() {
    // x = 7 arrived two ticks before the body was activated, and is absent at activation.
    assertThat(series(DYNAMIC, "x=7 | | e=\"x + 1\"")).isEqualTo("- - Int(8)");
  }

  @Test
  void aComputedStreamReadsAsItsLastPresentValueOfTheRun() {
    // a is present on the first tick only; the body starts reading it two ticks later, and a
    // later present value replaces the remembered one.
    String spec = "in x\nin e\naux a\nout z\na = x\nz = dynamic(e)";
    assertThat(series(spec, "x=5 | | e=\"a * 2\" | x=1 | | x=3 e=\"a\" |"))
        .isEqualTo("- - Int(10) Int(2) Int(2) Int(3) Int(3)");
  }

  @Test
  void aSourceTextArrivingAsANewButEqualStringEveryTickKeepsTheBody() {
    // The trace reader makes a new string for every tick's text: the body and its delay keep
    // their state, and an absent text holds the last one.
    assertThat(series(DYNAMIC, "e=\"x[1]\" x=1 | e=\"x[1]\" x=2 | e=\"x[1]\" x=3 | x=4"))
        .isEqualTo("Deferred Int(1) Int(2) Int(3)");
  }

  @Test
  void sameTextKeepsTheEvaluatorAndAnOlderTextDoesNotReviveOldState() {
    DataflowMonitor m = monitor(DYNAMIC);
    assertThat(series(m, "e=\"x[1]\" x=1 | e=\"x[1]\" x=2 | e=\"x * 10\" x=3 | e=\"x[1]\" x=4 "
        + "| x=5")).isEqualTo("Deferred Int(1) Int(30) Deferred Int(4)");
    assertThat(m.revision().properties()).isEqualTo(3);
  }

  @Test
  void revisionCountsEveryInstalledBody() {
    DataflowMonitor m = monitor(DYNAMIC);
    assertThat(m.revision().properties()).isZero();
    series(m, "x=1 | e=deferred");
    assertThat(m.revision().properties()).isZero();
    series(m, "e=\"x\" | e=\"x\" | ");
    assertThat(m.revision().properties()).isEqualTo(1);
    series(m, "e=\"x + 0\"");
    assertThat(m.revision().properties()).isEqualTo(2);
    assertThat(m.revision().root()).isZero();
  }

  @Test
  void noValBodyResultRepeatsTheLastResult() {
    // Inside one body an outer stream reads as its last present value, so only a stream that
    // was never present makes a body NoVal: here the new body "y" before y arrives. The lifting
    // memory belongs to the dynamic occurrence, so it spans bodies (a choice: the contract says
    // "the result is lifted" without naming the body; docs/decisions.md, "The lifted result of
    // dynamic spans bodies").
    assertThat(series(DYNAMIC, "x=1 e=\"x\" | e=\"y\" | y=5")).isEqualTo("Int(1) Int(1) Int(5)");
  }

  @Test
  void bodyMayCallAnAuxFunctionThatReadsHistory() {
    // The function is top-level code: its y[1] reads y's history of the whole run, not a
    // ring that starts when the body is activated.
    String spec = "in x\nin y\nin e\naux f = \\v -> v + default(y[1], 0)\nout z\n"
        + "z = dynamic(e)";
    assertThat(series(spec, "x=1 y=10 | x=2 y=20 e=\"f(x)\" | x=3 y=30"))
        .isEqualTo("- Int(12) Int(23)");
  }

  @Test
  void auxFunctionCalledInABodyMayReadTheEnclosingStreamsHistory() {
    String spec = "in x\nin e\naux f = \\v -> v + default(z[1], 0)\nout z\nz = dynamic(e)";
    assertThat(series(spec, "x=1 e=\"f(x)\" | x=2 | x=3")).isEqualTo("Int(1) Int(3) Int(6)");
  }

  @Test
  void lambdaInABodyKeepsItsStateWithTheBody() {
    assertThat(series(DYNAMIC, "x=1 e=\"(\\v -> v + x[1])(100)\" | x=2 | x=3"))
        .isEqualTo("Deferred Int(101) Int(102)");
  }

  @Test
  void temporalOperatorInACallbackInsideABodyIsRejected() {
    assertThat(describe(runtimeError(DYNAMIC, "x=1 e=\"List.map(\\v -> v[1], [x])\"")))
        .isEqualTo("tick 0: stream 'z': temporal operator e[1] is not allowed inside a "
            + "List.map/filter/fold callback");
  }

  // ---- dependencies ----

  @Test
  void bodyReadingALaterComputedStreamSeesThisTicksValue() {
    String spec = "in x\nin e\nout z\nout w\nz = dynamic(e)\nw = x * 10";
    assertThat(compile(spec).evaluationOrder()).containsExactly("z", "w");
    assertThat(run(spec, "x=1 e=\"w + 1\" | x=2")).containsExactly(
        "z[0] = Int(11)", "w[0] = Int(10)", "z[1] = Int(21)", "w[1] = Int(20)");
  }

  @Test
  void orderRepairIsTransitive() {
    // The body reads w early; w reads v, which the static order also puts after z.
    String spec = "in x\nin e\nout z\nout w\nout v\nz = dynamic(e)\nw = v * 10\nv = x + 1";
    assertThat(compile(spec).evaluationOrder()).containsExactly("z", "v", "w");
    assertThat(run(spec, "x=1 e=\"w + 1\" | x=2")).containsExactly(
        "z[0] = Int(21)", "w[0] = Int(20)", "v[0] = Int(2)",
        "z[1] = Int(31)", "w[1] = Int(30)", "v[1] = Int(3)");
  }

  @Test
  void bodyHistoryIsNotASameTickDependency() {
    // w depends on z; the body reads w only through w[1], which is legal.
    String spec = "in x\nin e\nout z\nout w\nz = dynamic(e)\nw = default(z, 0) + x";
    assertThat(run(spec, "x=1 e=\"default(w[1], 0) + 100\" | x=2")).containsExactly(
        "z[0] = Int(100)", "w[0] = Int(101)", "z[1] = Int(201)", "w[1] = Int(203)");
  }

  @Test
  void dynamicCycleThroughAStaticDependencyIsARuntimeError() {
    MonitorException e = runtimeError("in e\nout z\nout w\nz = dynamic(e)\nw = z + 1", "e=\"w\"");
    // w is the stream that read z while z was being evaluated.
    assertThat(describe(e))
        .isEqualTo("tick 0: stream 'w': dynamic same-tick dependency cycle: z -> w -> z");
  }

  /**
   * Generated code repairs the order for every stream a body can reach, also through a lambda:
   * a {@code dynamic} built at a call site's first call, or a closure read through history that
   * reads a stream outside the body's scope. The cycle is found, and named, as the interpreter
   * finds it; without a cycle both give the same outputs.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.EnumSource(DataflowMonitor.Fusion.class)
  void orderRepairReachesStreamsThroughLambdas(DataflowMonitor.Fusion fusion) {
    String insideLambda = "in x: Int\nin s: Str\naux f = \\t: Str -> dynamic(t)\nout o = f(s)\n"
        + "out c = o + x";
    String closure = "in x: Int\nin s: Str\naux f = \\v: Int -> v + w\naux g = f[1]\n"
        + "aux w: Int = o + x\nout o: Int\no = dynamic(s, {g})";
    String ticks = "x=0 | x=1 | x=2 s=\"%s\" | x=3";
    assertThat(describe(runtimeError(monitorWith(insideLambda, fusion),
        String.format(ticks, "c")))).isEqualTo(
        "tick 2: stream 'c': dynamic same-tick dependency cycle: o -> c -> o");
    assertThat(describe(runtimeError(monitorWith(closure, fusion),
        String.format(ticks, "g(1)")))).isEqualTo(
        "tick 2: stream 'w': dynamic same-tick dependency cycle: o -> w -> o");
    String noCycle = "in x: Int\nin s: Str\naux f = \\t: Str -> dynamic(t)\nout o = f(s)\n"
        + "out c = x * 2";
    assertThat(run(monitorWith(noCycle, fusion), String.format(ticks, "c + 1")))
        .containsExactly("c[0] = Int(0)", "c[1] = Int(2)", "o[2] = Int(5)", "c[2] = Int(4)",
            "o[3] = Int(7)", "c[3] = Int(6)");
  }

  private static DataflowMonitor monitorWith(String spec, DataflowMonitor.Fusion fusion) {
    return DataflowMonitor.create(compile(spec),
        DataflowMonitor.Options.DEFAULT.withFusion(fusion));
  }

  @Test
  void cycleBetweenTwoBodiesIsARuntimeError() {
    MonitorException e = runtimeError(
        "in e\nin f\nout a\nout b\na = dynamic(e)\nb = dynamic(f)", "e=\"1\" f=\"a\" | e=\"b\"");
    assertThat(describe(e))
        .isEqualTo("tick 1: stream 'b': dynamic same-tick dependency cycle: a -> b -> a");
  }

  @Test
  void errorSwallowedByAnUnselectedBranchDoesNotMisnameTheFailingStream() {
    // a's then-branch evaluates b early (b fails, but the branch is not selected); the error
    // that escapes afterwards is a's own.
    String spec = "in c: Bool\nin s\nin x\nin y\nout a\nout b\n"
        + "a = (if c then dynamic(s) else 0) + 1 / y\nb = 10 % x";
    assertThat(describe(runtimeError(spec, "c=false s=\"b\" x=0 y=0")))
        .isEqualTo("tick 0: stream 'a': division by zero");
  }

  @Test
  void failureThatIsNotALanguageErrorStillNamesTheStreamOfTheBody() {
    // if is eager, so this self-application never stops: the JVM stack overflows inside the
    // body of z. The error must name z, not the input read last.
    String spec = "in e\naux f = \\s, n -> if n <= 0 then 0 else s(s, n - 1) + 1\n"
        + "out z\nz = dynamic(e)";
    assertThat(describe(runtimeError(spec, "e=\"f(f, 3)\"")))
        .isEqualTo("tick 0: stream 'z': internal error: java.lang.StackOverflowError");
  }

  // ---- scope and errors in bodies ----

  @Test
  void bodyMayNotReadTheEnclosingStream() {
    assertThat(describe(runtimeError(DYNAMIC, "e=\"z\""))).isEqualTo("tick 0: stream 'z': "
        + "invalid dynamic property \"z\" at 1:1: stream 'z' is not in the scope of this dynamic");
  }

  @Test
  void explicitScopeRestrictsTheReadableStreams() {
    String spec = "in x\nin y\nin e\nout z\nz = dynamic(e, {x})";
    assertThat(series(spec, "x=1 y=2 e=\"x + 1\"")).isEqualTo("Int(2)");
    assertThat(describe(runtimeError(spec, "x=1 y=2 e=\"x + y\""))).isEqualTo(
        "tick 0: stream 'z': invalid dynamic property \"x + y\" at 1:5: stream 'y' is not in "
            + "the scope of this dynamic");
  }

  @Test
  void unknownStreamInTheScopeIsACompileError() {
    assertThat(where(compileError("in e\nout z\nz = defer(e, {nope})")))
        .isEqualTo("3:5 unknown stream 'nope' in the scope of defer");
  }

  @Test
  void unknownStreamInABodyIsARuntimeError() {
    assertThat(describe(runtimeError(DYNAMIC, "e=\"x + nope\""))).isEqualTo(
        "tick 0: stream 'z': invalid dynamic property \"x + nope\" at 1:5: unknown stream 'nope'");
  }

  @Test
  void bodyParseErrorPoisonsTheMonitorAndSaysWhereInTheText() {
    DataflowMonitor m = monitor(DYNAMIC);
    assertThat(series(m, "x=1 e=\"x\"")).isEqualTo("Int(1)");
    MonitorException e = runtimeError(m, "e=\"x +\n  * 2\"");
    assertThat(describe(e)).isEqualTo("tick 1: stream 'z': invalid dynamic property "
        + "\"x +\\n  * 2\" at 2:3: expected an expression, found '*'");
    assertThrowsAgain(m, e);
  }

  @Test
  void bodyEndingEarlyReportsTheEndOfTheText() {
    assertThat(describe(runtimeError(DEFER, "e=\"x +\""))).isEqualTo("tick 0: stream 'z': "
        + "invalid dynamic property \"x +\" at 1:4: expected an expression, found end of input");
  }

  @Test
  void nestedDynamicIsRejected() {
    assertThat(runtimeError(DYNAMIC, "e=\"dynamic(y)\"").reason()).isEqualTo(
        "invalid dynamic property \"dynamic(y)\" at 1:1: dynamic properties cannot be nested");
  }

  @Test
  void typedDynamicRejectsABodyOfAnotherType() {
    DataflowMonitor m = monitor("in x\nin e\nout z\nz = dynamic(e: Int)");
    assertThat(series(m, "x=1 e=\"x + 1\"")).isEqualTo("Int(2)");
    assertThatThrownBy(() -> m.evaluate(row("e", "\"text\"")))
        .isInstanceOf(MonitorException.class)
        .hasMessage("tick 1: stream 'z': invalid dynamic property \"\\\"text\\\"\" at 1:1: "
            + "the property has type Str but Int is expected");
  }

  @Test
  void typedDynamicChecksAnUntypedBodyAtRunTime() {
    DataflowMonitor m = monitor("in x\nin e\nout z\nz = dynamic(e: Int)");
    assertThat(series(m, "x=1 e=\"x\"")).isEqualTo("Int(1)");
    assertThat(describe(runtimeError(m, "x=\"one\""))).isEqualTo("tick 1: stream 'z': "
        + "dynamic property produced a value of type Str but Int is expected");
  }
}
