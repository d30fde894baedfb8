package io.dataflow.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.Backoff;
import io.dataflow.core.DataflowRuntime;
import io.dataflow.core.ExecutionPolicy;
import io.dataflow.core.ExitReport;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import io.dataflow.core.spi.OutputWriter;
import io.dataflow.io.Sinks;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Values in and out, bad payloads, the sink's budget and a full ingress. The tests share one
 * broker (stopping one takes Moquette two seconds), each with client ids of its own.
 */
class MqttTransportTest {
  private static final AtomicInteger IDS = new AtomicInteger();
  @TempDir
  static Path dir;
  private static Moquette broker;
  private final List<AutoCloseable> closing = new ArrayList<>();

  /** The shared broker, started on first use (the tests of the setup need none). */
  private static synchronized Moquette broker() {
    if (broker == null) {
      broker = Moquette.start(dir.resolve("broker"));
    }
    return broker;
  }

  @AfterEach
  void stopAll() throws Exception {
    Collections.reverse(closing);
    for (AutoCloseable c : closing) {
      c.close();
    }
  }

  @AfterAll
  static synchronized void stopBroker() {
    if (broker != null) {
      broker.close();
      broker = null;
    }
  }

  private String id(String what) {
    return what + "-" + IDS.incrementAndGet();
  }

  private TestClient client() throws Exception {
    TestClient c = new TestClient(broker().url(), id("test"));
    closing.add(c);
    return c;
  }

  private MqttTransport transport(MqttOptions.Builder options) {
    MqttTransport t = MqttTransport.create(options.build());
    closing.add(t);
    return t;
  }

  private DataflowRuntime start(MqttTransport mqtt, String spec, Sinks.Collecting tap) {
    DataflowRuntime runtime = mqtt.attach(ReconfigurableDataflowRuntimeBuilder.create()
        .tap("collect", tap), DataflowProgram.compile("spec.dsrv", spec)).build();
    closing.add(() -> {
      runtime.stop(Duration.ofSeconds(5));
      runtime.awaitTermination(Duration.ofSeconds(10));
    });
    runtime.start();
    return runtime;
  }

  @Test
  void valuesGoInAndOut() throws Exception {
    TestClient robot = client();
    robot.subscribe("robot/z", "w");
    MqttTransport mqtt = transport(MqttOptions.builder(broker().url()).clientId(id("monitor"))
        .inputTopic("x", "robot/x").outputTopic("z", "robot/z"));
    Sinks.Collecting tap = Sinks.collecting();
    start(mqtt, "in x: Int\nin y\nout z = x * 2\nout w = y", tap);
    assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "robot/x", "y")).isTrue();

    robot.publish("robot/x", "{\"value\": 1}");
    robot.publish("robot/x", "2");
    robot.publish("y", "{value: 'a', }");
    robot.publish("robot/x", "{\"value\": 3}");

    // z is evaluated at every tick, with x's latest value when x has none (tick 2).
    assertThat(robot.awaitReceived(5)).containsExactly("robot/z {\"value\":2}",
        "robot/z {\"value\":4}", "robot/z {\"value\":4}", "w {\"value\":\"a\"}",
        "robot/z {\"value\":6}");
    TestClient.waitUntil(() -> tap.lines().size() == 5, 10_000);
    assertThat(tap.lines()).containsExactly("z[0] = Int(2)", "z[1] = Int(4)", "z[2] = Int(4)",
        "w[2] = Str(\"a\")", "z[3] = Int(6)");
    MqttStatus status = mqtt.status();
    assertThat(status.connected()).isTrue();
    assertThat(status.received()).isEqualTo(4);
    assertThat(status.connects()).isEqualTo(1);
  }

  @Test
  void notJson5IsFatalWithTopicAndExcerpt() throws Exception {
    TestClient robot = client();
    MqttTransport mqtt = transport(MqttOptions.builder(broker().url()).clientId(id("monitor")));
    Sinks.Collecting tap = Sinks.collecting();
    DataflowRuntime runtime = start(mqtt, "in x\nout z = x", tap);
    assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "x")).isTrue();
    robot.publish("x", "1");
    robot.publish("x", "{oops");
    robot.publish("x", "3");

    ExitReport report = runtime.awaitTermination(Duration.ofSeconds(10));
    assertThat(report.isCompleted()).isFalse();
    assertThat(report.reason()).isEqualTo("topic 'x': bad payload: not JSON5 (Unexpected end-of-input"
        + " within/between Object entries): '{oops'");
    assertThat(tap.lines()).containsExactly("z[0] = Int(1)");
  }

  @Test
  void wrongTypeForATypedInputIsFatal() throws Exception {
    TestClient robot = client();
    MqttTransport mqtt = transport(MqttOptions.builder(broker().url()).clientId(id("monitor")));
    Sinks.Collecting tap = Sinks.collecting();
    DataflowRuntime runtime = start(mqtt, "in x: Int\nout z = x", tap);
    assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "x")).isTrue();
    robot.publish("x", "{\"value\": \"seven\"}");

    ExitReport report = runtime.awaitTermination(Duration.ofSeconds(10));
    assertThat(report.reason())
        .isEqualTo("topic 'x': bad payload: expected Int, got Str Str(\"seven\"): '{\"value\": \"seven\"}'");
  }

  @Test
  void badPayloadsAreCountedAndSkippedWhenAsked() throws Exception {
    TestClient robot = client();
    List<String> warnings = Collections.synchronizedList(new ArrayList<>());
    MqttTransport mqtt = transport(MqttOptions.builder(broker().url()).clientId(id("monitor"))
        .onBadRecord(OnBadRecord.SKIP).warnings(warnings::add));
    Sinks.Collecting tap = Sinks.collecting();
    DataflowRuntime runtime = start(mqtt, "in x: Int\nout z = x", tap);
    assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "x")).isTrue();
    robot.publish("x", "1");
    robot.publish("x", "not json");
    robot.publish("x", "2.5");
    robot.publish("x", "3");

    assertThat(TestClient.waitUntil(() -> tap.lines().size() == 2, 10_000)).isTrue();
    assertThat(tap.lines()).containsExactly("z[0] = Int(1)", "z[1] = Int(3)");
    assertThat(mqtt.status().skipped()).isEqualTo(2);
    assertThat(warnings).hasSize(2);
    assertThat(warnings.get(1)).isEqualTo("skipped bad record topic 'x': bad payload: expected"
        + " Int, got Float Float(2.5): '2.5' (2 skipped so far)");
    assertThat(runtime.isTerminated()).isFalse();
  }

  @Test
  void controlTopicCollidingWithADataTopicIsRejectedAtPlanning() {
    assertThatThrownBy(() -> MqttOptions.builder("tcp://127.0.0.1:1").inputTopic("x", "ctl")
        .controlTopic("ctl").build())
        .isInstanceOf(MqttConfigException.class)
        .hasMessage("the control topic 'ctl' collides with the topic 'ctl' of input 'x'"
            + " (requests, acknowledgements and data need topics of their own)");
    // The default topic is the stream's name; a wildcard route matches the reply topic.
    MqttTransport byName = transport(MqttOptions.builder("tcp://127.0.0.1:1").controlTopic("z"));
    assertThatThrownBy(() -> byName.attach(ReconfigurableDataflowRuntimeBuilder.create(),
        DataflowProgram.compile("s.dsrv", "in x\nout z = x")))
        .isInstanceOf(MqttConfigException.class)
        .hasMessageContaining("the control topic 'z' collides with the topic 'z' of output 'z'");
    MqttTransport inputByName = transport(MqttOptions.builder("tcp://127.0.0.1:1")
        .controlTopic("x"));
    assertThatThrownBy(() -> inputByName.attach(ReconfigurableDataflowRuntimeBuilder.create(),
        DataflowProgram.compile("s.dsrv", "in x\nout z = x")))
        .isInstanceOf(MqttConfigException.class)
        .hasMessage("the control topic 'x' collides with the topic 'x' of input 'x' (requests,"
            + " acknowledgements and data need topics of their own)");
    assertThatThrownBy(() -> MqttOptions.builder("tcp://127.0.0.1:1").controlTopic("robot/ctl")
        .inputTopic("x", "robot/#").build())
        .isInstanceOf(MqttConfigException.class)
        .hasMessageContaining("collides with the topic 'robot/#' of input 'x'");
  }

  @Test
  void aRouteNamingNoStreamIsRejected() {
    MqttTransport mqtt = transport(MqttOptions.builder("tcp://127.0.0.1:1")
        .inputTopic("q", "robot/q"));
    assertThatThrownBy(() -> mqtt.attach(ReconfigurableDataflowRuntimeBuilder.create(),
        DataflowProgram.compile("s.dsrv", "in x\nout z = x")))
        .isInstanceOf(MqttConfigException.class)
        .hasMessage("input topics: 'q' is not an input of s.dsrv (inputs: x)");
  }

  @Test
  void aBrokerAwayLongerThanTheBudgetFailsTheSinkWithItsAttempts() throws Exception {
    Moquette own = Moquette.start(dir.resolve("own")); // stopped by the test
    closing.add(own);
    MqttTransport mqtt = transport(MqttOptions.builder(own.url()).clientId(id("monitor"))
        .publishRetry(new Backoff(Duration.ofMillis(10), Duration.ofMillis(20), 2.0, 3)));
    Sinks.Collecting tap = Sinks.collecting();
    DataflowRuntime runtime = start(mqtt, "in x\nout z = x", tap);
    assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "x")).isTrue();
    own.stop();
    assertThat(TestClient.waitUntil(() -> !mqtt.status().connected(), 10_000)).isTrue();
    runtime.offer(Tick.of("x", Value.of(1)));

    ExitReport report = runtime.awaitTermination(Duration.ofSeconds(10));
    assertThat(report.isCompleted()).isFalse();
    assertThat(report.reason()).startsWith("gave up after 3 attempts")
        .contains("attempt 1: ", "attempt 2: ", "attempt 3: ", "unreachable");
  }

  /**
   * Catches: Paho's callback thread waiting for room in the ingress queue. It would then take no
   * more messages (the status would count only the few admitted), its completions would wait,
   * and once the receiving thread behind it blocks, so would the PUBACKs a flush waits for.
   * Here the owner thread is held while the robot publishes, then catches up through an ingress
   * queue of two, filling it at every poll, and flushes every tick.
   */
  @Test
  void aFullIngressNeitherHoldsUpTheClientNorStallsTheSinksFlush() throws Exception {
    TestClient robot = client();
    // A flush whose PUBACKs are late fails the run: one attempt of 2 s.
    MqttTransport mqtt = transport(MqttOptions.builder(broker().url()).clientId(id("monitor"))
        .inputTopic("x", "full/x").outputTopic("z", "full/z").flushTimeout(Duration.ofSeconds(2))
        .publishRetry(new Backoff(Duration.ofMillis(10), Duration.ofMillis(10), 2.0, 1)));
    CountDownLatch open = new CountDownLatch(1);
    Sinks.Collecting tap = Sinks.collecting();
    DataflowRuntime runtime = mqtt.attach(ReconfigurableDataflowRuntimeBuilder.create()
        .tap("gate", gate(open)).tap("collect", tap)
        .options(o -> o.withIngressCapacity(2).withPolicy(ExecutionPolicy.SYNCHRONOUS)),
        DataflowProgram.compile("spec.dsrv", "in x: Int\nout z = x")).build();
    closing.add(() -> {
      open.countDown();
      runtime.stop(Duration.ofSeconds(5));
      runtime.awaitTermination(Duration.ofSeconds(10));
    });
    runtime.start();
    assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "full/x")).isTrue();
    for (int i = 0; i < 20; i++) {
      robot.publish("full/x", Integer.toString(i));
    }
    // The owner holds tick 0 at the gate, yet the client takes the broker's whole window (10
    // unacknowledged messages with Moquette) beyond it.
    assertThat(TestClient.waitUntil(() -> mqtt.status().received() >= 10, 10_000))
        .as("%s", mqtt.status()).isTrue();
    open.countDown();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      expected.add("{\"value\":" + i + "}");
    }
    assertThat(TestClient.waitUntil(() -> broker().published("full/z").size() >= 20, 20_000))
        .as("%s", broker().published("full/z")).isTrue();
    // In order, each once, and every flush got its PUBACKs in time: the run goes on.
    assertThat(broker().published("full/z")).isEqualTo(expected);
    assertThat(tap.lines()).hasSize(20).startsWith("z[0] = Int(0)").endsWith("z[19] = Int(19)");
    assertThat(runtime.isTerminated()).as("%s", runtime.status()).isFalse();
  }

  /**
   * Catches: messages for a topic no source of the run reads (here a subscription the previous
   * run with the same client id left in the session) kept unacknowledged: the broker's window
   * (10 with Moquette) fills with them and nothing else is delivered.
   */
  @Test
  void messagesNoSourceReadsDoNotHoldUpTheOthers() throws Exception {
    TestClient robot = client();
    String id = id("monitor");
    try (MqttTransport mqtt = MqttTransport.create(MqttOptions.builder(broker().url()).clientId(id)
        .inputTopic("x", "stale/x").inputTopic("y", "stale/y").build())) {
      DataflowRuntime runtime = start(mqtt, "in x\nin y\nout z = x", Sinks.collecting());
      assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "stale/x", "stale/y")).isTrue();
      runtime.stop(Duration.ofSeconds(5));
      assertThat(runtime.awaitTermination(Duration.ofSeconds(10)).isCompleted()).isTrue();
    }
    Sinks.Collecting tap = Sinks.collecting();
    MqttTransport mqtt = transport(MqttOptions.builder(broker().url()).clientId(id)
        .inputTopic("x", "stale/x"));
    start(mqtt, "in x\nout z = x", tap);
    assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "stale/x")).isTrue();
    for (int i = 0; i < 15; i++) {
      robot.publish("stale/y", Integer.toString(i)); // the session still routes them here
    }
    robot.publish("stale/x", "7");
    assertThat(TestClient.waitUntil(() -> tap.lines().size() == 1, 10_000))
        .as("%s", mqtt.status()).isTrue();
    assertThat(tap.lines()).containsExactly("z[0] = Int(7)");
    assertThat(mqtt.status().received()).isEqualTo(16);
  }

  /** A tap whose first row waits (bounded) until {@code open}: it holds the owner thread. */
  static OutputWriter gate(CountDownLatch open) {
    return new OutputWriter() {
      @Override
      public void feed(long tick, RowLayout layout, Row row) throws IOException {
        try {
          if (!open.await(30, TimeUnit.SECONDS)) {
            throw new IOException("the gate stayed closed");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IOException(e);
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
  }

  @Test
  void aStoppedRunKeepsItsSessionAndTheNextRunGetsWhatWasPublishedMeanwhile() throws Exception {
    TestClient robot = client();
    String id = id("monitor");
    Sinks.Collecting first = Sinks.collecting();
    try (MqttTransport mqtt = MqttTransport.create(MqttOptions.builder(broker().url()).clientId(id)
        .build())) {
      DataflowRuntime runtime = start(mqtt, "in x\nout z = x", first);
      assertThat(mqtt.awaitSubscribed(Duration.ofSeconds(10), "x")).isTrue();
      robot.publish("x", "1");
      assertThat(TestClient.waitUntil(() -> first.lines().size() == 1, 10_000)).isTrue();
      runtime.stop(Duration.ofSeconds(5));
      assertThat(runtime.awaitTermination(Duration.ofSeconds(10)).isCompleted()).isTrue();
    }
    robot.publish("x", "2"); // nobody connected: the broker keeps it for the session
    Sinks.Collecting second = Sinks.collecting();
    MqttTransport again = transport(MqttOptions.builder(broker().url()).clientId(id));
    start(again, "in x\nout z = x", second);
    assertThat(TestClient.waitUntil(() -> second.lines().size() == 1, 10_000)).isTrue();
    assertThat(second.lines()).containsExactly("z[0] = Int(2)");
  }
}
