package io.dataflow.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.Kind;
import io.dataflow.core.MonitorException;
import io.dataflow.core.Row;
import io.dataflow.core.Value;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The typed handles and {@code step()}: the same ticks as {@code evaluate(Row, Row)}, inputs
 * checked when set, absent unless set, and every way the monitor refuses a tick. Each test runs
 * on the interpreter, on generated code from the first tick, and across the background switch
 * from one to the other.
 */
class MonitorHandlesTest {
  private static DataflowMonitor monitor(String spec, DataflowMonitor.Fusion fusion) {
    return DataflowMonitor.create(DataflowProgram.compile("h.dsrv", spec),
        DataflowMonitor.Options.DEFAULT.withFusion(fusion));
  }

  @ParameterizedTest
  @EnumSource(DataflowMonitor.Fusion.class)
  void stepComputesWhatEvaluateComputesOverALongRun(DataflowMonitor.Fusion fusion) {
    // d's body reads x and y with run-long sample-and-hold: an absent input reads as its last
    // present value, which the step must keep as the row path does.
    String spec = "in x: Int\nin y: Int\nin t: Str\nin e: Str\nout z = x + y\n"
        + "out c: Int = default(c[1], 0) + default(x, 0)\nout w = default(x[2], -1) > y\n"
        + "out s = t\nout d = dynamic(e)";
    String[] texts = {"x + 4", "default(y, -1) * 2", "x"};
    DataflowMonitor rows = monitor(spec, fusion);
    DataflowMonitor typed = monitor(spec, fusion);
    MonitorInput x = typed.input("x");
    MonitorInput y = typed.input("y");
    MonitorInput t = typed.input("t");
    MonitorInput e = typed.input("e");
    MonitorOutput[] outs = {typed.output("z"), typed.output("c"), typed.output("w"),
        typed.output("s"), typed.output("d")};
    Row in = rows.inputs().newRow();
    Row out = rows.outputs().newRow();
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(11);
    // BACKGROUND switches to generated code on the way: run until 200 ticks after the switch.
    long deadline = io.dataflow.core.SystemClock.INSTANCE.nanoTime() + 30_000_000_000L;
    int afterSwitch = 0;
    int k = 0;
    for (; afterSwitch < 200 || k < 2 * DataflowMonitor.Fusion.BACKGROUND_AFTER_TICKS; k++) {
      in.clear();
      if (rnd.nextInt(4) > 0) {
        long v = rnd.nextInt(100);
        in.setInt(0, v);
        x.setInt(v);
      }
      if (rnd.nextInt(4) > 0) {
        long v = rnd.nextInt(100);
        in.setInt(1, v);
        y.setInt(v);
      }
      if (rnd.nextInt(8) == 0) {
        in.setStr(2, "s" + k);
        t.setStr("s" + k);
      }
      if (rnd.nextInt(300) == 0 || k == 3) {
        String text = texts[rnd.nextInt(texts.length)];
        in.setStr(3, text);
        e.setStr(text);
      }
      rows.evaluate(in, out);
      typed.step();
      for (int j = 0; j < outs.length; j++) {
        assertThat(outs[j].get()).as("tick %d, output %s", k, outs[j].name())
            .isEqualTo(out.get(j));
      }
      if (typed.isFused() || fusion == DataflowMonitor.Fusion.OFF) {
        afterSwitch++;
      }
      assertThat(io.dataflow.core.SystemClock.INSTANCE.nanoTime()).as("switched in time")
          .isLessThan(deadline);
    }
    assertThat(typed.nextTick()).isEqualTo(k);
    assertThat(typed.isFused()).as("ran generated code").isEqualTo(
        fusion != DataflowMonitor.Fusion.OFF);
  }

  /** The example of docs/getting-started.md, "Embedding in Java". */
  @org.junit.jupiter.api.Test
  void theGettingStartedExampleComputesWhatItSays() {
    DataflowProgram program = DataflowProgram.compile("counter.dsrv",
        "in x\nout z\nz = default(z[1], 0) + x");
    DataflowMonitor monitor = DataflowMonitor.create(program);
    MonitorInput x = monitor.input("x");
    MonitorOutput z = monitor.output("z");
    x.setInt(5);
    monitor.step();
    long sum = z.getInt();
    assertThat(sum).isEqualTo(5);
    x.setInt(2);
    monitor.step();
    assertThat(z.getInt()).isEqualTo(7);
  }

  @ParameterizedTest
  @EnumSource(DataflowMonitor.Fusion.class)
  void anInputNotSetSinceTheLastStepIsAbsent(DataflowMonitor.Fusion fusion) {
    DataflowMonitor m = monitor("in x: Int\nin y: Int\nout z = x + y\nout e = y", fusion);
    MonitorInput x = m.input("x");
    MonitorInput y = m.input("y");
    MonitorOutput z = m.output("z");
    MonitorOutput e = m.output("e");
    x.setInt(1);
    y.setInt(2);
    assertThat(y.isStaged()).isTrue();
    m.step();
    assertThat(y.isStaged()).as("a step takes what was staged").isFalse();
    assertThat(z.getInt()).isEqualTo(3);
    assertThat(e.getInt()).isEqualTo(2);
    x.setInt(10);
    m.step(); // y absent: the sum lifts y's last value
    assertThat(z.getInt()).isEqualTo(12);
    assertThat(e.isPresent()).isFalse();
    y.setInt(5);
    y.setNoVal(); // the last call wins
    m.step();
    assertThat(z.getInt()).as("neither input set: both lifted").isEqualTo(12);
    assertThat(e.isPresent()).isFalse();
    assertThat(e.kind()).isEqualTo(Kind.NOVAL);
    assertThat(e.get()).isEqualTo(Value.NOVAL);
  }

  @ParameterizedTest
  @EnumSource(DataflowMonitor.Fusion.class)
  void aValueOfTheWrongTypeIsRefusedWhenSetAndTheMonitorStaysHealthy(
      DataflowMonitor.Fusion fusion) {
    DataflowMonitor m = monitor("in x: Int\nin f: Float\nin any\nout z = x\nout g = f\n"
        + "out a = any", fusion);
    MonitorInput x = m.input("x");
    x.setInt(4);
    assertThatThrownBy(() -> x.setFloat(1.5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("tick 0: input 'x' is declared Int but got a value of type Float");
    assertThatThrownBy(() -> x.set(Value.of("no")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("tick 0: input 'x' is declared Int but got a value of type Str");
    assertThatThrownBy(() -> m.input("f").setInt(1))
        .hasMessage("tick 0: input 'f' is declared Float but got a value of type Int");
    assertThatThrownBy(() -> m.input("f").setBool(true)).hasMessageContaining("Bool");
    assertThatThrownBy(() -> m.input("f").setStr("1")).hasMessageContaining("Str");
    assertThatThrownBy(() -> x.setStr(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> x.set(null)).isInstanceOf(NullPointerException.class);
    m.input("any").set(Value.list(Value.of(1), Value.of("two")));
    m.step();
    assertThat(m.failure()).isNull();
    assertThat(m.output("z").getInt()).as("the refused values staged nothing").isEqualTo(4);
    assertThat(m.output("g").isPresent()).isFalse();
    assertThat(m.output("a").get()).isEqualTo(Value.list(Value.of(1), Value.of("two")));
  }

  @ParameterizedTest
  @EnumSource(DataflowMonitor.Fusion.class)
  void theOutputGettersCheckTheKind(DataflowMonitor.Fusion fusion) {
    DataflowMonitor m = monitor("in x: Int\nout b = x > 1\nout f = 0.5\nout s = \"a\"", fusion);
    m.input("x").setInt(3);
    m.step();
    MonitorOutput b = m.output("b");
    assertThat(b.getBool()).isTrue();
    assertThat(b.bits()).isEqualTo(1);
    assertThat(m.output("f").getFloat()).isEqualTo(0.5);
    assertThat(m.output("s").get()).isEqualTo(Value.of("a"));
    assertThat(m.output("s").isPresent()).isTrue();
    assertThatThrownBy(b::getInt).isInstanceOf(IllegalStateException.class)
        .hasMessage("output 'b' holds Bool, not Int");
    assertThatThrownBy(() -> m.output("f").getBool()).isInstanceOf(IllegalStateException.class);
    assertThat(b.name()).isEqualTo("b");
    assertThat(m.output("b")).as("one handle per output").isSameAs(b);
    assertThat(m.input("x")).as("one handle per input").isSameAs(m.input("x"));
  }

  @ParameterizedTest
  @EnumSource(DataflowMonitor.Fusion.class)
  void unknownNamesAreRefusedWithTheKnownOnes(DataflowMonitor.Fusion fusion) {
    DataflowMonitor m = monitor("in x: Int\nout z = x", fusion);
    assertThatThrownBy(() -> m.input("z")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("'z' is not an input of h.dsrv; its inputs are [x]");
    assertThatThrownBy(() -> m.output("x")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("'x' is not an output of h.dsrv; its outputs are [z]");
  }

  @ParameterizedTest
  @EnumSource(DataflowMonitor.Fusion.class)
  void aFailedStepFailsTheMonitorLikeEvaluate(DataflowMonitor.Fusion fusion) {
    DataflowMonitor m = monitor("in x: Int\nout z = 10 / x", fusion);
    m.input("x").setInt(2);
    m.step();
    assertThat(m.output("z").getInt()).isEqualTo(5);
    m.input("x").setInt(0);
    assertThatThrownBy(m::step).isInstanceOf(MonitorException.class)
        .satisfies(e -> assertThat(((MonitorException) e).tick()).isEqualTo(1))
        .satisfies(e -> assertThat(((MonitorException) e).stream()).isEqualTo("z"));
    MonitorException first = m.failure();
    assertThat(first).isNotNull();
    m.input("x").setInt(1);
    assertThatThrownBy(m::step).isSameAs(first);
    assertThatThrownBy(() -> m.evaluate(Map.of())).isSameAs(first);
    assertThat(m.nextTick()).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(DataflowMonitor.Fusion.class)
  void aReplacedMonitorRefusesToStepAndTheNewOneHasItsOwnHandles(
      DataflowMonitor.Fusion fusion) {
    DataflowMonitor m = monitor("in x: Int\nout c = default(c[1], 0) + x", fusion);
    m.input("x").setInt(5);
    m.step();
    DataflowProgram next = DataflowProgram.compile("h2.dsrv",
        "in x: Int\nout c = default(c[1], 0) + x\nout d = x * 2");
    DataflowMonitor.Transition t = DataflowMonitor.transfer(m,
        next, TransferMapping.plan(m.program(), next), DataflowMonitor.Options.DEFAULT
            .withFusion(fusion));
    assertThatThrownBy(m::step).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("replaced");
    MonitorOutput old = m.output("c");
    assertThatThrownBy(old::getInt).isInstanceOf(IllegalStateException.class)
        .hasMessage("output 'c' belongs to a monitor that was replaced; take the handle from "
            + "the new monitor");
    assertThatThrownBy(old::isPresent).isInstanceOf(IllegalStateException.class);
    DataflowMonitor n = t.monitor();
    assertThat(n.input("x")).isNotSameAs(m.input("x"));
    n.input("x").setInt(2);
    n.step();
    assertThat(n.output("c").getInt()).as("the counter kept its history").isEqualTo(7);
    assertThat(n.output("d").getInt()).isEqualTo(4);
  }
}
