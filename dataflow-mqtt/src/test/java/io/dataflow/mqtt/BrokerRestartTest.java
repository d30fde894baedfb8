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
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker restart mid-run: the transport reconnects on its backoff, resubscribes, and every
 * value the broker admitted arrives; the output is published again where its PUBACK was lost.
 * With the broker's store on disk, the persistent session (subscriptions, queued messages)
 * survives the restart.
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

  /**
   * Catches: a message received but not admitted (the owner was busy, the ingress full) dropped
   * when the connection broke, or acknowledged on the new connection under a packet id of the
   * old one. (Moquette does not send its in-flight messages again after a restart: only the
   * transport still has them.)
   */
  @Test
  void losesNoMessageWhenTheBrokerRestartsWhileTheIngressIsFull() throws Exception {
    try (Moquette broker = Moquette.startPersistent(dir);
        TestClient robot = new TestClient(broker.url(), "robot-full");
        MqttTransport mqtt = MqttTransport.create(MqttOptions.builder(broker.url())
            .clientId("monitor-full").build())) {
      CountDownLatch open = new CountDownLatch(1);
      Sinks.Collecting tap = Sinks.collecting();
      DataflowRuntime runtime = mqtt.attach(ReconfigurableDataflowRuntimeBuilder.create()
          .tap("gate", MqttTransportTest.gate(open)).tap("collect", tap)
          .options(o -> o.withIngressCapacity(2)),
          DataflowProgram.compile("r.dsrv", "in x: Int\nout z = x")).build();
      runtime.start();
      try {
        assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "x")).isTrue();
        for (int i = 0; i < 20; i++) {
          robot.publish("x", Integer.toString(i));
        }
        // Tick 0 waits at the gate, the broker's window waits in the transport unacknowledged,
        // the rest in the broker's store.
        assertThat(TestClient.waitUntil(() -> mqtt.status().received() >= 10, 10_000))
            .as("%s", mqtt.status()).isTrue();
        broker.restart();
        assertThat(TestClient.waitUntil(() -> mqtt.status().connects() >= 2, 20_000)).isTrue();
        assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "x")).isTrue();
        for (int i = 20; i < 30; i++) {
          robot.publishRetrying("x", Integer.toString(i));
        }
        open.countDown();
        Set<Long> expected = new TreeSet<>();
        for (long i = 0; i < 30; i++) {
          expected.add(i);
        }
        assertThat(TestClient.waitUntil(() -> valuesOf(tap.lines()).containsAll(expected),
            30_000)).as("evaluated: %s", tap.lines()).isTrue();
        assertThat(valuesOf(tap.lines())).isEqualTo(expected); // duplicates at most
        assertThat(TestClient.waitUntil(() -> published(broker.published("z"))
            .containsAll(expected), 30_000)).as("published: %s", broker.published("z")).isTrue();
      } finally {
        open.countDown();
        runtime.stop(Duration.ofSeconds(5));
        runtime.awaitTermination(Duration.ofSeconds(10));
      }
    }
  }

  /**
   * A broker restarted from its store keeps the persistent session: the subscription (a message
   * published after the restart, before the monitor is back, is kept for it) and the QoS 1
   * messages queued while the monitor was away.
   */
  @Test
  void aPersistentBrokerKeepsTheSessionOverItsRestart() throws Exception {
    try (Moquette broker = Moquette.startPersistent(dir);
        TestClient robot = new TestClient(broker.url(), "robot-persist")) {
      Sinks.Collecting first = Sinks.collecting();
      try (MqttTransport mqtt = MqttTransport.create(MqttOptions.builder(broker.url())
          .clientId("monitor-persist").build())) {
        DataflowRuntime runtime = mqtt.attach(ReconfigurableDataflowRuntimeBuilder.create()
            .tap("collect", first), DataflowProgram.compile("p.dsrv", "in x\nout z = x")).build();
        runtime.start();
        assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "x")).isTrue();
        robot.publish("x", "1");
        assertThat(TestClient.waitUntil(() -> first.lines().size() == 1, 10_000)).isTrue();
        runtime.stop(Duration.ofSeconds(5));
        assertThat(runtime.awaitTermination(Duration.ofSeconds(10)).isCompleted()).isTrue();
      }
      // Published only once the broker closed the monitor's connection: sent to a connection
      // that is closing, a message is in flight, and Moquette resends none after a restart.
      assertThat(TestClient.waitUntil(() -> broker.disconnections("monitor-persist") > 0,
          10_000)).isTrue();
      robot.publish("x", "2"); // queued for the monitor's session
      robot.publish("x", "3");
      broker.restart();
      robot.publishRetrying("x", "4"); // routed by the session's subscription alone
      Sinks.Collecting second = Sinks.collecting();
      try (MqttTransport mqtt = MqttTransport.create(MqttOptions.builder(broker.url())
          .clientId("monitor-persist").build())) {
        DataflowRuntime runtime = mqtt.attach(ReconfigurableDataflowRuntimeBuilder.create()
            .tap("collect", second), DataflowProgram.compile("p.dsrv", "in x\nout z = x"))
            .build();
        runtime.start();
        assertThat(TestClient.waitUntil(() -> second.lines().size() >= 3, 10_000))
            .as("%s", second.lines()).isTrue();
        assertThat(second.lines()).containsExactly("z[0] = Int(2)", "z[1] = Int(3)",
            "z[2] = Int(4)");
        runtime.stop(Duration.ofSeconds(5));
        assertThat(runtime.awaitTermination(Duration.ofSeconds(10)).isCompleted()).isTrue();
      }
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
