package io.dataflow.mqtt.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Backoff;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.SystemClock;
import io.dataflow.mqtt.Moquette;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sink over a connection stepped in the test's thread. */
class MqttOutputWriterTest {
  @TempDir
  Path dir;

  /**
   * Catches: a flush that returns before the broker acknowledged every publication (a
   * fire-and-forget publish would not have reached the broker yet when flush returns).
   */
  @Test
  void aFlushReturnsOnceTheBrokerAcknowledgedEveryPublicationBeforeIt() throws Exception {
    try (Moquette broker = Moquette.start(dir)) {
      SystemClock clock = SystemClock.INSTANCE;
      MqttConnection c = new MqttConnection(broker.url(), "writer-test", clock,
          new Backoff(Duration.ofMillis(10), Duration.ofMillis(10), 2.0, Integer.MAX_VALUE), 5);
      try {
        c.doWork(clock.nanoTime());
        assertThat(c.isConnected()).isTrue();
        MqttOutputWriter writer = new MqttOutputWriter(c, Map.of("z", "robot/z"),
            Duration.ofSeconds(10).toNanos());
        RowLayout layout = RowLayout.of("z", "w");
        Row row = new Row(2);
        for (int i = 0; i < 50; i++) {
          row.setInt(0, i);
          if (i % 10 == 0) {
            row.setStr(1, "s" + i);
          } else {
            row.setNoVal(1); // publishes nothing for w
          }
          writer.feed(i, layout, row);
        }
        writer.flush();
        // No waiting: the broker has every publication (it records a PUBLISH before its PUBACK).
        assertThat(broker.published("robot/z")).hasSize(50).startsWith("{\"value\":0}")
            .endsWith("{\"value\":49}");
        assertThat(broker.published("w")).containsExactly("{\"value\":\"s0\"}",
            "{\"value\":\"s10\"}", "{\"value\":\"s20\"}", "{\"value\":\"s30\"}",
            "{\"value\":\"s40\"}");
        writer.close();
      } finally {
        c.close(100);
      }
    }
  }
}
