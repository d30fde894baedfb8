package io.dataflow.mqtt;

/**
 * A bad MQTT setup, found before anything connects: a malformed route, a control topic that
 * collides with a data topic, a missing broker address. The message says which value and why.
 */
public final class MqttConfigException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /** A setup error with its message. */
  public MqttConfigException(String message) {
    super(message);
  }
}
