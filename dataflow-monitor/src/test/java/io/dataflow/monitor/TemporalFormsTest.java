package io.dataflow.monitor;

import static io.dataflow.monitor.Specs.describe;
import static io.dataflow.monitor.Specs.monitor;
import static io.dataflow.monitor.Specs.run;
import static io.dataflow.monitor.Specs.runtimeError;
import static io.dataflow.monitor.Specs.series;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The time-related operators of docs/language.md#time (except {@code dynamic}/{@code defer},
 * see {@link DynamicPropertiesTest}). Each case is a spec over inputs x, y, t (untyped) and
 * c (Bool); {@code -} in an expected series is NoVal.
 */
class TemporalFormsTest {
  private static final String SPEC = "in x\nin y\nin t\nin c: Bool\nout z\nz = ";

  @ParameterizedTest(name = "{0} over {1}")
  @CsvSource(delimiter = ';', value = {
      // e[0] lifts; a bare reference does not.
      "x[0]; x=1 | | x=3; Int(1) Int(1) Int(3)",
      "x; x=1 | | x=3; Int(1) - Int(3)",
      "x[0]; | x=2; - Int(2)",
      "x[1][0]; x=1 | ; Deferred Int(1)",
      // e[n]: Deferred until n samples were committed.
      "x[1]; x=0 | x=1 | x=2 | x=3; Deferred Int(0) Int(1) Int(2)",
      "x[2]; x=1 | x=2 | x=3 | x=4; Deferred Deferred Int(1) Int(2)",
      // a NoVal sample repeats the delay's own last non-NoVal result ...
      "x[1]; x=1 | | x=3 | | ; Deferred Int(1) Int(1) Int(3) Int(3)",
      // ... which is Deferred while nothing was ever read
      "x[1]; | x=5 | ; Deferred Deferred Int(5)",
      // Deferred is a real value: stored in history and read back
      "x[1]; x=1 | x=deferred | | ; Deferred Int(1) Deferred Deferred",
      "x[1][1]; x=1 | x=2 | x=3; Deferred Deferred Int(1)",
      // a compound operand is evaluated (and lifted) every tick
      "(x + y)[1]; x=1 y=10 | y=20 | | x=4 y=40 | ; "
          + "Deferred Int(11) Int(21) Int(21) Int(44)",
      "(x + 1)[1]; | x=1 | | ; Deferred Deferred Int(2) Int(2)",
      // default: d when the lifted e is Deferred; it does not fill absence
      "default(x[1], 0); x=5 | x=6; Int(0) Int(5)",
      "default(x, 0); | x=1 | ; - Int(1) Int(1)",
      "default(x, 0); x=deferred | | x=2; Int(0) Int(0) Int(2)",
      "default(x, y); x=deferred y=7 | x=deferred; Int(7) -",
      // init: d until e is first non-NoVal, then e raw
      "init(x, 0); | | x=5 | | x=6; Int(0) Int(0) Int(5) - Int(6)",
      "init(x[1], 0); x=1 | x=2; Deferred Int(1)",
      "init(x, y); y=1 | | x=3; Int(1) - Int(3)",
      // is_defined: the lifted e is not Deferred; never seen counts as defined
      "is_defined(x[1]); x=1 | x=2; Bool(false) Bool(true)",
      "is_defined(x); | ; Bool(true) Bool(true)",
      "is_defined(x); x=deferred | | x=1; Bool(false) Bool(false) Bool(true)",
      // when: false until the lifted e is first present, then true forever
      "when(x); | x=deferred | x=3 | | x=deferred; "
          + "Bool(false) Bool(false) Bool(true) Bool(true) Bool(true)",
      "when(x[1]); x=1 | x=2 | ; Bool(false) Bool(true) Bool(true)",
      "when(x); x=1 | | ; Bool(true) Bool(true) Bool(true)",
      // update: lifted a until lifted b is first present, then lifted b forever
      "update(x, y); x=0 | x=1 | x=2 | x=3 | y=99 | y=100; "
          + "Int(0) Int(1) Int(2) Int(3) Int(99) Int(100)",
      "update(x, y); x=1 | | y=5 | x=9; Int(1) Int(1) Int(5) Int(5)",
      "update(x, y); x=1 y=deferred | x=2; Int(1) Int(2)",
      "update(x, y); x=1 | y=2 | y=deferred | x=7; Int(1) Int(2) Deferred Deferred",
      "update(x[1], y); x=1 | x=2 | y=9; Deferred Int(1) Int(9)",
      "update(x, y); | y=4; - Int(4)",
      // latch: NoVal when t is raw NoVal, else the lifted v
      "latch(x, t); x=1 | t=() | | x=4 t=(); - Int(1) - Int(4)",
      "latch(x, t); x=1 t=deferred; Int(1)",
      "latch(x, t); t=1 | x=2 t=1; - Int(2)",
      "latch(x[1], t); x=1 t=() | t=(); Deferred Int(1)",
      // if: condition lifted; each branch lifted; a NoVal branch makes the result NoVal
      "if c then x else y; c=true x=1 y=10 | c=false | x=3 | c=true; "
          + "Int(1) Int(10) Int(10) Int(3)",
      "if c then x else y; c=true x=1; -",
      "if c then 1 else 2; | c=false; - Int(2)",
      "if c[1] then 1 else 2; c=true | c=false | ; Deferred Int(1) Int(2)",
      "if c then x[1] else 0; c=true x=1 | ; Deferred Int(1)",
      // both branches are evaluated every tick and keep their own state
      "if c then (x + 0)[1] else -1; c=false x=1 | x=2 | c=true x=3; Int(-1) Int(-1) Int(2)"})
  void temporalForm(String expr, String ticks, String values) {
    assertThat(series(SPEC + expr, ticks)).isEqualTo(values);
  }

  @Test
  void historyIsCommittedOnlyAfterTheWholeTick() {
    // w reads z[1] in the same tick z is computed: it must see the previous z, not this one.
    String spec = "out z\nout w\nz = default(z[1], 0) + 1\nw = default(z[1], 0)";
    assertThat(run(spec, " | | ")).containsExactly(
        "z[0] = Int(1)", "w[0] = Int(0)",
        "z[1] = Int(2)", "w[1] = Int(1)",
        "z[2] = Int(3)", "w[2] = Int(2)");
  }

  @Test
  void delayResultsAreOperatorStatePerOccurrence() {
    // Two delays of the same stream read one shared ring but keep their own last results.
    String spec = "in x\nout a\nout b\na = x[1]\nb = x[2]";
    assertThat(run(spec, "x=1 | x=2 | | ")).containsExactly(
        "a[0] = Deferred", "b[0] = Deferred",
        "a[1] = Int(1)", "b[1] = Deferred",
        "a[2] = Int(2)", "b[2] = Int(1)",
        "a[3] = Int(2)", "b[3] = Int(2)");
  }

  @Test
  void errorInTheUnselectedBranchDoesNotMatter() {
    DataflowMonitor m = monitor(SPEC + "if c then 10 / x else 0");
    assertThat(series(m, "c=false x=0 | x=5 c=true")).isEqualTo("Int(0) Int(2)");
  }

  @Test
  void errorInTheSelectedBranchFails() {
    assertThat(describe(runtimeError(SPEC + "if c then 10 / x else 0", "c=false x=0 | c=true")))
        .isEqualTo("tick 1: stream 'z': division by zero");
  }

  @Test
  void errorInTheConditionAlwaysFails() {
    assertThat(describe(runtimeError(SPEC + "if 1 / x > 0 then 1 else 2", "x=0")))
        .isEqualTo("tick 0: stream 'z': division by zero");
  }

  @Test
  void counterOfSectionOne() {
    String spec = "// counter: running sum of x\nin x: Int\nout z: Int\nz = default(z[1], 0) + x";
    // At tick 2 x is absent: the addition holds x = 2 (sample-and-hold), so the sum goes on.
    assertThat(series(spec, "x=1 | x=2 | | x=4")).isEqualTo("Int(1) Int(3) Int(5) Int(9)");
  }
}
