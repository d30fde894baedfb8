package io.dataflow.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.MonitorException;
import io.dataflow.core.Value;
import io.dataflow.monitor.eval.Node;
import io.dataflow.monitor.eval.StreamCell;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A transfer between programs with and without dynamic properties: the nodes a monitor takes
 * over were built for another program, yet evaluate in the new program's order, once per tick,
 * against the streams the new program declares.
 */
class StateTransferTest {
  private static DataflowMonitor.Options options(DataflowMonitor.Fusion fusion) {
    return DataflowMonitor.Options.DEFAULT.withFusion(fusion);
  }

  private static DataflowMonitor transfer(DataflowMonitor from, DataflowProgram to,
      DataflowMonitor.Fusion fusion) {
    return DataflowMonitor.transfer(from, to, TransferMapping.plan(from.program(), to),
        options(fusion)).monitor();
  }

  private static DataflowProgram compile(String spec) {
    return DataflowProgram.compile("s.dsrv", spec);
  }

  @ParameterizedTest
  @EnumSource(value = DataflowMonitor.Fusion.class, names = {"OFF", "EAGER"})
  void aBodyReadingKeptStreamsAheadOfTheOrderSeesThisTicksValues(DataflowMonitor.Fusion f) {
    DataflowProgram before = compile("in x\nin s\nout z\nout w\naux y\nz = s\nw = y + 1\n"
        + "y = x * 2");
    DataflowProgram after = compile("in x\nin s\nout z\nout w\naux y\nz = dynamic(s)\n"
        + "w = y + 1\ny = x * 2");
    DataflowMonitor m = DataflowMonitor.create(before, options(f));
    m.evaluate(Map.of("x", Value.of(1), "s", Value.of("w")));
    DataflowMonitor next = transfer(m, after, f);
    // w and y kept their nodes, built without dynamic properties; z's body asks for w before
    // its turn, and w must first evaluate y for this tick.
    assertThat(next.evaluate(Map.of("x", Value.of(2), "s", Value.of("w"))))
        .containsEntry("z", Value.of(5)).containsEntry("w", Value.of(5));
    assertThat(next.evaluate(Map.of("x", Value.of(3))))
        .containsEntry("z", Value.of(7)).containsEntry("w", Value.of(7));
  }

  @ParameterizedTest
  @EnumSource(value = DataflowMonitor.Fusion.class, names = {"OFF", "EAGER"})
  void aCycleClosedThroughAKeptStaticReferenceIsARuntimeError(DataflowMonitor.Fusion f) {
    DataflowProgram before = compile("in x\nin s\nout z\nout w\nz = s\nw = z");
    DataflowProgram after = compile("in x\nin s\nout z\nout w\nz = dynamic(s)\nw = z");
    DataflowMonitor m = DataflowMonitor.create(before, options(f));
    m.evaluate(Map.of("s", Value.of("x")));
    DataflowMonitor next = transfer(m, after, f);
    assertThatThrownBy(() -> next.evaluate(Map.of("x", Value.of(1), "s", Value.of("w + 1"))))
        .isInstanceOf(MonitorException.class)
        .hasMessageContaining("dynamic same-tick dependency cycle");
  }

  @ParameterizedTest
  @EnumSource(value = DataflowMonitor.Fusion.class, names = {"OFF", "EAGER"})
  void nodesTakenOverFromADynamicProgramEvaluateOncePerTick(DataflowMonitor.Fusion f) {
    DataflowProgram before = compile("in x\nin s\nout w\naux y\naux d\ny = x * 2\nw = y + 1\n"
        + "d = dynamic(s)");
    DataflowProgram after = compile("in x\nout w\naux y\ny = x * 2\nw = y + 1");
    DataflowMonitor m = DataflowMonitor.create(before, options(f));
    m.evaluate(Map.of("x", Value.of(1)));
    // Interpreted after the transfer: the counting node below replaces y's root.
    DataflowMonitor next = transfer(m, after, DataflowMonitor.Fusion.OFF);
    StreamCell y = next.evaluator.cells()[after.spec.byName().get("y")];
    int[] evaluations = {0};
    Node inner = y.root;
    y.root = new Node() {
      @Override
      public void eval() {
        evaluations[0]++;
        inner.eval();
        set(inner);
      }
    };
    for (int t = 0; t < 10; t++) {
      assertThat(next.evaluate(Map.of("x", Value.of(t)))).containsEntry("w", Value.of(2 * t + 1));
    }
    assertThat(evaluations[0]).isEqualTo(10);
  }

  @ParameterizedTest
  @EnumSource(value = DataflowMonitor.Fusion.class, names = {"OFF", "EAGER"})
  void aKeptBodyReadingARemovedStreamFailsInsteadOfReadingItsLastValue(
      DataflowMonitor.Fusion f) {
    DataflowProgram before = compile("in x\nin s\naux y\nout z\ny = x * 10\nz = dynamic(s)");
    DataflowProgram after = compile("in x\nin s\nout z\nz = dynamic(s)");
    DataflowMonitor m = DataflowMonitor.create(before, options(f));
    assertThat(m.evaluate(Map.of("x", Value.of(1), "s", Value.of("y + 1"))))
        .containsEntry("z", Value.of(11));
    DataflowMonitor next = transfer(m, after, f);
    assertThatThrownBy(() -> next.evaluate(Map.of("x", Value.of(3))))
        .isInstanceOf(MonitorException.class)
        .hasMessageContaining("stream 'z'").hasMessageContaining("unknown stream 'y'");
  }

  @ParameterizedTest
  @EnumSource(value = DataflowMonitor.Fusion.class, names = {"OFF", "EAGER"})
  void aKeptBodyKeepsItsDelaysUnlessTheStreamsItReadsChangedType(DataflowMonitor.Fusion f) {
    String body = "default(x[1], 0) * 1";
    DataflowProgram before = compile("in x: Int\nin s\nout z\nz = dynamic(s)");
    DataflowProgram same = compile("in x: Int\nin s\nout z\nout n\nz = dynamic(s)\nn = x");
    DataflowMonitor m = DataflowMonitor.create(before, options(f));
    m.evaluate(Map.of("x", Value.of(4), "s", Value.of(body)));
    m.evaluate(Map.of("x", Value.of(5)));
    DataflowMonitor next = transfer(m, same, f);
    assertThat(next.evaluate(Map.of("x", Value.of(6)))).containsEntry("z", Value.of(5));

    DataflowProgram retyped = compile("in x: Float\nin s\nout z\nz = dynamic(s)");
    DataflowMonitor third = transfer(next, retyped, f);
    // The typing of the body changed: it restarts as a fresh activation, its delay empty.
    assertThat(third.evaluate(Map.of("x", Value.of(1.5)))).containsEntry("z", Value.of(0));
    assertThat(third.evaluate(Map.of("x", Value.of(2.5)))).containsEntry("z", Value.of(1.5));
  }

  @ParameterizedTest
  @EnumSource(value = DataflowMonitor.Fusion.class, names = {"OFF", "EAGER"})
  void aBodyActivatedAfterATransferHoldsAnInputThatArrivedBefore(DataflowMonitor.Fusion f) {
    DataflowProgram before = compile("in x\nin s\nout z\nz = s");
    DataflowProgram after = compile("in x\nin s\nout z\nz = dynamic(s)");
    DataflowMonitor m = DataflowMonitor.create(before, options(f));
    m.evaluate(Map.of("x", Value.of(5), "s", Value.of("a")));
    m.evaluate(Map.of("s", Value.of("b")));
    DataflowMonitor next = transfer(m, after, f);
    assertThat(next.evaluate(Map.of("s", Value.of("x + 1")))).containsEntry("z", Value.of(6));
    assertThat(next.evaluate(Map.of("x", Value.of(7)))).containsEntry("z", Value.of(8));
  }

  @ParameterizedTest
  @EnumSource(value = DataflowMonitor.Fusion.class, names = {"OFF", "EAGER"})
  void anInputWhoseHistoryDoesNotMoveForgetsItsLastPresentValue(DataflowMonitor.Fusion f) {
    // x changes its declared type: its run-long memory stays behind with its history, so a
    // body activated after the transfer does not see the 5 of the old program.
    DataflowProgram before = compile("in x: Int\nin s\nout z\nz = s");
    DataflowProgram after = compile("in x: Float\nin s\nout z\nz = dynamic(s)");
    DataflowMonitor m = DataflowMonitor.create(before, options(f));
    m.evaluate(Map.of("x", Value.of(5), "s", Value.of("a")));
    DataflowMonitor next = transfer(m, after, f);
    assertThat(next.evaluate(Map.of("s", Value.of("x")))).doesNotContainKey("z");
    assertThat(next.evaluate(Map.of())).doesNotContainKey("z");
    assertThat(next.evaluate(Map.of("x", Value.of(2.5)))).containsEntry("z", Value.of(2.5));
    assertThat(next.evaluate(Map.of())).containsEntry("z", Value.of(2.5));
  }

  @ParameterizedTest
  @EnumSource(value = DataflowMonitor.Fusion.class, names = {"OFF", "EAGER"})
  void aComputedStreamKeptByATransferKeepsItsLastPresentValue(DataflowMonitor.Fusion f) {
    // a was present before the transfer and is absent since; the kept stream still reads as 5.
    DataflowProgram before = compile("in x\nin s\naux a\nout z\na = x\nz = s");
    DataflowProgram after = compile("in x\nin s\naux a\nout z\na = x\nz = dynamic(s)");
    DataflowMonitor m = DataflowMonitor.create(before, options(f));
    m.evaluate(Map.of("x", Value.of(5), "s", Value.of("a")));
    DataflowMonitor next = transfer(m, after, f);
    assertThat(next.evaluate(Map.of())).doesNotContainKey("z");
    assertThat(next.evaluate(Map.of("s", Value.of("a + 1")))).containsEntry("z", Value.of(6));
  }
}
