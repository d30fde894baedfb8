package io.dataflow.mqtt;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;

/**
 * The other side of a test: a plain Paho client that publishes at QoS 1 (waiting for each
 * PUBACK) and collects what arrives on the topics it subscribed to, with a persistent session
 * and Paho's own reconnect (the library's reconnect is what the tests examine, not this one's).
 */
public final class TestClient implements AutoCloseable {
  private final MqttClient client;
  private final List<String> received = new ArrayList<>(); // guarded by itself

  TestClient(String url, String clientId) throws MqttException {
    client = new MqttClient(url, clientId, new MemoryPersistence());
    MqttConnectOptions o = new MqttConnectOptions();
    o.setCleanSession(false);
    o.setAutomaticReconnect(true);
    o.setMaxReconnectDelay(200);
    o.setConnectionTimeout(5);
    // Paho counts a QoS 1 publish in flight until after its waiter was released (Paho issue
    // 551), so back-to-back synchronous publishes can meet the default window of 10.
    o.setMaxInflight(1000);
    client.setTimeToWait(10_000);
    client.connect(o);
  }

  /** Subscribes at QoS 1; each message is kept as {@code topic payload}. */
  void subscribe(String... topics) throws MqttException {
    for (String t : topics) {
      client.subscribe(t, 1, (topic, message) -> {
        synchronized (received) {
          received.add(topic + " " + new String(message.getPayload(), StandardCharsets.UTF_8));
        }
      });
    }
  }

  /**
   * Publishes at QoS 1 and waits for the PUBACK; a full in-flight window (see the constructor)
   * is waited out, bounded, rather than failing the test.
   */
  void publish(String topic, String payload) throws MqttException {
    io.dataflow.core.Clock clock = io.dataflow.core.SystemClock.INSTANCE;
    long deadline = clock.nanoTime() + 10_000_000_000L;
    while (true) {
      try {
        client.publish(topic, payload.getBytes(StandardCharsets.UTF_8), 1, false);
        return;
      } catch (MqttException e) {
        if (e.getReasonCode() != MqttException.REASON_CODE_MAX_INFLIGHT
            || clock.nanoTime() - deadline > 0) {
          throw e;
        }
        clock.backOff();
      }
    }
  }

  /** Publishes, retrying (bounded) while this client reconnects. */
  void publishRetrying(String topic, String payload) throws Exception {
    MqttException last = null;
    for (int i = 0; i < 500; i++) {
      try {
        publish(topic, payload);
        return;
      } catch (MqttException e) {
        last = e;
        waitUntil(client::isConnected, 10_000);
      }
    }
    throw last;
  }

  /** What arrived so far. */
  List<String> received() {
    synchronized (received) {
      return List.copyOf(received);
    }
  }

  /** Waits (bounded, never sleeping) until at least {@code n} messages arrived. */
  List<String> awaitReceived(int n) {
    waitUntil(() -> received().size() >= n, 20_000);
    return received();
  }

  /** Polls {@code condition} until it holds or {@code millis} of real time passed. */
  public static boolean waitUntil(BooleanSupplier condition, long millis) {
    io.dataflow.core.Clock clock = io.dataflow.core.SystemClock.INSTANCE;
    long deadline = clock.nanoTime() + millis * 1_000_000L;
    while (!condition.getAsBoolean()) {
      if (clock.nanoTime() - deadline > 0) {
        return false;
      }
      clock.backOff();
    }
    return true;
  }

  @Override
  public void close() throws MqttException {
    if (client.isConnected()) {
      client.disconnect(1000);
    }
    client.close(true);
  }
}
