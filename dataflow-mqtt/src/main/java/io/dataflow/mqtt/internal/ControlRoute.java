package io.dataflow.mqtt.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dataflow.core.IngressException;
import io.dataflow.core.spi.Source;
import io.dataflow.core.spi.SourceContext;
import io.dataflow.io.internal.Json5;
import io.dataflow.mqtt.MqttConfigException;
import io.dataflow.reconfig.Bindings;
import io.dataflow.reconfig.IoSpec;
import io.dataflow.reconfig.ReconfigurationAck;
import io.dataflow.reconfig.ReconfigurationAckSink;
import io.dataflow.reconfig.ReconfigurationRequest;
import io.dataflow.reconfig.RequestDecoder;
import io.dataflow.reconfig.RequestException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The control route: a source that subscribes to the control topic and delivers each message
 * as a reconfiguration request (the request JSON5 format, plus an optional {@code id} that the
 * acknowledgement echoes), and the acknowledgement sink that publishes each acknowledgement as
 * JSON on {@code <control>/ack}. A message that is not a well-formed request, or whose topics
 * collide with the control topic, is answered there at once with an error and never reaches
 * the runtime.
 *
 * <p>Thread-safety: {@link #open} and {@link #close} on the owner thread, deliveries on Paho's
 * callback thread, {@link #deliver(ReconfigurationAck)} on the owner thread.
 */
public final class ControlRoute implements Source, ReconfigurationAckSink {
  /** The source's name: not a stream name, so it never clashes with an input's source. */
  public static final String NAME = "mqtt-control";
  private static final JsonFactory JSON = new JsonFactory();

  private final String topic;
  private final MqttConnection connection;
  private final ReconfigurationAckSink alsoTo;
  private final AtomicLong sequence = new AtomicLong();
  private final Map<String, JsonNode> ids = new ConcurrentHashMap<>();
  private volatile SourceContext context;
  private volatile boolean closed;

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

  private boolean onMessage(String from, byte[] payload) {
    if (closed) {
      return false;
    }
    String origin = "mqtt " + from + " #" + sequence.incrementAndGet();
    JsonNode id = null;
    ReconfigurationRequest request;
    try {
      ObjectNode node = (ObjectNode) Json5.parseObject(new String(payload,
          StandardCharsets.UTF_8));
      id = node.remove("id");
      request = RequestDecoder.decode(node.toString(), origin);
      checkTopics(request);
    } catch (Json5.SyntaxError e) {
      publishError(id, origin, "malformed request (column " + e.column() + "): "
          + e.getMessage());
      return true;
    } catch (RequestException | MqttConfigException e) {
      publishError(id, origin, e.getMessage());
      return true;
    }
    if (id != null) {
      ids.put(origin, id);
    }
    try {
      context.submitControl(request, Long.MAX_VALUE);
      return true;
    } catch (IngressException e) {
      ids.remove(origin);
      return false; // the runtime stopped: the broker keeps the request
    }
  }

  /** Planning's collision rule, applied to the topics a request names. */
  private void checkTopics(ReconfigurationRequest request) {
    check(request.input(), "input");
    check(request.output(), "output");
  }

  private void check(Bindings bindings, String side) {
    if (bindings == null || bindings.endpoints() == null) {
      return;
    }
    for (Map.Entry<String, IoSpec> e : bindings.endpoints().entrySet()) {
      IoSpec spec = e.getValue();
      if (spec.isKeep() || !MqttIoFactory.TYPE.equals(spec.type())) {
        continue;
      }
      if (side.equals("input")) {
        String t = spec.params().getOrDefault("topic", e.getKey());
        Topics.checkNotControl(topic, t, "input '" + e.getKey() + "'");
      } else {
        Topics.parseRoutes(spec.params().get("topics"), "output '" + e.getKey() + "'")
            .forEach((stream, t) -> Topics.checkNotControl(topic, t, "output '" + stream + "'"));
      }
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

  private void publishError(JsonNode id, String origin, String error) {
    connection.publishEventually(Topics.ackTopic(topic), json(g -> {
      writeId(g, id);
      g.writeBooleanField("accepted", false);
      g.writeStringField("error", error);
      g.writeStringField("origin", origin);
    }));
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
    connection.unsubscribe(topic);
  }
}
