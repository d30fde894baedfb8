package io.dataflow.mqtt.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import io.dataflow.core.Kind;
import io.dataflow.core.Value;
import io.dataflow.io.internal.Json5;
import io.dataflow.io.internal.JsonValues;
import io.dataflow.mqtt.MqttPayloadException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * MQTT payloads and values: a payload is one JSON5 value in the value encoding of JSON Lines
 * (docs/io.md#value-encoding); a top-level object whose only key is {@code value} is unwrapped.
 * What the sink publishes is always the wrapped form {@code {"value": <json>}}.
 *
 * <p>Thread-safety: stateless.
 */
public final class Payloads {
  /** How much of a bad payload a message shows. */
  static final int EXCERPT = 60;
  private static final JsonFactory JSON = new JsonFactory();

  private Payloads() {}

  /**
   * Decodes one payload into a value of {@code declaredType} (null: any type).
   *
   * @throws MqttPayloadException naming the topic, with an excerpt of the payload
   */
  public static Value decode(String topic, byte[] payload, String declaredType) {
    String text = new String(payload, StandardCharsets.UTF_8);
    JsonNode node;
    try {
      node = Json5.parseValue(text);
    } catch (IOException | RuntimeException e) {
      throw bad(topic, text, "not JSON5 (" + firstLine(e.getMessage()) + ")");
    }
    if (node == null || node.isMissingNode()) {
      throw bad(topic, text, "not JSON5 (empty payload)");
    }
    if (node.isObject() && node.size() == 1 && node.has("value")) {
      node = node.get("value");
    }
    Value v;
    try {
      v = JsonValues.read(node);
    } catch (IllegalArgumentException e) {
      throw bad(topic, text, "no value: " + e.getMessage());
    }
    if (!matches(declaredType, v)) {
      throw bad(topic, text, "expected " + declaredType + ", got " + kindName(v));
    }
    return v;
  }

  /** The payload the sink publishes for one value: {@code {"value": <json>}}. */
  public static byte[] encode(Value v) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(32);
    try (JsonGenerator g = JSON.createGenerator(bytes)) {
      g.writeStartObject();
      g.writeFieldName("value");
      JsonValues.write(g, v);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // writing to memory
    }
    return bytes.toByteArray();
  }

  /**
   * Whether {@code v} belongs to a declared input type, as the monitor's check sees it: the
   * scalar types by kind, lists and maps by their outer kind (the monitor checks the
   * elements); Deferred belongs to every type; an undeclared or other type accepts anything.
   */
  static boolean matches(String declaredType, Value v) {
    if (declaredType == null || v.kind() == Kind.DEFERRED) {
      return true;
    }
    String t = declaredType.strip();
    switch (t) {
      case "Int":
        return v.kind() == Kind.INT;
      case "Float":
        return v.kind() == Kind.FLOAT;
      case "Str":
        return v.kind() == Kind.STR;
      case "Bool":
        return v.kind() == Kind.BOOL;
      case "Unit":
        return v.kind() == Kind.UNIT;
      default:
        if (t.startsWith("List")) {
          return v.kind() == Kind.LIST;
        }
        if (t.startsWith("Map")) {
          return v.kind() == Kind.MAP;
        }
        return true;
    }
  }

  private static String kindName(Value v) {
    String s = v.toString();
    int paren = s.indexOf('(');
    return paren > 0 ? s.substring(0, paren) + " " + excerpt(s) : s;
  }

  private static MqttPayloadException bad(String topic, String text, String why) {
    return new MqttPayloadException(topic, "topic '" + topic + "': bad payload: " + why
        + ": '" + excerpt(text) + "'");
  }

  /** The start of a payload, on one line, at most {@link #EXCERPT} characters. */
  static String excerpt(String text) {
    String flat = text.replace("\r", "\\r").replace("\n", "\\n");
    return flat.length() <= EXCERPT ? flat : flat.substring(0, EXCERPT) + "...";
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "malformed";
    }
    int nl = message.indexOf('\n');
    String line = nl < 0 ? message : message.substring(0, nl);
    int at = line.indexOf(" (start marker at");
    return at < 0 ? line : line.substring(0, at);
  }
}
