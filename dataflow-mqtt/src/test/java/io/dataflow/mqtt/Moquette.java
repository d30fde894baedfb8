package io.dataflow.mqtt;

import io.moquette.broker.Server;
import io.moquette.broker.config.MemoryConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Properties;

/**
 * A Moquette broker in the test's JVM on a free loopback port, with its store on disk so that
 * queued QoS 1 messages and persistent sessions survive a {@link #restart()}.
 */
public final class Moquette implements AutoCloseable {
  private final int port;
  private final Path dataDir;
  private Server server;

  private Moquette(int port, Path dataDir) {
    this.port = port;
    this.dataDir = dataDir;
  }

  /** Starts a broker on a free loopback port, keeping its data in {@code dataDir}. */
  public static Moquette start(Path dataDir) {
    Moquette m = new Moquette(freePort(), dataDir);
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
    Moquette m = new Moquette(port, dataDir);
    m.startServer();
    return m;
  }

  private void startServer() {
    Properties p = new Properties();
    p.setProperty("host", "127.0.0.1");
    p.setProperty("port", Integer.toString(port));
    p.setProperty("websocket_port", "disabled");
    p.setProperty("allow_anonymous", "true");
    p.setProperty("persistence_enabled", "true");
    p.setProperty("data_path", dataDir.toString());
    p.setProperty("telemetry_enabled", "false");
    p.setProperty("immediate_buffer_flush", "true");
    p.setProperty("netty.so_reuseaddr", "true");
    server = new Server();
    try {
      server.startServer(new MemoryConfig(p));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
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

  /** Stops and starts again on the same port with the same store. */
  public void restart() {
    stop();
    startServer();
  }

  @Override
  public void close() {
    stop();
  }
}
