package io.dataflow.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.MonitorException;
import io.dataflow.core.Value;
import io.dataflow.monitor.eval.DynamicBodies;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The generated evaluator is used where it applies and behaves like the interpreter (the whole
 * suite also runs once with {@code -Ddataflow.monitor.fused=false}).
 */
class FusedEvaluatorTest {
  private static final DataflowMonitor.Options FUSED = DataflowMonitor.Options.DEFAULT
      .withFused(true);

  private static DataflowMonitor fused(String spec) {
    return DataflowMonitor.create(DataflowProgram.compile("s.dsrv", spec), FUSED);
  }

  @Test
  void everyProgramRunsAsGeneratedCodeUnlessTurnedOff() {
    assertThat(fused("in x\nout z\nz = default(z[1], 0) + x").isFused()).isTrue();
    assertThat(fused("in x\nin e\nout z\nz = dynamic(e)").isFused()).isTrue();
    assertThat(DataflowMonitor.create(DataflowProgram.compile("s.dsrv", "in x\nout z\nz = x"),
        FUSED.withFused(false)).isFused()).isFalse();
  }

  @Test
  void opaqueNodesAndEveryTemporalFormEvaluateInTheGeneratedCode() {
    DataflowMonitor m = fused("in x: Int\nin c: Bool\naux f = \\v: Int -> v * 2\n"
        + "out a = if c then 10 / x else 0\nout b = f(default(x[1], 0))\n"
        + "out d = init(when(x), false) && is_defined(x[2])\nout e = update(x, latch(x, c))\n"
        + "out g = (x + 1)[1]\nout h = List.len([x, x])");
    assertThat(m.isFused()).isTrue();
    assertThat(m.evaluate(Map.of("x", Value.of(0), "c", Value.of(false))))
        .containsEntry("a", Value.of(0)).containsEntry("b", Value.of(0))
        .containsEntry("d", Value.of(false)).containsEntry("h", Value.of(2));
    assertThat(m.evaluate(Map.of("x", Value.of(5), "c", Value.of(true))))
        .containsEntry("a", Value.of(2)).containsEntry("b", Value.of(0))
        .containsEntry("e", Value.of(5)).containsEntry("g", Value.of(1));
  }

  @Test
  void aDynamicBodyReadingALaterStreamEvaluatesItOnceOnDemand() {
    DataflowMonitor m = fused("in x: Int\nin e\nout z = dynamic(e)\nout w = when(x)\n"
        + "aux v = default(v[1], 0) + x");
    m.evaluate(Map.of("x", Value.of(1), "e", Value.of("v * 10")));
    assertThat(m.evaluate(Map.of("x", Value.of(2))))
        .containsEntry("z", Value.of(30)).containsEntry("w", Value.TRUE);
    // v counted once per tick although z's body asked for it before its turn.
    assertThat(m.evaluate(Map.of("x", Value.of(3)))).containsEntry("z", Value.of(60));
  }

  @Test
  void longLivedDynamicBodiesGetGeneratedCodeThatAgreesWithTheInterpreter() {
    String spec = "in x: Int\nin y: Int\nin e\nout z = dynamic(e)\n"
        + "out w = defer(e)\naux s = default(s[1], 0) + x";
    DataflowProgram p = DataflowProgram.compile("d.dsrv", spec);
    DataflowMonitor fused = DataflowMonitor.create(p, FUSED);
    DataflowMonitor plain = DataflowMonitor.create(p, FUSED.withFused(false));
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
    String[] texts = {"x + y * 2", "default(x[1], 0) - y", "s % 1000 + x", "x > y"};
    for (int t = 0; t < 3 * DynamicBodies.FUSE_AFTER; t++) {
      Map<String, Value> in = new java.util.HashMap<>();
      if (rnd.nextInt(5) > 0) {
        in.put("x", Value.of(rnd.nextInt(100)));
      }
      if (rnd.nextInt(5) > 0) {
        in.put("y", Value.of(rnd.nextInt(100)));
      }
      if (t % DynamicBodies.FUSE_AFTER == 0) {
        in.put("e", Value.of(texts[(t / DynamicBodies.FUSE_AFTER) % texts.length]));
      } else if (rnd.nextInt(50) == 0) {
        in.put("e", Value.DEFERRED);
      }
      assertThat(fused.evaluate(in)).as("tick %d", t).isEqualTo(plain.evaluate(in));
    }
  }

  @Test
  void aLongLivedMonitorSwitchesToGeneratedCodeInTheBackgroundWithoutAVisibleSeam() {
    DataflowProgram p = DataflowProgram.compile("b.dsrv",
        "in x: Int\nout z = default(z[1], 0) + x\nout q = x > 50 && z > 100");
    DataflowMonitor background = DataflowMonitor.create(p,
        FUSED.withFusion(DataflowMonitor.Fusion.BACKGROUND));
    DataflowMonitor plain = DataflowMonitor.create(p, FUSED.withFused(false));
    assertThat(background.isFused()).isFalse();
    long deadline = io.dataflow.core.SystemClock.INSTANCE.nanoTime() + 30_000_000_000L;
    int t = 0;
    int afterSwitch = 0;
    while (afterSwitch < 100) {
      Map<String, Value> in = t % 7 == 0 ? Map.of() : Map.of("x", Value.of(t % 100));
      assertThat(background.evaluate(in)).as("tick %d", t).isEqualTo(plain.evaluate(in));
      t++;
      if (background.isFused()) {
        afterSwitch++;
      }
      assertThat(io.dataflow.core.SystemClock.INSTANCE.nanoTime()).as("switched in time")
          .isLessThan(deadline);
    }
    assertThat(t).isGreaterThan(DataflowMonitor.Fusion.BACKGROUND_AFTER_TICKS);
  }

  @Test
  void aDeclaredTypeIsCheckedInlineAndAWrongValueFailsLikeTheInterpreter() {
    String spec = "in x\nin e\nout z: Int = x\nout d: Int = dynamic(e)\nout after = 1";
    for (DataflowMonitor m : new DataflowMonitor[] {fused(spec),
        DataflowMonitor.create(DataflowProgram.compile("s.dsrv", spec), FUSED.withFused(false))}) {
      assertThat(m.evaluate(Map.of("x", Value.of(3), "e", Value.of("x"))))
          .containsEntry("z", Value.of(3)).containsEntry("d", Value.of(3));
      assertThatThrownBy(() -> m.evaluate(Map.of("x", Value.of("three"))))
          .isInstanceOf(MonitorException.class)
          .hasMessage("tick 1: stream 'z': stream 'z' is declared Int but got a value of type "
              + "Str");
    }
  }

  @Test
  void aFailureInGeneratedCodeNamesItsStreamAndPoisonsTheMonitor() {
    DataflowMonitor m = fused("in x: Int\nout ok = x + 1\nout q = 10 / x\nout after = x * 2");
    m.evaluate(Map.of("x", Value.of(5)));
    assertThatThrownBy(() -> m.evaluate(Map.of("x", Value.of(0))))
        .isInstanceOf(MonitorException.class)
        .hasMessage("tick 1: stream 'q': division by zero");
    assertThat(m.failure()).isNotNull();
    assertThat(m.nextTick()).isEqualTo(1);
  }

  @Test
  void aTransferredMonitorGetsGeneratedCodeOverTheNodesItTookOver() {
    DataflowProgram before = DataflowProgram.compile("a.dsrv",
        "in x\nout z\nout n\nz = default(z[1], 0) + x\nn = when(x)");
    DataflowProgram after = DataflowProgram.compile("b.dsrv",
        "in x\nout z\nout n\nz = default(z[1], 0) + 2 * x\nn = when(x)");
    DataflowMonitor m = DataflowMonitor.create(before, FUSED);
    m.evaluate(Map.of("x", Value.of(1)));
    DataflowMonitor next = DataflowMonitor.transfer(m, after,
        TransferMapping.plan(before, after), FUSED).monitor();
    assertThat(next.isFused()).isTrue();
    assertThat(next.evaluate(Map.of("x", Value.of(3))))
        .containsEntry("z", Value.of(7)).containsEntry("n", Value.TRUE);
  }
}
