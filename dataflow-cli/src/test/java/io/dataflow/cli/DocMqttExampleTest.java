package io.dataflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.moquette.broker.Server;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.junit.jupiter.api.Test;

/**
 * Runs the worked example of docs/mqtt.md against a Moquette broker in this JVM: the command,
 * the publications and the expected outputs are read from the page's marked blocks, and only
 * the broker's address differs.
 */
class DocMqttExampleTest {
  private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).resolve("..")
      .normalize();

  @Test
  void theWorkedExampleOfMqttMdRunsAsShown() throws Exception {
    String page = Files.readString(ROOT.resolve("docs/mqtt.md"));
    List<String> command = words(String.join(" ", block(page, "command")).replace("\\ ", " "));
    assertThat(command.subList(0, 2)).containsExactly("bin/dataflow", "live");
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    String url = "tcp://127.0.0.1:" + port;
    List<String> args = new ArrayList<>();
    for (String w : command.subList(1, command.size())) {
      args.add(w.equals("tcp://localhost:1883") ? url
          : w.startsWith("docs/") ? ROOT.resolve(w).toString() : w);
    }
    Server broker = LiveMqttTestSupport.start(config(port));
    MqttClient robot = new MqttClient(url, "doc-robot", new MemoryPersistence());
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    try {
      // Paho may count a synchronous QoS 1 publish in flight after its PUBACK (Paho issue 551):
      // a window of 10 can fill with back-to-back publishes.
      MqttConnectOptions options = new MqttConnectOptions();
      options.setMaxInflight(1000);
      robot.connect(options);
      robot.subscribe(new String[] {"robot/1/z", "robot/1/control/ack"}, new int[] {1, 1},
          new org.eclipse.paho.client.mqttv3.IMqttMessageListener[] {
              (t, m) -> seen.add(t + " " + new String(m.getPayload(), StandardCharsets.UTF_8)),
              (t, m) -> seen.add(t + " " + new String(m.getPayload(), StandardCharsets.UTF_8))});
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      CompletableFuture<Integer> status = CompletableFuture.supplyAsync(() -> Main.run(
          args.toArray(new String[0]), new ByteArrayInputStream(new byte[0]),
          new PrintStream(out, true, StandardCharsets.UTF_8),
          new PrintStream(err, true, StandardCharsets.UTF_8)));
      // The monitor is ready when the broker has its subscriptions (its own client id).
      assertThat(LiveMqttTestSupport.waitUntil(() ->
          LiveMqttTestSupport.subscribed(broker, "dataflow", "robot/1/x", "robot/1/control")))
          .isTrue();
      for (String line : block(page, "publish")) {
        List<String> w = words(line);
        assertThat(w.get(0)).isEqualTo("mosquitto_pub");
        String topic = w.get(w.indexOf("-t") + 1);
        String payload = w.contains("-m") ? w.get(w.indexOf("-m") + 1)
            : Files.readString(ROOT.resolve(w.get(w.indexOf("-f") + 1)));
        robot.publish(topic, payload.getBytes(StandardCharsets.UTF_8), 1, false);
      }
      assertThat(status.get(20, TimeUnit.SECONDS)).isEqualTo(1);
      List<String> subscribed = block(page, "subscribed");
      assertThat(LiveMqttTestSupport.waitUntil(() -> seen.size() >= subscribed.size())).isTrue();
      assertThat(seen).containsExactlyElementsOf(subscribed);
      assertThat(out.toString(StandardCharsets.UTF_8))
          .isEqualTo(String.join("\n", block(page, "stdout")) + "\n");
      assertThat(err.toString(StandardCharsets.UTF_8))
          .isEqualTo(String.join("\n", block(page, "stderr")) + "\n");
    } finally {
      robot.disconnect();
      robot.close();
      broker.stopServer();
    }
  }

  static Properties config(int port) {
    Properties p = new Properties();
    p.setProperty("host", "127.0.0.1");
    p.setProperty("port", Integer.toString(port));
    p.setProperty("websocket_port", "disabled");
    p.setProperty("allow_anonymous", "true");
    p.setProperty("persistence_enabled", "false");
    p.setProperty("telemetry_enabled", "false");
    p.setProperty("immediate_buffer_flush", "true");
    return p;
  }

  /** The lines of the fenced block after {@code <!-- mqtt-example:NAME -->}, without "$ ". */
  static List<String> block(String page, String name) {
    int marker = page.indexOf("<!-- mqtt-example:" + name + " -->");
    assertThat(marker).as("marker %s", name).isNotNegative();
    int start = page.indexOf('\n', page.indexOf("```", marker)) + 1;
    int end = page.indexOf("```", start);
    List<String> lines = new ArrayList<>();
    for (String l : page.substring(start, end).split("\n")) {
      lines.add(l.startsWith("$ ") ? l.substring(2) : l);
    }
    return lines;
  }

  /** Shell words: blanks separate, single quotes keep everything. */
  static List<String> words(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    boolean quoted = false;
    boolean any = false;
    for (char c : line.toCharArray()) {
      if (c == '\'') {
        quoted = !quoted;
        any = true;
      } else if (!quoted && Character.isWhitespace(c)) {
        if (any) {
          words.add(w.toString());
          w.setLength(0);
          any = false;
        }
      } else {
        w.append(c);
        any = true;
      }
    }
    if (any) {
      words.add(w.toString());
    }
    return words;
  }
}
