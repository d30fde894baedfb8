package io.dataflow.mqtt.internal;

import io.dataflow.core.Clock;
import io.dataflow.core.Kind;
import io.dataflow.core.RetryableException;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.spi.OutputWriter;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import org.eclipse.paho.client.mqttv3.IMqttDeliveryToken;

/**
 * The sink: publishes each output value as {@code {"value": <json>}} at QoS 1 to its stream's
 * topic (the route, or the stream's name). A flush completes when every publication of the rows
 * before it was acknowledged (PUBACK); one whose delivery failed is published again (a
 * duplicate is what QoS 1 allows). While the broker is away, {@code feed} and {@code flush}
 * throw {@link RetryableException}s: the runtime retries them with the destination's backoff
 * on its clock, and a broker away longer than that budget fails the sink with every attempt
 * listed.
 *
 * <p>Thread-safety: owner thread only.
 */
public final class MqttOutputWriter implements OutputWriter {
  private record Publication(String topic, byte[] payload, IMqttDeliveryToken token) {}

  private final MqttConnection connection;
  private final Map<String, String> routes;
  private final long flushTimeoutNanos;
  private final Deque<Publication> unacknowledged = new ArrayDeque<>(); // owner thread only

  /**
   * A sink publishing over {@code connection}.
   *
   * @param routes stream name to topic; a stream not listed publishes to its own name
   * @param flushTimeoutNanos how long one flush waits for PUBACKs before it counts as failed
   */
  public MqttOutputWriter(MqttConnection connection, Map<String, String> routes,
      long flushTimeoutNanos) {
    this.connection = connection;
    this.routes = Map.copyOf(routes);
    this.flushTimeoutNanos = flushTimeoutNanos;
  }

  @Override
  public void feed(long tick, RowLayout layout, Row row) throws IOException {
    for (int i = 0; i < layout.width(); i++) {
      if (row.kind(i) == Kind.NOVAL) {
        continue;
      }
      String name = layout.name(i);
      String topic = routes.getOrDefault(name, name);
      byte[] payload = Payloads.encode(row.get(i));
      unacknowledged.add(new Publication(topic, payload, connection.publish(topic, payload)));
      if (unacknowledged.size() >= 512) {
        flush(); // stay below the client's in-flight window
      }
    }
  }

  @Override
  public void flush() throws IOException {
    Clock clock = connection.clock();
    long deadline = clock.nanoTime() + flushTimeoutNanos;
    while (!unacknowledged.isEmpty()) {
      Publication p = unacknowledged.peekFirst();
      if (!p.token().isComplete()) {
        if (!connection.isConnected()) {
          throw new RetryableException(unacknowledged.size() + " publications wait for their"
              + " PUBACK: " + connection.unreachable().getMessage());
        }
        if (clock.nanoTime() - deadline > 0) {
          throw new RetryableException("no PUBACK for '" + p.topic() + "' within "
              + flushTimeoutNanos / 1_000_000 + " ms");
        }
        clock.backOff();
        continue;
      }
      unacknowledged.pollFirst();
      if (p.token().getException() != null) {
        // Lost with the connection: publish again (a duplicate is what QoS 1 allows). When that
        // throws, the publication stays first in line for the retry.
        unacknowledged.addFirst(p);
        IMqttDeliveryToken again = connection.publish(p.topic(), p.payload());
        unacknowledged.pollFirst();
        unacknowledged.addFirst(new Publication(p.topic(), p.payload(), again));
      }
    }
  }

  @Override
  public void close() throws IOException {
    flush();
  }
}
