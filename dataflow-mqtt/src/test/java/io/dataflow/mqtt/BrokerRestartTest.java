package io.dataflow.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.DataflowRuntime;
import io.dataflow.core.ExitReport;
import io.dataflow.io.Sinks;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker restart mid-run: the transport reconnects on its backoff, resubscribes, and every
 * value the broker admitted arrives; the output is published again where its PUBACK was lost.
 */
class BrokerRestartTest {
  @TempDir
  Path dir;

  @Test
  void reconnectsAndLosesNoAdmittedMessage() throws Exception {
    try (Moquette broker = Moquette.start(dir);
        TestClient robot = new TestClient(broker.url(), "robot-restart");
        MqttTransport mqtt = MqttTransport.create(MqttOptions.builder(broker.url())
            .clientId("monitor-restart").build())) {
      Sinks.Collecting tap = Sinks.collecting();
      DataflowRuntime runtime = mqtt.attach(ReconfigurableDataflowRuntimeBuilder.create()
          .tap("collect", tap), DataflowProgram.compile("r.dsrv", "in x: Int\nout z = x"))
          .build();
      runtime.start();
      assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "x")).isTrue();
      for (int i = 0; i < 20; i++) {
        robot.publish("x", Integer.toString(i));
      }
      // Admitted: received, handed to the runtime and acknowledged to the broker.
      assertThat(TestClient.waitUntil(() -> mqtt.status().received() >= 20, 10_000)).isTrue();
      broker.restart();
      // The broker lost its sessions (see Moquette): the transport reconnects on its backoff
      // and subscribes again; what the robot publishes from then on reaches it.
      assertThat(TestClient.waitUntil(() -> mqtt.status().connects() >= 2, 20_000)).isTrue();
      assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "x")).isTrue();
      for (int i = 20; i < 40; i++) {
        robot.publishRetrying("x", Integer.toString(i));
      }
      Set<Long> expected = new TreeSet<>();
      for (long i = 0; i < 40; i++) {
        expected.add(i);
      }
      assertThat(TestClient.waitUntil(() -> valuesOf(tap.lines()).containsAll(expected), 30_000))
          .as("evaluated: %s", tap.lines()).isTrue();
      assertThat(TestClient.waitUntil(() -> published(broker.published("z")).containsAll(expected),
          30_000)).as("published: %s", broker.published("z")).isTrue();
      // Duplicates only where QoS 1 allows them: every value at least once, none invented.
      assertThat(valuesOf(tap.lines())).isEqualTo(expected);
      MqttStatus status = mqtt.status();
      assertThat(status.connects()).isGreaterThanOrEqualTo(2);
      assertThat(status.lastError()).isNotBlank(); // the lost connection, or a refused attempt
      runtime.stop(Duration.ofSeconds(5));
      ExitReport report = runtime.awaitTermination(Duration.ofSeconds(10));
      assertThat(report.isCompleted()).as("%s", report).isTrue();
    }
  }

  private static Set<Long> valuesOf(List<String> lines) {
    return lines.stream().map(l -> Long.parseLong(l.replaceAll(".*Int\\((-?[0-9]+)\\)", "$1")))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private static Set<Long> published(List<String> messages) {
    return messages.stream()
        .map(m -> Long.parseLong(m.replaceAll("\\{\"value\":(-?[0-9]+)\\}", "$1")))
        .collect(Collectors.toCollection(TreeSet::new));
  }
}
