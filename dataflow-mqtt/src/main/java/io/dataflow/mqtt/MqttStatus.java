package io.dataflow.mqtt;

import java.util.Set;

/**
 * A snapshot of an MQTT connection, read at one moment.
 *
 * @param connected whether the client is connected now
 * @param attempts the connection attempts that failed since the last success (0 when connected)
 * @param lastError the last connection error (a failed attempt or a lost connection), or null
 * @param connects how many times the client connected (1 after the first connection; each
 *     reconnect adds one)
 * @param received messages received on data and control topics
 * @param published messages the broker acknowledged (PUBACK) for the sink and the control route
 * @param skipped bad payloads skipped ({@link OnBadRecord#SKIP})
 * @param subscriptions the topic filters the broker confirmed (SUBACK) on this connection
 */
public record MqttStatus(boolean connected, int attempts, String lastError, long connects,
    long received, long published, long skipped, Set<String> subscriptions) {
  /** Copies the subscriptions. */
  public MqttStatus {
    subscriptions = Set.copyOf(subscriptions);
  }

  /** One line for logs: {@code mqtt connected=true attempts=0 ...}. */
  public String toLine() {
    return "mqtt connected=" + connected + " attempts=" + attempts + " connects=" + connects
        + " received=" + received + " published=" + published + " skipped=" + skipped
        + (lastError == null ? "" : " last_error=" + lastError);
  }
}
