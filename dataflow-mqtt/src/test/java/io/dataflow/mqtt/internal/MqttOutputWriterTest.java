package io.dataflow.mqtt.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Backoff;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.SystemClock;
import io.dataflow.mqtt.Moquette;
import io.dataflow.mqtt.TestClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sink over a connection stepped in the test's thread. */
class MqttOutputWriterTest {
  @TempDir
  Path dir;

  /**
   * Catches: a value published to the wrong topic, out of order, twice, or for a NoVal slot,
   * and a flush that fails while the broker acknowledges. (That a flush waits for the PUBACKs
   * is checked where they are late: MqttTransportTest.) The broker's record is made by an
   * interceptor, which Moquette notifies on a thread of its own after acknowledging, so the
   * test waits for it, bounded.
   */
  @Test
  void everyValueIsPublishedOnceInOrderToItsRouteAndAFlushSucceeds() throws Exception {
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
        assertThat(TestClient.waitUntil(() -> broker.published("w").size() == 5
            && broker.published("robot/z").size() == 50, 10_000))
            .as("%s", broker.published("robot/z")).isTrue();
        assertThat(broker.published("robot/z")).containsExactlyElementsOf(
            IntStream.range(0, 50).mapToObj(i -> "{\"value\":" + i + "}").toList());
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
