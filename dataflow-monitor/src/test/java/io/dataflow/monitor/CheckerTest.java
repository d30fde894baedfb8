package io.dataflow.monitor;

import static io.dataflow.monitor.Specs.compile;
import static io.dataflow.monitor.Specs.compileError;
import static io.dataflow.monitor.Specs.run;
import static io.dataflow.monitor.Specs.where;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Names, equations, self-reference, cycles, evaluation order, history depth, keys (1, 5). */
class CheckerTest {

  @Test
  void unknownStream() {
    SpecException e = compileError("in x\nout z\nz = x + y");
    assertThat(e).hasMessage("spec.dsrv:3:9: unknown stream 'y'");
    assertThat(e.location().file()).isEqualTo("spec.dsrv");
  }

  @Test
  void unknownStreamUnderADelay() {
    assertThat(where(compileError("out z\nz = default(y[1], 0)")))
        .isEqualTo("2:13 unknown stream 'y'");
  }

  @Test
  void duplicateDeclaration() {
    assertThat(where(compileError("in x\nout z\nout z\nz = x")))
        .isEqualTo("3:5 duplicate declaration of stream 'z'");
  }

  @Test
  void duplicateEquation() {
    assertThat(where(compileError("in x\nout z\nz = x\nz = 1")))
        .isEqualTo("4:1 duplicate equation for stream 'z'");
  }

  @Test
  void inlineEquationCountsForDuplicates() {
    assertThat(where(compileError("out z = 1\nz = 2")))
        .isEqualTo("2:1 duplicate equation for stream 'z'");
  }

  @Test
  void missingEquationForOutputAndAux() {
    SpecException e = compileError("in x\nout z\naux t");
    assertThat(e.diagnostics()).extracting(Object::toString).containsExactly(
        "spec.dsrv:2:5: missing equation for output stream 'z'",
        "spec.dsrv:3:5: missing equation for aux stream 't'");
  }

  @Test
  void equationForAnInput() {
    assertThat(where(compileError("in x\nx = 1")))
        .isEqualTo("2:1 input stream 'x' cannot have an equation");
  }

  @Test
  void equationForAnUndeclaredStream() {
    assertThat(where(compileError("out z\nz = 1\nw = 2")))
        .isEqualTo("3:1 equation for undeclared stream 'w'");
  }

  @Test
  void everyErrorIsCollectedInSourceOrder() {
    SpecException e = compileError("out z\nz = a\nw = 1\nout v\nv = b");
    assertThat(e.diagnostics()).extracting(Object::toString).containsExactly(
        "spec.dsrv:2:5: unknown stream 'a'",
        "spec.dsrv:3:1: equation for undeclared stream 'w'",
        "spec.dsrv:5:5: unknown stream 'b'");
    assertThat(e).hasMessage("spec.dsrv:2:5: unknown stream 'a'");
  }

  // ---- self-reference and cycles ----

  @Test
  void selfReferenceWithoutDelayIsAnError() {
    assertThat(where(compileError("in x\nout z\nz = z + 1"))).isEqualTo(
        "3:5 stream 'z' refers to itself without a positive delay (write z[1])");
  }

  @Test
  void selfReferenceAtOffsetZeroIsAnError() {
    assertThat(where(compileError("out z\nz = z[0]"))).isEqualTo(
        "2:5 stream 'z' refers to itself without a positive delay (write z[1])");
  }

  @Test
  void compoundDelayOfItselfIsAnError() {
    // (z + 1)[1] evaluates z + 1 every tick: a same-tick reference (docs/language.md#time).
    assertThat(where(compileError("out z\nz = default((z + 1)[1], 0)"))).isEqualTo(
        "2:14 stream 'z' refers to itself without a positive delay (write z[1])");
  }

  @Test
  void selfReferenceUnderPositiveDelayIsLegal() {
    assertThat(run("in x\nout z\nz = default(z[1], 0) + x", "x=1 | x=2 | x=3"))
        .containsExactly("z[0] = Int(1)", "z[1] = Int(3)", "z[2] = Int(6)");
  }

  @Test
  void sameTickCycleNamesItsStreams() {
    SpecException e = compileError("in x\nout a\nout b\na = b + x\nb = a * 2");
    assertThat(where(e)).isEqualTo("4:1 same-tick dependency cycle: a -> b -> a "
        + "(break it with a positive delay such as x[1])");
  }

  @Test
  void longerCycleStartsAtTheStreamDeclaredFirst() {
    SpecException e = compileError("out c\nout a\nout b\na = b\nb = c\nc = a");
    assertThat(e.diagnostics()).hasSize(1);
    assertThat(e.reason()).startsWith("same-tick dependency cycle: c -> a -> b -> c ");
    assertThat(e.location().line()).isEqualTo(6);
  }

  @Test
  void cycleThroughACompoundDelayIsStillACycle() {
    assertThat(compileError("out a\nout b\na = default((b + 1)[1], 0)\nb = a").reason())
        .startsWith("same-tick dependency cycle: a -> b -> a");
  }

  @Test
  void cycleBrokenByADelayIsLegal() {
    String spec = "in x\nout a\nout b\na = default(b[1], 0) + x\nb = a * 2";
    assertThat(run(spec, "x=1 | x=1 | x=1")).containsExactly(
        "a[0] = Int(1)", "b[0] = Int(2)",
        "a[1] = Int(3)", "b[1] = Int(6)",
        "a[2] = Int(7)", "b[2] = Int(14)");
  }

  // ---- evaluation order ----

  @Test
  void evaluationOrderComesFromDependenciesNotDeclarations() {
    // The conformance case dependency_order.
    String spec = "in x: Int\nout alert: Bool\nout total: Int\nout scaled: Int\n"
        + "alert = total > 20\ntotal = default(total[1], 0) + scaled\nscaled = x * 2";
    assertThat(compile(spec).evaluationOrder()).containsExactly("scaled", "total", "alert");
    assertThat(run(spec, "x=4 | x=8")).containsExactly(
        "alert[0] = Bool(false)", "total[0] = Int(8)", "scaled[0] = Int(8)",
        "alert[1] = Bool(true)", "total[1] = Int(24)", "scaled[1] = Int(16)");
  }

  @Test
  void independentStreamsKeepDeclarationOrder() {
    assertThat(compile("in x\nout c = x\nout a = x\nout b = x").evaluationOrder())
        .containsExactly("c", "a", "b");
  }

  @Test
  void delayedReadIsNotASameTickDependency() {
    // a reads b only through b[1], so a need not wait for b.
    assertThat(compile("in x\nout a = default(b[1], 0)\nout b = x").evaluationOrder())
        .containsExactly("a", "b");
  }

  // ---- history depth ----

  @Test
  void historyDepthIsTheLargestOffsetRead() {
    DataflowProgram p = compile("in x\nin y\nout z\nout w\n"
        + "z = default(x[1], 0) + default(x[3], 0) + default(y[2], 0)\nw = x");
    assertThat(p.stream("x").orElseThrow().historyDepth()).isEqualTo(3);
    assertThat(p.stream("y").orElseThrow().historyDepth()).isEqualTo(2);
    assertThat(p.stream("z").orElseThrow().historyDepth()).isZero();
    assertThat(p.stream("w").orElseThrow().historyDepth()).isZero();
  }

  @Test
  void compoundDelayKeepsItsOwnRingNotTheStreamHistory() {
    assertThat(compile("in x\nout z = (x + 1)[2]").stream("x").orElseThrow().historyDepth())
        .isZero();
  }

  // ---- definition key ----

  @Test
  void declarationOrderAndLayoutDoNotChangeTheDefinitionKey() {
    String a = "in x: Int\nout z: Int\naux t\nt = x * 2\nz = default(z[1], 0) + t";
    String b = "// same streams\naux t = (x*2)\nin x: Int\nout z: Int =\n"
        + "  default(z[1], 0) + (t)";
    assertThat(compile(a).definitionKey()).isEqualTo(compile(b).definitionKey());
  }

  @Test
  void spellingVariantsDoNotChangeTheDefinitionKey() {
    assertThat(compile("in a\nin b\nout z = a and not b").definitionKey())
        .isEqualTo(compile("in a\nin b\nout z = a && !b").definitionKey());
  }

  @Test
  void changedExpressionChangesTheDefinitionKeyAndThatStreamsFingerprint() {
    DataflowProgram a = compile("in x\nout z = x + 1\nout w = x");
    DataflowProgram b = compile("in x\nout z = x + 2\nout w = x");
    assertThat(a.definitionKey()).isNotEqualTo(b.definitionKey());
    assertThat(a.stream("z").orElseThrow().fingerprint())
        .isNotEqualTo(b.stream("z").orElseThrow().fingerprint());
    assertThat(a.stream("w").orElseThrow().fingerprint())
        .isEqualTo(b.stream("w").orElseThrow().fingerprint());
  }

  @Test
  void changedTypeOrRoleChangesTheDefinitionKey() {
    String key = compile("in x\nout z = x").definitionKey();
    assertThat(compile("in x: Int\nout z = x").definitionKey()).isNotEqualTo(key);
    assertThat(compile("in x\naux z = x").definitionKey()).isNotEqualTo(key);
  }
}
