package io.dataflow.cli;

import io.dataflow.core.Clock;
import io.dataflow.core.SystemClock;
import io.moquette.broker.Server;
import io.moquette.broker.config.MemoryConfig;
import io.moquette.interception.AbstractInterceptHandler;
import io.moquette.interception.messages.InterceptSubscribeMessage;
import java.io.IOException;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/** A Moquette broker that records who subscribed to what, and a bounded wait. */
final class LiveMqttTestSupport {
  private static final Set<String> SUBSCRIPTIONS = ConcurrentHashMap.newKeySet();

  private LiveMqttTestSupport() {}

  /** Starts a broker with {@code config}; its subscriptions are recorded. */
  static Server start(Properties config) throws IOException {
    Server server = new Server();
    server.startServer(new MemoryConfig(config), List.of(new AbstractInterceptHandler() {
      @Override
      public String getID() {
        return "subscriptions";
      }

      @Override
      public void onSubscribe(InterceptSubscribeMessage msg) {
        SUBSCRIPTIONS.add(msg.getClientID() + " " + msg.getTopicFilter());
      }

      @Override
      public void onSessionLoopError(Throwable error) {
        // Moquette logs it
      }
    }));
    return server;
  }

  /** Whether {@code clientId} subscribed to every topic. */
  static boolean subscribed(Server broker, String clientId, String... topics) {
    for (String t : topics) {
      if (!SUBSCRIPTIONS.contains(clientId + " " + t)) {
        return false;
      }
    }
    return true;
  }

  /** Polls {@code condition} for up to 20 s of real time, never sleeping. */
  static boolean waitUntil(BooleanSupplier condition) {
    Clock clock = SystemClock.INSTANCE;
    long deadline = clock.nanoTime() + 20_000_000_000L;
    while (!condition.getAsBoolean()) {
      if (clock.nanoTime() - deadline > 0) {
        return false;
      }
      clock.backOff();
    }
    return true;
  }
}
