package io.dataflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Clock;
import io.dataflow.core.SystemClock;
import io.moquette.broker.Server;
import io.moquette.broker.config.MemoryConfig;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code live --mqtt} against a Moquette broker in the test's JVM. */
class LiveMqttTest {
  @TempDir
  Path dir;

  @Test
  void readsTopicsPrintsAndPublishesAndEndsWithStatusOneOnABadPayload() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    Properties p = new Properties();
    p.setProperty("host", "127.0.0.1");
    p.setProperty("port", Integer.toString(port));
    p.setProperty("websocket_port", "disabled");
    p.setProperty("allow_anonymous", "true");
    p.setProperty("persistence_enabled", "false");
    p.setProperty("telemetry_enabled", "false");
    p.setProperty("immediate_buffer_flush", "true");
    Server broker = new Server();
    broker.startServer(new MemoryConfig(p));
    MqttClient robot = new MqttClient("tcp://127.0.0.1:" + port, "robot-cli",
        new MemoryPersistence());
    try {
      // Paho may count a synchronous QoS 1 publish in flight after its PUBACK (Paho issue 551):
      // a window of 10 can fill with back-to-back publishes.
      MqttConnectOptions options = new MqttConnectOptions();
      options.setMaxInflight(1000);
      robot.connect(options);
      Path spec = Files.writeString(dir.resolve("sum.dsrv"),
          "in x: Int\nout z = default(z[1], 0) + x\n");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      CompletableFuture<Integer> status = CompletableFuture.supplyAsync(() -> Main.run(
          new String[] {"live", spec.toString(), "--mqtt", "tcp://127.0.0.1:" + port,
              "--input-topics", "x=robot/x", "--client-id", "cli-test"},
          new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
          new PrintStream(err, true, StandardCharsets.UTF_8)));
      // The broker reports the subscription to a retained probe: wait until a value arrives.
      assertThat(waitUntil(() -> {
        try {
          robot.publish("robot/x", "0".getBytes(StandardCharsets.UTF_8), 1, false);
        } catch (Exception e) {
          return false;
        }
        return out.toString(StandardCharsets.UTF_8).contains("z[");
      })).isTrue();
      String before = out.toString(StandardCharsets.UTF_8);
      robot.publish("robot/x", "{\"value\": 5}".getBytes(StandardCharsets.UTF_8), 1, false);
      robot.publish("robot/x", "five".getBytes(StandardCharsets.UTF_8), 1, false);
      assertThat(status.get(20, TimeUnit.SECONDS)).isEqualTo(1);
      String printed = out.toString(StandardCharsets.UTF_8);
      assertThat(printed).startsWith(before).endsWith("= Int(5)\n");
      assertThat(err.toString(StandardCharsets.UTF_8)).endsWith("dataflow: source:x failed:"
          + " topic 'robot/x': bad payload: not JSON5 (Unrecognized token 'five': was expecting"
          + " (JSON String, Number (or 'NaN'/'+INF'/'-INF'), Array, Object or token 'null', 'true'"
          + " or 'false')): 'five'\n");
    } finally {
      robot.disconnect();
      robot.close();
      broker.stopServer();
    }
  }

  @Test
  void mqttOptionsNeedMqttAndAValidBroker() {
    CliTest.Result r = CliTest.cli("", "live", "a.dsrv", "--control-topic", "ctl");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).startsWith("dataflow: --control-topic needs --mqtt tcp://HOST:PORT");
    r = CliTest.cli("", "live", "a.dsrv", "--on-bad-record", "maybe");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).startsWith("dataflow: --on-bad-record must be fail or skip, not 'maybe'");
  }

  @Test
  void aControlTopicCollidingWithADataTopicIsAnInvalidCommandLine() throws Exception {
    Path spec = Files.writeString(dir.resolve("s.dsrv"), "in x\nout z = x\n");
    CliTest.Result r = CliTest.cli("", "live", spec.toString(), "--mqtt", "tcp://127.0.0.1:1",
        "--control-topic", "x");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("dataflow: the control topic 'x' collides with the topic 'x'"
        + " of input 'x' (requests, acknowledgements and data need topics of their own)\n");
    r = CliTest.cli("", "live", spec.toString(), "--mqtt", "localhost:1883");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("dataflow: --mqtt needs a broker address such as"
        + " tcp://localhost:1883, not 'localhost:1883'\n");
  }

  private static boolean waitUntil(BooleanSupplier condition) {
    Clock clock = SystemClock.INSTANCE;
    long deadline = clock.nanoTime() + 20_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (clock.nanoTime() - deadline > 0) {
        return false;
      }
      long until = clock.nanoTime() + 50_000_000L;
      while (clock.nanoTime() - until < 0) {
        clock.backOff();
      }
    }
    return true;
  }
}
