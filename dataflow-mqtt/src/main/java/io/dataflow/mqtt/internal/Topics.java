package io.dataflow.mqtt.internal;

import io.dataflow.mqtt.MqttConfigException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.paho.client.mqttv3.MqttTopic;

/** Routes ({@code x=robot/1/x,y=robot/1/y}) and the rules topics follow. Stateless. */
public final class Topics {
  private Topics() {}

  /**
   * Parses a route list: {@code stream=topic} pairs separated by commas.
   *
   * @param what the option or parameter, for messages ({@code --input-topics})
   * @throws MqttConfigException naming the bad entry
   */
  public static Map<String, String> parseRoutes(String text, String what) {
    Map<String, String> routes = new LinkedHashMap<>();
    if (text == null || text.isBlank()) {
      return routes;
    }
    for (String entry : text.split(",", -1)) {
      String e = entry.strip();
      int eq = e.indexOf('=');
      if (eq <= 0 || eq == e.length() - 1) {
        throw new MqttConfigException(what + ": '" + e + "' is not a route STREAM=TOPIC");
      }
      String stream = e.substring(0, eq).strip();
      String topic = e.substring(eq + 1).strip();
      if (routes.put(stream, topic) != null) {
        throw new MqttConfigException(what + ": stream '" + stream + "' is routed twice");
      }
      validate(topic, what + " (" + stream + ")", true);
    }
    return routes;
  }

  /** Checks a topic (or a filter, when wildcards are allowed). */
  public static void validate(String topic, String what, boolean wildcards) {
    try {
      MqttTopic.validate(topic, wildcards);
    } catch (IllegalArgumentException e) {
      throw new MqttConfigException(what + ": bad topic '" + topic + "': " + e.getMessage());
    }
  }

  /** Whether two topics (filters) can carry the same message. */
  public static boolean collide(String a, String b) {
    return a.equals(b) || (!a.contains("+") && !a.contains("#") && MqttTopic.isMatched(b, a))
        || (!b.contains("+") && !b.contains("#") && MqttTopic.isMatched(a, b));
  }

  /**
   * Rejects a data topic that collides with the control topic or its reply topic.
   *
   * @param control the control topic, or null for none
   * @param what the stream and side, for the message ({@code input 'x'})
   */
  public static void checkNotControl(String control, String topic, String what) {
    if (control == null) {
      return;
    }
    for (String c : new String[] {control, ackTopic(control)}) {
      if (collide(c, topic)) {
        throw new MqttConfigException("the control topic '" + control + "' collides with the "
            + "topic '" + topic + "' of " + what + " (requests, acknowledgements and data need"
            + " topics of their own)");
      }
    }
  }

  /** Where a control topic's acknowledgements go. */
  public static String ackTopic(String control) {
    return control + "/ack";
  }
}
