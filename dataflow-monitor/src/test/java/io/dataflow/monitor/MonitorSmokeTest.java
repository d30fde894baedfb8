package io.dataflow.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Value;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MonitorSmokeTest {
  @Test
  void sampleAndHoldAddsHeldOperands() {
    DataflowMonitor m = DataflowMonitor.create(
        DataflowProgram.compile("add.dsrv", "in x\nin y\nout z\nz = x + y"));
    assertThat(m.evaluate(Map.of("x", Value.of(1), "y", Value.of(10))))
        .containsEntry("z", Value.of(11));
    assertThat(m.evaluate(Map.of("y", Value.of(20)))).containsEntry("z", Value.of(21));
    assertThat(m.evaluate(Map.of())).containsEntry("z", Value.of(21));
    assertThat(m.evaluate(Map.of("x", Value.of(4), "y", Value.of(40))))
        .containsEntry("z", Value.of(44));
  }
}
