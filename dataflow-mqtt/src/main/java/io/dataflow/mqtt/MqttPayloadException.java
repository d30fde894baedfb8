package io.dataflow.mqtt;

import io.dataflow.core.DataflowException;

/**
 * A message whose payload is not a value of its input stream: not JSON5, a JSON value that
 * encodes no value, or a value of the wrong type for a typed input. The message names the topic
 * and shows an excerpt of the payload.
 */
public final class MqttPayloadException extends DataflowException {
  private static final long serialVersionUID = 1L;
  private final String topic;

  /** A bad payload on {@code topic}; {@code message} is the whole text. */
  public MqttPayloadException(String topic, String message) {
    super(message);
    this.topic = topic;
  }

  /** The topic the message came from. */
  public String topic() {
    return topic;
  }
}
