package io.dataflow.mqtt.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dataflow.core.spi.Source;
import io.dataflow.core.spi.SourceContext;
import io.dataflow.io.internal.Json5;
import io.dataflow.core.SourceLocation;
import io.dataflow.core.spi.ControlRequest;
import io.dataflow.io.internal.EncodedControlRequest;
import io.dataflow.reconfig.ReconfigurationAck;
import io.dataflow.reconfig.ReconfigurationAckSink;
import io.dataflow.reconfig.ReconfigurationRequest;
import io.dataflow.reconfig.RequestDecoder;
import io.dataflow.reconfig.RequestException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The control route: a source that subscribes to the control topic and delivers each message
 * as a reconfiguration request (the request JSON5 format, plus an optional {@code id} that the
 * acknowledgement echoes), and the acknowledgement sink that publishes each acknowledgement as
 * JSON on {@code <control>/ack}. Every message goes to the runtime in its order, a malformed one
 * too: the runtime rejects it, and its acknowledgement carries the error, in the order of the
 * requests. (The transport sets {@code RejectPolicy.KEEP_RUNNING}.) Pull-style like the input
 * sources: a request is offered from the owner thread's poll and acknowledged to the broker once
 * the ingress queue took it.
 *
 * <p>Thread-safety: owner thread only.
 */
public final class ControlRoute implements Source, ReconfigurationAckSink {
  /** The source's name: not a stream name, so it never clashes with an input's source. */
  public static final String NAME = "mqtt-control";
  private static final JsonFactory JSON = new JsonFactory();

  private final String topic;
  private final MqttConnection connection;
  private final ReconfigurationAckSink alsoTo;
  private long sequence; // requests admitted so far
  private final Map<String, JsonNode> ids = new HashMap<>(); // origin to the request's id
  private SourceContext context;
  private boolean closed;

  /**
   * A route on {@code topic}.
   *
   * @param alsoTo another sink every acknowledgement goes to as well (null for none)
   */
  public ControlRoute(String topic, MqttConnection connection, ReconfigurationAckSink alsoTo) {
    this.topic = topic;
    this.connection = connection;
    this.alsoTo = alsoTo;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void open(SourceContext ctx) {
    this.context = ctx;
    connection.subscribe(topic, this::onMessage);
    connection.start(ctx.threadFactory());
  }

  @Override
  public int poll(long nowNanos) {
    return connection.drain();
  }

  /** Owner thread (a drain): true when the request was admitted. */
  private boolean onMessage(String from, byte[] payload) {
    if (closed) {
      return false;
    }
    String text = new String(payload, StandardCharsets.UTF_8);
    String origin = "mqtt " + from + " #" + (sequence + 1);
    ControlRequest item;
    String key;
    JsonNode id = null;
    try {
      ObjectNode node = (ObjectNode) Json5.parseObject(text);
      id = node.remove("id");
      completeSources(node);
      try {
        item = RequestDecoder.decode(node.toString(), origin);
        key = origin;
      } catch (RequestException e) {
        // Rejected by the runtime in its place among the requests (same decoder, same error).
        SourceLocation at = new SourceLocation(origin, 1, 1);
        item = new EncodedControlRequest(node.toString(), at);
        key = at.toString();
      }
    } catch (Json5.SyntaxError e) {
      SourceLocation at = new SourceLocation(origin, 1, 1);
      item = new EncodedControlRequest(text, at);
      key = at.toString();
    }
    if (!context.offerControl(item)) {
      return false; // no room (or the run ended): offered again on the next poll
    }
    sequence++;
    if (id != null) {
      ids.put(key, id);
    }
    return true;
  }

  /**
   * Keeps the route when a request lists sources without it: the route that delivered a
   * request must stay to deliver the next one.
   */
  private static void completeSources(ObjectNode request) {
    JsonNode input = request.get("input");
    JsonNode sources = input == null ? null : input.get("sources");
    if (sources instanceof ObjectNode list && !list.has(NAME)) {
      list.putObject(NAME);
    }
  }

  @Override
  public void deliver(ReconfigurationAck ack) throws Exception {
    JsonNode id = ids.remove(ack.origin());
    connection.publishEventually(Topics.ackTopic(topic), json(g -> {
      writeId(g, id);
      g.writeBooleanField("accepted", ack.accepted());
      g.writeNumberField("monitor_revision", ack.monitorRevision().root());
      g.writeNumberField("interface_revision", ack.interfaceRevision());
      if (ack.accepted()) {
        g.writeBooleanField("monitor_changed", ack.monitorChanged());
        g.writeBooleanField("interface_changed", ack.interfaceChanged());
        g.writeStringField("plan", String.valueOf(ack.plan()));
        g.writeNumberField("effective_tick", ack.effectiveTick());
      } else {
        g.writeStringField("error", ack.reason());
      }
      g.writeStringField("origin", ack.origin());
    }));
    if (alsoTo != null) {
      alsoTo.deliver(ack);
    }
  }

  private static void writeId(JsonGenerator g, JsonNode id) throws IOException {
    g.writeFieldName("id");
    if (id == null) {
      g.writeNull();
    } else if (id.isNumber()) {
      g.writeNumber(id.asText());
    } else {
      g.writeString(id.asText());
    }
  }

  private interface Fields {
    void write(JsonGenerator g) throws IOException;
  }

  private static byte[] json(Fields fields) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
    try (JsonGenerator g = JSON.createGenerator(bytes)) {
      g.writeStartObject();
      fields.write(g);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // writing to memory
    }
    return bytes.toByteArray();
  }

  @Override
  public void close() {
    closed = true;
    SourceContext ctx = context;
    if (ctx != null && ctx.isClosed()) {
      connection.release(topic); // the run ends: the session keeps the subscription
    } else {
      connection.unsubscribe(topic); // a cutover removed this source
    }
  }
}
