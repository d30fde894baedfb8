package io.dataflow.mqtt.internal;

import io.dataflow.core.Backoff;
import io.dataflow.core.Clock;
import io.dataflow.core.DataflowException;
import io.dataflow.core.RetryableException;
import io.dataflow.mqtt.MqttStatus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.paho.client.mqttv3.IMqttActionListener;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;
import org.eclipse.paho.client.mqttv3.IMqttToken;
import org.eclipse.paho.client.mqttv3.MqttAsyncClient;
import org.eclipse.paho.client.mqttv3.MqttCallback;
import org.eclipse.paho.client.mqttv3.MqttConnectOptions;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.MqttMessage;
import org.eclipse.paho.client.mqttv3.MqttTopic;
import org.eclipse.paho.client.mqttv3.persist.MemoryPersistence;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Paho client with a persistent session (clean session off, QoS 1), shared by the sources,
 * the sink and the control route of a transport.
 *
 * <h2>Implementation note</h2>
 *
 * <p><b>Reconnecting.</b> Paho's own automatic reconnect is off: its timer is not the
 * {@link Clock}. {@link #doWork(long)} is the duty cycle instead: when disconnected and the
 * backoff's delay has passed, it makes one connection attempt; a failure counts an attempt,
 * keeps the error and waits {@code backoff.delayNanos(attempts)}; a success resubscribes every
 * topic (the broker may have lost the session) and publishes what waited for the connection. A
 * lost connection makes the next attempt due at once. The runner thread ({@link #start}) runs
 * the cycle on the clock; a test steps it on a manual clock instead.
 *
 * <p><b>Receiving.</b> Acknowledgements are manual: a message is acknowledged (PUBACK) only
 * after its handler admitted it into the runtime's ingress queue, so a message the runtime never
 * admitted is redelivered by the broker, in this session or the next one with the same client
 * id. A message for a topic whose handler is not registered yet (the broker delivers the
 * session's backlog as soon as it connects) is parked unacknowledged until the handler arrives.
 *
 * <p>Thread-safety: safe from any thread; handlers run on Paho's callback thread, one message
 * at a time in arrival order.
 */
public final class MqttConnection implements MqttCallback {
  private static final Logger LOG = LoggerFactory.getLogger(MqttConnection.class);

  /** Receives the messages of one topic filter; true acknowledges the message. */
  @FunctionalInterface
  public interface Handler {
    /** Delivers one message (Paho's callback thread); false leaves it unacknowledged. */
    boolean deliver(String topic, byte[] payload);
  }

  private record Parked(String topic, MqttMessage message) {}

  private record Later(String topic, byte[] payload) {}

  private final String broker;
  private final String clientId;
  private final Clock clock;
  private final Backoff reconnect;
  private final MqttAsyncClient client;
  private final MqttConnectOptions connectOptions;
  private final Map<String, Handler> handlers = new ConcurrentHashMap<>();
  private final Set<String> subscribed = ConcurrentHashMap.newKeySet();
  private final List<Parked> parked = new ArrayList<>(); // guarded by itself
  private final Queue<Later> later = new ConcurrentLinkedQueue<>();
  private final AtomicLong received = new AtomicLong();
  private final AtomicLong published = new AtomicLong();
  private final AtomicLong skipped = new AtomicLong();
  // Connection state: written by the runner (or the stepping test) and Paho's callback thread.
  private volatile boolean connected;
  private volatile int attempts;
  private volatile String lastError;
  private volatile long connects;
  private volatile long nextAttemptNanos;
  private volatile boolean closed;
  private Thread runner; // guarded by this

  /**
   * A connection to {@code broker} (not yet connected).
   *
   * @param connectTimeoutSeconds how long one connection attempt may take (at least 1)
   */
  public MqttConnection(String broker, String clientId, Clock clock, Backoff reconnect,
      int connectTimeoutSeconds) {
    this.broker = broker;
    this.clientId = clientId;
    this.clock = clock;
    this.reconnect = reconnect;
    try {
      this.client = new MqttAsyncClient(broker, clientId, new MemoryPersistence());
    } catch (MqttException | IllegalArgumentException e) {
      throw new io.dataflow.mqtt.MqttConfigException("bad MQTT broker address '" + broker
          + "': " + DataflowException.describe(e));
    }
    client.setCallback(this);
    client.setManualAcks(true);
    connectOptions = new MqttConnectOptions();
    connectOptions.setCleanSession(false);
    connectOptions.setAutomaticReconnect(false);
    connectOptions.setConnectionTimeout(Math.max(1, connectTimeoutSeconds));
    connectOptions.setKeepAliveInterval(30);
    connectOptions.setMaxInflight(1024);
    this.nextAttemptNanos = clock.nanoTime();
  }

  /** The broker's address. */
  public String broker() {
    return broker;
  }

  /** The client id (the persistent session's name). */
  public String clientId() {
    return clientId;
  }

  /** The clock of the reconnect backoff and the sink's waits. */
  public Clock clock() {
    return clock;
  }

  /** Starts the runner thread that connects and reconnects (once; later calls do nothing). */
  public synchronized void start(ThreadFactory threads) {
    if (runner != null || closed) {
      return;
    }
    runner = threads.newThread(this::run);
    runner.setName("dataflow-mqtt-" + clientId);
    runner.setDaemon(true);
    runner.start();
  }

  private void run() {
    while (!closed) {
      long now = clock.nanoTime();
      if (doWork(now) == 0) {
        long wake = connected ? now + 20_000_000L : Math.min(nextAttemptNanos, now + 20_000_000L);
        clock.parkUntil(wake);
      }
    }
  }

  /**
   * One duty cycle: a connection attempt when one is due, then what waited for the
   * connection. Runner thread only (or a test stepping it).
   *
   * @return the work done (0 when idle)
   */
  public int doWork(long nowNanos) {
    if (closed) {
      return 0;
    }
    if (!connected) {
      if (nowNanos - nextAttemptNanos < 0) {
        return 0;
      }
      attempt(nowNanos);
      return 1;
    }
    return publishLater();
  }

  private void attempt(long nowNanos) {
    try {
      client.connect(connectOptions).waitForCompletion();
    } catch (MqttException e) {
      attempts++;
      lastError = describe(e);
      nextAttemptNanos = nowNanos + reconnect.delayNanos(attempts);
      LOG.debug("mqtt connection attempt {} to {} failed: {}", attempts, broker, lastError);
      return;
    }
    connects++;
    attempts = 0;
    connected = true;
    if (connects == 1) {
      LOG.debug("mqtt connected to {} as {}", broker, clientId);
    } else {
      LOG.info("mqtt reconnected to {} as {} (connection {})", broker, clientId, connects);
    }
    handlers.keySet().forEach(this::sendSubscribe);
  }

  /** A Paho exception's message and cause, on one line. */
  static String describe(Throwable e) {
    String m = DataflowException.describe(e);
    Throwable c = e.getCause();
    if (c != null && c != e && c.getMessage() != null && !m.contains(c.getMessage())) {
      m = m + " (" + c.getMessage() + ")";
    }
    return m;
  }

  /** Registers the handler of a topic filter and subscribes (now, or when connected). */
  public void subscribe(String topicFilter, Handler handler) {
    handlers.put(topicFilter, handler);
    if (connected) {
      sendSubscribe(topicFilter);
    }
    List<Parked> ready = new ArrayList<>();
    synchronized (parked) {
      parked.removeIf(p -> MqttTopic.isMatched(topicFilter, p.topic()) && ready.add(p));
    }
    for (Parked p : ready) {
      handle(p.topic(), p.message(), handler);
    }
  }

  private void sendSubscribe(String topicFilter) {
    try {
      client.subscribe(topicFilter, 1, null, new IMqttActionListener() {
        @Override
        public void onSuccess(IMqttToken token) {
          if (handlers.containsKey(topicFilter)) {
            subscribed.add(topicFilter);
          }
        }

        @Override
        public void onFailure(IMqttToken token, Throwable e) {
          lastError = "subscribe to '" + topicFilter + "' failed: " + describe(e);
          LOG.warn("mqtt {}", lastError);
        }
      });
    } catch (MqttException e) {
      // Not connected any more: the next connection subscribes again.
      LOG.debug("mqtt subscribe to '{}' deferred: {}", topicFilter, describe(e));
    }
  }

  /**
   * Removes the handler of a topic filter but keeps the broker's subscription: the run is
   * ending, and the persistent session keeps collecting the topic's messages for the next run
   * with this client id. A message that arrives meanwhile is parked unacknowledged, so the
   * broker delivers it again.
   */
  public void release(String topicFilter) {
    handlers.remove(topicFilter);
  }

  /** Removes the handler of a topic filter and unsubscribes. */
  public void unsubscribe(String topicFilter) {
    handlers.remove(topicFilter);
    subscribed.remove(topicFilter);
    if (connected) {
      try {
        client.unsubscribe(topicFilter);
      } catch (MqttException e) {
        LOG.debug("mqtt unsubscribe from '{}' failed: {}", topicFilter, describe(e));
      }
    }
  }

  /**
   * Publishes at QoS 1 now.
   *
   * @return the token that completes with the broker's PUBACK
   * @throws RetryableException when the client is not connected (or the connection just broke)
   * @throws IOException for an error that retrying cannot fix
   */
  public IMqttDeliveryToken publish(String topic, byte[] payload) throws IOException {
    if (!connected) {
      throw unreachable();
    }
    try {
      return client.publish(topic, payload, 1, false, null, new IMqttActionListener() {
        @Override
        public void onSuccess(IMqttToken token) {
          published.incrementAndGet();
        }

        @Override
        public void onFailure(IMqttToken token, Throwable e) {
          // The sink sees the token's exception and publishes again.
        }
      });
    } catch (MqttException e) {
      switch (e.getReasonCode()) {
        case MqttException.REASON_CODE_CLIENT_NOT_CONNECTED:
        case MqttException.REASON_CODE_CONNECTION_LOST:
        case MqttException.REASON_CODE_MAX_INFLIGHT:
        case MqttException.REASON_CODE_CLIENT_DISCONNECTING:
          throw new RetryableException("publish to '" + topic + "' failed: " + describe(e), e);
        default:
          throw new IOException("publish to '" + topic + "' failed: " + describe(e), e);
      }
    }
  }

  /** The error of a publish while disconnected. */
  public RetryableException unreachable() {
    return new RetryableException("MQTT broker " + broker + " unreachable"
        + (lastError == null ? "" : ": " + lastError));
  }

  /** Publishes at QoS 1 as soon as connected, never failing the caller (acknowledgements). */
  public void publishEventually(String topic, byte[] payload) {
    later.add(new Later(topic, payload));
    if (connected) {
      publishLater();
    }
  }

  private synchronized int publishLater() {
    int n = 0;
    for (Later l = later.peek(); l != null && connected; l = later.peek()) {
      try {
        publish(l.topic(), l.payload());
        later.poll();
        n++;
      } catch (IOException e) {
        LOG.debug("mqtt publish to '{}' deferred: {}", l.topic(), e.getMessage());
        break;
      }
    }
    return n;
  }

  /** Counts a skipped bad payload. */
  public void countSkipped() {
    skipped.incrementAndGet();
  }

  /** Whether the client is connected now. */
  public boolean isConnected() {
    return connected;
  }

  /** The state now. */
  public MqttStatus status() {
    return new MqttStatus(connected, attempts, lastError, connects, received.get(),
        published.get(), skipped.get(), Set.copyOf(subscribed));
  }

  @Override
  public void connectionLost(Throwable cause) {
    connected = false;
    subscribed.clear();
    lastError = "connection lost: " + describe(cause);
    nextAttemptNanos = clock.nanoTime();
    LOG.warn("mqtt {} ({}): {}", broker, clientId, lastError);
  }

  @Override
  public void messageArrived(String topic, MqttMessage message) {
    received.incrementAndGet();
    Handler handler = handlerFor(topic);
    if (handler == null) {
      synchronized (parked) {
        parked.add(new Parked(topic, message));
      }
      // A handler registered meanwhile takes it now.
      handler = handlerFor(topic);
      if (handler != null) {
        boolean mine;
        synchronized (parked) {
          mine = parked.removeIf(p -> p.message() == message);
        }
        if (mine) {
          handle(topic, message, handler);
        }
      }
      return;
    }
    handle(topic, message, handler);
  }

  private Handler handlerFor(String topic) {
    Handler h = handlers.get(topic);
    if (h != null) {
      return h;
    }
    for (Map.Entry<String, Handler> e : handlers.entrySet()) {
      if (MqttTopic.isMatched(e.getKey(), topic)) {
        return e.getValue();
      }
    }
    return null;
  }

  private void handle(String topic, MqttMessage message, Handler handler) {
    if (handler.deliver(topic, message.getPayload())) {
      try {
        client.messageArrivedComplete(message.getId(), message.getQos());
      } catch (MqttException e) {
        // Not acknowledged: the broker delivers it again (a duplicate QoS 1 allows).
        LOG.debug("mqtt acknowledgement of a message on '{}' failed: {}", topic, describe(e));
      }
    }
  }

  @Override
  public void deliveryComplete(IMqttDeliveryToken token) {
    // Publishers wait on their tokens.
  }

  /** Disconnects (waiting up to {@code quiesceMillis} for in-flight work) and stops the runner. */
  public void close(long quiesceMillis) {
    Thread r;
    synchronized (this) {
      closed = true;
      r = runner;
    }
    try {
      if (client.isConnected()) {
        client.disconnect(quiesceMillis).waitForCompletion(quiesceMillis + 1000);
      }
    } catch (MqttException e) {
      LOG.debug("mqtt disconnect: {}", describe(e));
      try {
        client.disconnectForcibly(0, 1000);
      } catch (MqttException ignored) {
        // closing anyway
      }
    }
    connected = false;
    try {
      client.close(true);
    } catch (MqttException e) {
      LOG.debug("mqtt close: {}", describe(e));
    }
    if (r != null && r != Thread.currentThread()) {
      r.interrupt();
    }
  }
}
