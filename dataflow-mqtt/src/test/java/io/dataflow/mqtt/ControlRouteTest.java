package io.dataflow.mqtt;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.DataflowRuntime;
import io.dataflow.io.Sinks;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder;
import io.dataflow.reconfig.ReconfigurationAck;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Requests over the control topic, acknowledgements on {@code <control>/ack}. The tests share one
 * broker (stopping one takes Moquette two seconds), each with client ids of its own.
 */
class ControlRouteTest {
  private static final AtomicInteger IDS = new AtomicInteger();
  private static final String COLLISION = " (requests, acknowledgements and data need topics of"
      + " their own)";
  @TempDir
  static Path dir;
  private static Moquette broker;
  private String monitorId;
  private TestClient robot;
  private MqttTransport mqtt;
  private DataflowRuntime runtime;
  private final Sinks.Collecting tap = Sinks.collecting();
  private final List<ReconfigurationAck> acks = Collections.synchronizedList(new ArrayList<>());

  @BeforeAll
  static void startBroker() {
    broker = Moquette.start(dir);
  }

  @AfterAll
  static void stopBroker() {
    broker.close();
  }

  @BeforeEach
  void start() throws Exception {
    int n = IDS.incrementAndGet();
    monitorId = "monitor-control-" + n;
    robot = new TestClient(broker.url(), "robot-control-" + n);
    robot.subscribe("robot/control/ack", "z");
    mqtt = MqttTransport.create(MqttOptions.builder(broker.url()).clientId(monitorId)
        .inputTopic("x", "robot/1/x").controlTopic("robot/control").build());
    runtime = mqtt.attach(ReconfigurableDataflowRuntimeBuilder.create().tap("collect", tap),
        DataflowProgram.compile("c.dsrv", "in x\nout z = x"), acks::add).build();
    runtime.start();
    assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "robot/1/x", "robot/control"))
        .isTrue();
    // The broker records subscriptions after its SUBACK: wait for both before counting.
    assertThat(TestClient.waitUntil(() -> broker.subscriptionEvents(monitorId)
        .containsAll(List.of("SUB robot/1/x", "SUB robot/control")), 10_000)).isTrue();
  }

  @AfterEach
  void stop() throws Exception {
    runtime.stop(Duration.ofSeconds(5));
    runtime.awaitTermination(Duration.ofSeconds(10));
    mqtt.close();
    robot.close();
  }

  private List<String> acksReceived(int n) {
    TestClient.waitUntil(() -> robot.received().stream()
        .filter(m -> m.startsWith("robot/control/ack ")).count() >= n, 10_000);
    return robot.received().stream().filter(m -> m.startsWith("robot/control/ack "))
        .map(m -> m.substring("robot/control/ack ".length())).toList();
  }

  @Test
  void replacesTheSpecificationAndAcknowledgesWithTheRequestId() throws Exception {
    robot.publish("robot/1/x", "1");
    TestClient.waitUntil(() -> tap.lines().size() == 1, 10_000);
    robot.publish("robot/control", "{id: 'r1', specification: 'in x\\nout z\\nz = x * 10'}");
    assertThat(acksReceived(1)).containsExactly("{\"id\":\"r1\",\"accepted\":true,"
        + "\"monitor_revision\":1,\"interface_revision\":0,\"monitor_changed\":true,"
        + "\"interface_changed\":false,\"plan\":\"Transfer\",\"effective_tick\":1,"
        + "\"origin\":\"mqtt robot/control #1\"}");
    robot.publish("robot/1/x", "2");
    assertThat(TestClient.waitUntil(() -> tap.lines().size() == 2, 10_000)).isTrue();
    assertThat(tap.lines()).containsExactly("z[0] = Int(1)", "z[1] = Int(20)");
    assertThat(acks).hasSize(1); // the other sink got it too
  }

  @Test
  void rebindsSubscriptionsInTheFixedOrder() throws Exception {
    int before = broker.subscriptionEvents(monitorId).size();
    // x moves to another topic, y is added with its name as topic; the route stays.
    robot.publish("robot/control", "{id: 7, specification: 'in x\\nin y\\nout z = x + y',"
        + " input: {sources: {x: {type: 'mqtt', topic: 'robot/2/x'}, y: {type: 'mqtt'}}}}");
    assertThat(acksReceived(1).get(0)).startsWith("{\"id\":7,\"accepted\":true,"
        + "\"monitor_revision\":1,\"interface_revision\":1,\"monitor_changed\":true,"
        + "\"interface_changed\":true,");
    assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "robot/2/x", "y")).isTrue();
    TestClient.waitUntil(() -> broker.subscriptionEvents(monitorId).size() >= before + 3,
        10_000);
    // Removed first, then added; the control topic was never unsubscribed.
    assertThat(broker.subscriptionEvents(monitorId).subList(before, before + 3))
        .containsExactly("UNSUB robot/1/x", "SUB robot/2/x", "SUB y");
    assertThat(mqtt.status().subscriptions()).containsExactlyInAnyOrder("robot/2/x", "y",
        "robot/control");

    robot.publish("robot/1/x", "100"); // nobody listens there any more
    robot.publish("robot/2/x", "1");
    robot.publish("y", "2");
    assertThat(TestClient.waitUntil(() -> robot.received().contains("z {\"value\":3}"), 10_000))
        .as("%s", robot.received()).isTrue();
    assertThat(tap.lines()).doesNotContain("z[0] = Int(100)");
  }

  /**
   * Catches: a source created by a request that admits values of the wrong type (they would
   * fail in the monitor instead of as a bad payload naming the topic).
   */
  @Test
  void aSourceAddedByARequestChecksItsStreamsDeclaredType() throws Exception {
    robot.publish("robot/control", "{id: 'typed', specification: 'in x\\nin y: Int\\nout z = y',"
        + " input: {sources: {x: {}, y: {type: 'mqtt', topic: 'robot/1/y'}}}}");
    assertThat(acksReceived(1).get(0)).contains("\"accepted\":true");
    assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "robot/1/y")).isTrue();
    robot.publish("robot/1/y", "{\"value\": \"seven\"}");
    io.dataflow.core.ExitReport report = runtime.awaitTermination(Duration.ofSeconds(10));
    assertThat(report.reason()).startsWith("topic 'robot/1/y': bad payload: expected Int, got"
        + " Str");
  }

  /**
   * Catches: a new input stream left without a source (and so without values) when the request
   * does not name one, whether it omits the input part or lists other sources.
   */
  @Test
  void aNewInputStreamGetsASourceOnItsNameWhenTheRequestNamesNone() throws Exception {
    robot.publish("robot/control",
        "{id: 'add-y', specification: 'in x\\nin y\\nout z = x + y'}");
    assertThat(acksReceived(1).get(0))
        .contains("\"accepted\":true", "\"interface_changed\":true");
    assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "y")).isTrue();
    robot.publish("robot/1/x", "1");
    robot.publish("y", "2");
    assertThat(TestClient.waitUntil(() -> robot.received().contains("z {\"value\":3}"), 10_000))
        .as("%s", robot.received()).isTrue();

    robot.publish("robot/control", "{id: 'add-w', specification: 'in x\\nin y\\nin w\\n"
        + "out z = x + y + w', input: {sources: {x: {}, y: {}}}}");
    assertThat(acksReceived(2).get(1)).contains("\"id\":\"add-w\",\"accepted\":true");
    assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "w")).isTrue();
    assertThat(mqtt.status().subscriptions()).containsExactlyInAnyOrder("robot/1/x", "y", "w",
        "robot/control");
    robot.publish("robot/1/x", "1");
    robot.publish("y", "2");
    robot.publish("w", "10");
    assertThat(TestClient.waitUntil(() -> robot.received().contains("z {\"value\":13}"),
        10_000)).as("%s", robot.received()).isTrue();
  }

  @Test
  void keepsRetainedTopicsSubscribedWithoutAGap() throws Exception {
    int before = broker.subscriptionEvents(monitorId).size();
    robot.publish("robot/control", "{id: 'add-y', specification: 'in x\\nin y\\nout z = x + y',"
        + " input: {sources: {x: {}, y: {type: 'mqtt', topic: 'robot/1/y'}}}}");
    assertThat(acksReceived(1).get(0)).contains("\"accepted\":true");
    assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "robot/1/y")).isTrue();
    TestClient.waitUntil(() -> broker.subscriptionEvents(monitorId).size() > before,
        10_000);
    assertThat(broker.subscriptionEvents(monitorId).subList(before,
        broker.subscriptionEvents(monitorId).size())).containsExactly("SUB robot/1/y");
  }

  @Test
  void answersRejectedMalformedAndCollidingRequestsAndKeepsRunning() throws Exception {
    robot.publish("robot/control", "{id: 'bad-spec', specification: 'in x\\nout z = q'}");
    robot.publish("robot/control", "{oops");
    robot.publish("robot/control", "{id: 'clash', specification: 'in x\\nin w\\nout z = x',"
        + " input: {sources: {x: {}, w: {type: 'mqtt', topic: 'robot/control/ack'}}}}");
    robot.publish("robot/control", "{id: 'unknown', specification: 'in x\\nout z = x', foo: 1}");
    List<String> answers = acksReceived(4);
    assertThat(answers.get(0)).startsWith("{\"id\":\"bad-spec\",\"accepted\":false,"
        + "\"monitor_revision\":0,\"interface_revision\":0,\"error\":\"the replacement"
        + " specification does not compile: ");
    // In the order of the requests, each with its error; nothing was applied.
    assertThat(answers.get(1)).isEqualTo("{\"id\":null,\"accepted\":false,"
        + "\"monitor_revision\":0,\"interface_revision\":0,\"error\":\"mqtt robot/control #2:1:1:"
        + " malformed request (column 6): Unexpected end-of-input within/between Object"
        + " entries\",\"origin\":\"mqtt robot/control #2:1:1\"}");
    assertThat(answers.get(2)).isEqualTo("{\"id\":\"clash\",\"accepted\":false,"
        + "\"monitor_revision\":0,\"interface_revision\":0,\"error\":\"source 'w': the control"
        + " topic 'robot/control' collides with the topic 'robot/control/ack' of an mqtt source"
        + " (requests, acknowledgements and data need topics of their own)\","
        + "\"origin\":\"mqtt robot/control #3\"}");
    assertThat(answers.get(3)).startsWith("{\"id\":\"unknown\",\"accepted\":false,"
        + "\"monitor_revision\":0,\"interface_revision\":0,\"error\":\"mqtt robot/control #4:1:1:"
        + " unknown field 'foo' in request");
    robot.publish("robot/1/x", "5");
    assertThat(TestClient.waitUntil(() -> tap.lines().contains("z[0] = Int(5)"), 10_000))
        .isTrue();
    assertThat(runtime.isTerminated()).isFalse();
  }

  /**
   * Catches: a request whose new output is named like the control topic (the kept {@code mqtt}
   * destination would publish its values as requests), or whose new input is (its source would
   * read the requests as data), accepted because only the topics a request spells out were
   * checked.
   */
  @Test
  void defaultNamedTopicsOfARequestCollidingWithTheControlTopicAreRejectedAtPlanning()
      throws Exception {
    // A transport of its own, with a plain word as control topic and topics under 'plain/'.
    try (TestClient robot = new TestClient(broker.url(), monitorId + "-robot-plain");
        MqttTransport plainMqtt = MqttTransport.create(MqttOptions.builder(broker.url())
            .clientId(monitorId + "-plain").controlTopic("ctl").inputTopic("x", "plain/x")
            .outputTopic("z", "plain/z").build())) {
      robot.subscribe("ctl/ack");
      DataflowRuntime plain = plainMqtt.attach(ReconfigurableDataflowRuntimeBuilder.create(),
          DataflowProgram.compile("c.dsrv", "in x\nout z = x")).build();
      plain.start();
      try {
        assertThat(plainMqtt.awaitSubscribed(Duration.ofSeconds(10), "plain/x", "ctl")).isTrue();
        robot.publish("ctl", "{id: 'output', specification: 'in x\\nout z = x\\nout ctl = x'}");
        robot.publish("ctl", "{id: 'input', specification: 'in x\\nin ctl\\nout z = x'}");
        robot.publish("ctl", "{id: 'named', specification: 'in x\\nin ctl\\nout z = x',"
            + " input: {sources: {x: {}, ctl: {type: 'mqtt'}}}}");
        robot.publish("ctl", "{id: 'reply', specification: 'in x\\nout z = x', output:"
            + " {destinations: {mqtt: {type: 'mqtt', topics: 'z=ctl/ack'}}}}");
        // Routed elsewhere, an output of that name is fine.
        robot.publish("ctl", "{id: 'routed', specification: 'in x\\nout z = x\\nout ctl = x',"
            + " output: {destinations: {mqtt: {type: 'mqtt',"
            + " topics: 'ctl=plain/ctl,z=plain/z'}}}}");
        assertThat(TestClient.waitUntil(() -> robot.received().size() >= 5, 10_000))
            .as("%s", robot.received()).isTrue();
        List<String> acks = robot.received();
        assertThat(acks.get(0)).contains("\"id\":\"output\",\"accepted\":false",
            "\"error\":\"the control topic 'ctl' collides with the topic 'ctl' of output 'ctl'"
                + COLLISION + "\"");
        assertThat(acks.get(1)).contains("\"id\":\"input\",\"accepted\":false",
            "\"error\":\"source 'ctl': the control topic 'ctl' collides with the topic 'ctl' of an"
                + " mqtt source" + COLLISION + "\"");
        assertThat(acks.get(2)).contains("\"id\":\"named\",\"accepted\":false",
            "\"error\":\"the control topic 'ctl' collides with the topic 'ctl' of input 'ctl'"
                + COLLISION + "\"");
        assertThat(acks.get(3)).contains("\"id\":\"reply\",\"accepted\":false",
            "collides with the topic 'ctl/ack' of output 'z'");
        assertThat(acks.get(4)).contains("\"id\":\"routed\",\"accepted\":true");
        robot.publish("plain/x", "5");
        assertThat(TestClient.waitUntil(() -> broker.published("plain/ctl").size() == 1, 10_000))
            .as("%s", broker.published("plain/ctl")).isTrue();
        assertThat(broker.published("plain/ctl")).containsExactly("{\"value\":5}");
        assertThat(broker.published("plain/z")).containsExactly("{\"value\":5}");
      } finally {
        plain.stop(Duration.ofSeconds(5));
        plain.awaitTermination(Duration.ofSeconds(10));
      }
    }
  }
}
