package io.dataflow.mqtt.internal;

import io.dataflow.core.spi.OutputWriter;
import io.dataflow.core.spi.Source;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.mqtt.MqttConfigException;
import io.dataflow.mqtt.OnBadRecord;
import io.dataflow.reconfig.Bindings;
import io.dataflow.reconfig.IoFactory;
import io.dataflow.reconfig.IoSpec;
import io.dataflow.reconfig.ReconfigurationRequest;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The {@code mqtt} type of requests, over the transport's connection; every other type goes to
 * the delegate. A source {@code {type: "mqtt", topic: "robot/x"}} is the source of the input
 * stream of its name ({@code topic} defaults to that name); a destination
 * {@code {type: "mqtt", topics: "z=robot/z"}} publishes every output stream it receives
 * ({@code topics} routes some of them). A new input stream that a request gives no source gets
 * one anyway ({@link #defaultSource}), subscribed to its name. Validation (at planning) rejects
 * unknown parameters, malformed topics and topics that collide with the control topic or its
 * reply topic, the default ones (stream names) included ({@link #validateProgram}).
 *
 * <p>Thread-safety: called on the owner thread.
 */
public final class MqttIoFactory implements IoFactory {
  /** The type name in requests. */
  public static final String TYPE = "mqtt";

  private final IoFactory delegate;
  private final MqttConnection connection;
  private final String controlTopic;
  private final OnBadRecord onBadRecord;
  private final Consumer<String> warnings;
  private final long flushTimeoutNanos;
  private final Map<String, String> outputRoutes;

  /**
   * A factory creating {@code mqtt} sources and destinations on {@code connection}.
   *
   * @param outputRoutes the transport's output routes (its {@code mqtt} destination's)
   */
  public MqttIoFactory(IoFactory delegate, MqttConnection connection, String controlTopic,
      OnBadRecord onBadRecord, Consumer<String> warnings, long flushTimeoutNanos,
      Map<String, String> outputRoutes) {
    this.delegate = delegate;
    this.outputRoutes = Map.copyOf(outputRoutes);
    this.connection = connection;
    this.controlTopic = controlTopic;
    this.onBadRecord = onBadRecord;
    this.warnings = warnings;
    this.flushTimeoutNanos = flushTimeoutNanos;
  }

  @Override
  public void validateSource(IoSpec spec) {
    if (!TYPE.equals(spec.type())) {
      delegate.validateSource(spec);
      return;
    }
    only(spec, "topic");
    String topic = spec.params().get("topic");
    if (topic != null) {
      Topics.validate(topic, "mqtt source", true);
      Topics.checkNotControl(controlTopic, topic, "an mqtt source");
    }
  }

  /** An {@code mqtt} source subscribed to the stream's name. */
  @Override
  public IoSpec defaultSource(String stream) {
    return IoSpec.of(TYPE, Map.of("topic", stream));
  }

  /**
   * Rejects a replacement whose streams would use the control topic or its reply topic as a
   * data topic by default, with their names: an input given an {@code mqtt} source without a
   * topic, and every output (an {@code mqtt} destination publishes each stream it is not routed
   * to under its name), unless the transport's or the request's {@code mqtt} routes send it
   * elsewhere, or the request leaves no destination that may be an {@code mqtt} one (every one it
   * lists has another type). (New inputs without a source get theirs from
   * {@link #defaultSource}, validated with its topic.)
   */
  @Override
  public void validateProgram(DataflowProgram candidate, ReconfigurationRequest request) {
    if (controlTopic == null) {
      return;
    }
    Bindings in = request.input();
    if (in != null && in.endpoints() != null) {
      in.endpoints().forEach((name, spec) -> {
        if (TYPE.equals(spec.type()) && !spec.params().containsKey("topic")) {
          Topics.checkNotControl(controlTopic, name, "input '" + name + "'");
        }
      });
    }
    Map<String, String> routes = new HashMap<>(outputRoutes);
    boolean published = true;
    Bindings out = request.output();
    if (out != null && out.endpoints() != null) {
      published = false;
      for (Map.Entry<String, IoSpec> e : out.endpoints().entrySet()) {
        IoSpec spec = e.getValue();
        if (TYPE.equals(spec.type())) {
          published = true;
          routes.putAll(Topics.parseRoutes(spec.params().get("topics"), "mqtt destination"));
        } else if (spec.isKeep()) {
          published = true; // kept as it is: it may be an mqtt destination
        }
      }
    }
    if (!published) {
      return;
    }
    for (String stream : candidate.outputs().names()) {
      Topics.checkNotControl(controlTopic, routes.getOrDefault(stream, stream),
          "output '" + stream + "'");
    }
  }

  @Override
  public Source createSource(String name, IoSpec spec) throws Exception {
    return createSource(name, spec, null);
  }

  /**
   * The source of input {@code name}; with the replacement {@code program}, payloads are
   * checked against the stream's declared type before admission, as the transport's own
   * sources are (a wrong type is a bad payload, skippable).
   */
  @Override
  public Source createSource(String name, IoSpec spec, DataflowProgram program)
      throws Exception {
    if (!TYPE.equals(spec.type())) {
      return delegate.createSource(name, spec, program);
    }
    validateSource(spec);
    String topic = spec.params().getOrDefault("topic", name);
    Topics.validate(topic, "mqtt source '" + name + "'", true);
    Topics.checkNotControl(controlTopic, topic, "input '" + name + "'");
    String declaredType = program == null ? null : program.stream(name)
        .map(DataflowProgram.StreamDefinition::declaredType).orElse(null);
    return new MqttInputSource(name, topic, declaredType, connection, onBadRecord, warnings);
  }

  @Override
  public void validateDestination(IoSpec spec) {
    if (!TYPE.equals(spec.type())) {
      delegate.validateDestination(spec);
      return;
    }
    only(spec, "topics");
    Topics.parseRoutes(spec.params().get("topics"), "mqtt destination").forEach((stream, t) ->
        Topics.checkNotControl(controlTopic, t, "output '" + stream + "'"));
  }

  @Override
  public OutputWriter createDestination(String name, IoSpec spec) throws Exception {
    if (!TYPE.equals(spec.type())) {
      return delegate.createDestination(name, spec);
    }
    validateDestination(spec);
    return new MqttOutputWriter(connection,
        Topics.parseRoutes(spec.params().get("topics"), "mqtt destination '" + name + "'"),
        flushTimeoutNanos);
  }

  private static void only(IoSpec spec, String allowed) {
    for (String p : spec.params().keySet()) {
      if (!Set.of(allowed).contains(p)) {
        throw new MqttConfigException("unknown parameter '" + p + "' of type 'mqtt' (expected "
            + allowed + ")");
      }
    }
  }
}
