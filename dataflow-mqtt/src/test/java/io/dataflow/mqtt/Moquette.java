package io.dataflow.mqtt;

import io.moquette.broker.Server;
import io.moquette.broker.config.MemoryConfig;
import io.moquette.interception.AbstractInterceptHandler;
import io.moquette.interception.messages.InterceptPublishMessage;
import io.moquette.interception.messages.InterceptConnectionLostMessage;
import io.moquette.interception.messages.InterceptDisconnectMessage;
import io.moquette.interception.messages.InterceptSubscribeMessage;
import io.moquette.interception.messages.InterceptUnsubscribeMessage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.Properties;

/**
 * A Moquette broker in the test's JVM on a free loopback port. {@link #start} keeps its sessions
 * in memory, so a {@link #restart()} is a broker that lost its sessions, and clients must
 * subscribe again; {@link #startPersistent} keeps them in its H2 store on disk (Moquette's
 * {@code persistent_queue_type=h2}; its default segmented queue does not bring queued messages
 * back after a restart), so a restart keeps the persistent sessions' subscriptions and queued
 * QoS 1 messages. Every PUBLISH the broker receives is recorded ({@link #published(String)}),
 * across restarts: what a sink delivered, whoever listened.
 */
public final class Moquette implements AutoCloseable {
  private final int port;
  private final Path dataDir;
  private final boolean persistent;
  private Server server;
  private final List<String> published = new ArrayList<>(); // guarded by itself
  private final List<String> events = new ArrayList<>(); // guarded by itself
  private final List<String> disconnections = new ArrayList<>(); // client ids; guarded by itself

  private Moquette(int port, Path dataDir, boolean persistent) {
    this.port = port;
    this.dataDir = dataDir;
    this.persistent = persistent;
  }

  /** Starts a broker on a free loopback port, its sessions in memory. */
  public static Moquette start(Path dataDir) {
    Moquette m = new Moquette(freePort(), dataDir, false);
    m.startServer();
    return m;
  }

  /** Starts a broker on a free loopback port, its sessions in its store in {@code dataDir}. */
  public static Moquette startPersistent(Path dataDir) {
    Moquette m = new Moquette(freePort(), dataDir, true);
    m.startServer();
    return m;
  }

  /** A loopback port nobody listens on right now. */
  public static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Starts a broker on {@code port} (a test that first ran without one). */
  public static Moquette startOn(int port, Path dataDir) {
    Moquette m = new Moquette(port, dataDir, false);
    m.startServer();
    return m;
  }

  private void startServer() {
    Properties p = new Properties();
    p.setProperty("host", "127.0.0.1");
    p.setProperty("port", Integer.toString(port));
    p.setProperty("websocket_port", "disabled");
    p.setProperty("allow_anonymous", "true");
    p.setProperty("persistence_enabled", Boolean.toString(persistent));
    p.setProperty("persistent_queue_type", "h2");
    p.setProperty("data_path", dataDir.toString());
    p.setProperty("telemetry_enabled", "false");
    p.setProperty("immediate_buffer_flush", "true");
    p.setProperty("intercept.thread_pool.size", "1"); // events in order
    p.setProperty("netty.so_reuseaddr", "true");
    server = new Server();
    try {
      server.startServer(new MemoryConfig(p), List.of(new AbstractInterceptHandler() {
        @Override
        public String getID() {
          return "recorder";
        }

        @Override
        public void onSubscribe(InterceptSubscribeMessage msg) {
          synchronized (events) {
            events.add(msg.getClientID() + " SUB " + msg.getTopicFilter());
          }
        }

        @Override
        public void onUnsubscribe(InterceptUnsubscribeMessage msg) {
          synchronized (events) {
            events.add(msg.getClientID() + " UNSUB " + msg.getTopicFilter());
          }
        }

        @Override
        public void onDisconnect(InterceptDisconnectMessage msg) {
          synchronized (disconnections) {
            disconnections.add(msg.getClientID());
          }
        }

        @Override
        public void onConnectionLost(InterceptConnectionLostMessage msg) {
          synchronized (disconnections) {
            disconnections.add(msg.getClientID());
          }
        }

        @Override
        public void onSessionLoopError(Throwable error) {
          // Moquette logs it
        }

        @Override
        public void onPublish(InterceptPublishMessage msg) {
          String payload = msg.getPayload().toString(StandardCharsets.UTF_8);
          synchronized (published) {
            published.add(msg.getTopicName() + " " + payload);
          }
        }
      }));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The payloads the broker received on {@code topic}, in order, across restarts. */
  public List<String> published(String topic) {
    synchronized (published) {
      return published.stream().filter(m -> m.startsWith(topic + " "))
          .map(m -> m.substring(topic.length() + 1)).collect(Collectors.toList());
    }
  }

  /** How many times the broker saw {@code clientId}'s connection end, across restarts. */
  public long disconnections(String clientId) {
    synchronized (disconnections) {
      return disconnections.stream().filter(clientId::equals).count();
    }
  }

  /** The SUBSCRIBE and UNSUBSCRIBE requests of {@code clientId}, in order: {@code SUB x}. */
  public List<String> subscriptionEvents(String clientId) {
    synchronized (events) {
      return events.stream().filter(e -> e.startsWith(clientId + " "))
          .map(e -> e.substring(clientId.length() + 1)).collect(Collectors.toList());
    }
  }

  /** The address for clients. */
  public String url() {
    return "tcp://127.0.0.1:" + port;
  }

  /** The port. */
  public int port() {
    return port;
  }

  /** Stops the broker (clients lose their connections). */
  public void stop() {
    if (server != null) {
      server.stopServer();
      server = null;
    }
  }

  /** Stops and starts again on the same port with the same store (when persistent). */
  public void restart() {
    stop();
    startServer();
  }

  @Override
  public void close() {
    stop();
  }
}
