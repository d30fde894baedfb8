package io.dataflow.mqtt.internal;

import io.dataflow.core.Backoff;
import io.dataflow.core.Clock;
import io.dataflow.core.DataflowException;
import io.dataflow.core.RetryableException;
import io.dataflow.mqtt.MqttStatus;
import java.io.IOException;
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
 * <p><b>Receiving.</b> Paho's callback thread never waits for the runtime: it appends each
 * message to the {@link Inbox}, bounded by {@link #MAX_INFLIGHT}, far above a broker's window of
 * unacknowledged messages per session (Moquette 10, mosquitto 20), so the broker stops sending
 * before the inbox fills; only a broker with a larger window makes the callback wait for room.
 * The callback thread thus stays free for what it also runs (publication and subscription
 * completions), and the receiving thread behind it for PUBACKs. The runtime's owner thread takes
 * the messages out in arrival order from its sources' polls ({@link #drain}); each goes to the
 * handler of its topic filter, and a message is acknowledged (PUBACK, manual acknowledgements)
 * only after its handler consumed it: admitted into the ingress queue, or reported as a bad
 * payload. A message the runtime never admitted is redelivered by the broker, in this session or
 * the next one with the same client id. The runtime opens every source before its first poll
 * (and a cutover opens the added ones before the next), so a message that finds no handler when
 * it is drained is one no source of the run reads: a source a request removed, or a
 * subscription an earlier run with this client id left in the session. It is acknowledged with
 * a warning (once per topic), since unacknowledged it would hold a place in the broker's window
 * for good and, after a few of them, stop all delivery.
 *
 * <p><b>Acknowledging across connections.</b> A message remembers the connection it arrived on
 * and is acknowledged only on that one: packet ids belong to a connection. What was received but
 * not admitted when the connection broke is still delivered (the broker may have lost it with
 * its session), unacknowledged; a broker that kept the session sends it again, a duplicate that
 * QoS 1 allows. A copy the broker sends again on the same connection while the first still waits
 * (a resend after its timeout) is dropped.
 *
 * <p>Thread-safety: safe from any thread; handlers run on the thread that calls {@link #drain}
 * (the runtime's owner thread), one message at a time in arrival order.
 */
public final class MqttConnection implements MqttCallback {
  private static final Logger LOG = LoggerFactory.getLogger(MqttConnection.class);

  /**
   * The bound of the client's in-flight window: publications waiting for their PUBACK, and
   * received messages waiting for admission (the {@link Inbox}).
   */
  public static final int MAX_INFLIGHT = 1024;
  /** How many messages one {@link #drain} hands out at most. */
  static final int DRAIN_BATCH = 64;

  /** Receives the messages of one topic filter; true acknowledges the message. */
  @FunctionalInterface
  public interface Handler {
    /**
     * Delivers one message, on the thread that drains (the owner thread): true when it was
     * consumed (admitted, or taken as a bad payload), so it is acknowledged; false keeps it, and
     * every message after it, waiting for the next drain. Must not block.
     */
    boolean deliver(String topic, byte[] payload);
  }

  private record Later(String topic, byte[] payload) {}

  private final String broker;
  private final String clientId;
  private final Clock clock;
  private final Backoff reconnect;
  private final MqttAsyncClient client;
  private final MqttConnectOptions connectOptions;
  private final Map<String, Handler> handlers = new ConcurrentHashMap<>();
  private final Set<String> subscribed = ConcurrentHashMap.newKeySet();
  private final Inbox inbox = new Inbox(MAX_INFLIGHT);
  private final Set<String> unread = new java.util.HashSet<>(); // owner thread only
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
  // Which connection messages arrive on: advanced before every attempt (runner thread).
  private volatile long generation;
  private volatile boolean warnedFull;
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
    connectOptions.setMaxInflight(MAX_INFLIGHT);
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
    generation++; // the backlog may arrive before connect() returns
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

  /**
   * Registers the handler of a topic filter and subscribes (now, or when connected). Messages
   * of its topics that arrived before are delivered by the next {@link #drain}.
   */
  public void subscribe(String topicFilter, Handler handler) {
    handlers.put(topicFilter, handler);
    if (connected) {
      sendSubscribe(topicFilter);
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
   * with this client id. A message that was not admitted, or arrives meanwhile, stays
   * unacknowledged, so the broker delivers it again.
   */
  public void release(String topicFilter) {
    handlers.remove(topicFilter);
  }

  /**
   * Removes the handler of a topic filter and unsubscribes (a cutover removed its source).
   * Messages of its topics that arrived but were not admitted go to a source subscribed to them
   * by the same cutover, if any; the next {@link #drain} acknowledges the others with a warning.
   * Owner thread only.
   */
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
   * Hands waiting messages to their handlers in arrival order, up to a batch, and acknowledges
   * each one consumed. Stops at the first one its handler cannot take yet (the ingress queue is
   * full), so order is kept. Acknowledges one without a handler with a warning (once per
   * topic). Owner thread only (the sources' polls; the first source polled delivers for all).
   *
   * @return how many were consumed
   */
  public int drain() {
    int consumed = 0;
    while (consumed < DRAIN_BATCH) {
      Inbox.Message m = inbox.peek();
      if (m == null) {
        break;
      }
      Handler h = handlerFor(m.topic());
      if (h == null) {
        unread(m.topic());
      } else if (!h.deliver(m.topic(), m.payload())) {
        break;
      }
      acknowledge(m); // before it leaves: a copy sent again meanwhile is still recognized
      inbox.removeFirst();
      consumed++;
    }
    return consumed;
  }

  private void unread(String topic) {
    if (unread.add(topic)) {
      LOG.warn("mqtt: a message on '{}', which no source of this run reads (a source a request"
          + " removed, or a subscription an earlier run with client id '{}' left in the"
          + " session), acknowledged without evaluation; logged once per topic", topic,
          clientId);
    }
  }

  private void acknowledge(Inbox.Message m) {
    if (m.connection() != generation || !connected) {
      return; // its connection is gone: the broker sends it again if it kept the session
    }
    try {
      client.messageArrivedComplete(m.id(), m.qos());
    } catch (MqttException e) {
      // Not acknowledged: the broker delivers it again (a duplicate QoS 1 allows).
      LOG.debug("mqtt acknowledgement of a message on '{}' failed: {}", m.topic(), describe(e));
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

  /**
   * Paho's callback thread: keeps the message for {@link #drain}. Waits only when the inbox is
   * full, which a broker whose window is below {@link #MAX_INFLIGHT} never causes.
   */
  @Override
  public void messageArrived(String topic, MqttMessage message) {
    received.incrementAndGet();
    Inbox.Message m = new Inbox.Message(topic, message.getPayload(), message.getId(),
        message.getQos(), generation);
    while (inbox.add(m) == Inbox.Added.FULL && !closed) {
      if (!warnedFull) {
        warnedFull = true;
        LOG.warn("mqtt: {} received messages wait for admission; holding the broker back",
            MAX_INFLIGHT);
      }
      clock.backOff();
    }
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
