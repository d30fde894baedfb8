package io.dataflow.mqtt;

import io.dataflow.core.Clock;
import io.dataflow.core.SystemClock;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.mqtt.internal.ControlRoute;
import io.dataflow.mqtt.internal.MqttConnection;
import io.dataflow.mqtt.internal.MqttInputSource;
import io.dataflow.mqtt.internal.MqttIoFactory;
import io.dataflow.mqtt.internal.MqttOutputWriter;
import io.dataflow.mqtt.internal.Topics;
import io.dataflow.reconfig.IoFactory;
import io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder;
import io.dataflow.reconfig.ReconfigurationAckSink;
import io.dataflow.reconfig.RejectPolicy;
import io.dataflow.reconfig.StandardIoFactory;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MQTT for a runtime, over one connection with a persistent session (docs/mqtt.md).
 * {@link #attach} plans the topics (a route naming no stream, a malformed topic or a control
 * topic that collides with a data topic is an {@link MqttConfigException} before anything
 * connects) and adds to a runtime builder:
 *
 * <ul>
 *   <li>one source per input stream, named after it, subscribed to the stream's topic (its
 *       route, or its name) at QoS 1; each message is one tick holding that stream;
 *   <li>the destination {@code mqtt}, publishing each output value as {@code {"value": ...}} to
 *       the stream's topic at QoS 1, with {@link MqttOptions#publishRetry()} as its budget;
 *   <li>with a control topic, the source {@code mqtt-control} delivering requests, and the
 *       acknowledgements published on {@code <control>/ack}; rejected requests are answered
 *       and the run goes on ({@link RejectPolicy#KEEP_RUNNING});
 *   <li>the I/O factory of requests, which knows the type {@code mqtt} and gives a new input
 *       stream that a request names no source for one subscribed to its name.
 * </ul>
 *
 * <pre>{@code
 * try (MqttTransport mqtt = MqttTransport.create(MqttOptions.builder("tcp://localhost:1883")
 *     .inputTopic("x", "robot/1/x").controlTopic("robot/control").build())) {
 *   DataflowRuntime runtime = mqtt.attach(ReconfigurableDataflowRuntimeBuilder.create(), program)
 *       .build();
 *   runtime.start();
 *   runtime.awaitTermination(Duration.ofDays(1));
 * }
 * }</pre>
 *
 * <p>The connection starts when the runtime opens the first source; close the transport after
 * the runtime ended. Thread-safety: safe from any thread.
 */
public final class MqttTransport implements AutoCloseable {
  /** The name of the destination that publishes the output streams. */
  private static final String DESTINATION = "mqtt";
  private static final Logger LOG = LoggerFactory.getLogger(MqttTransport.class);
  private final MqttOptions options;
  private final MqttConnection connection;
  private final Consumer<String> warnings;

  private MqttTransport(MqttOptions options, Clock clock) {
    this.options = options;
    this.warnings = options.warnings() != null ? options.warnings() : w -> LOG.warn("{}", w);
    this.connection = new MqttConnection(options.broker(), options.clientId(), clock,
        options.reconnect(), (int) Math.max(1, options.connectTimeout().toSeconds()));
  }

  /** A transport on the system clock (not connected yet). */
  public static MqttTransport create(MqttOptions options) {
    return create(options, SystemClock.INSTANCE);
  }

  /** A transport whose backoff and waits read {@code clock} (not connected yet). */
  public static MqttTransport create(MqttOptions options, Clock clock) {
    return new MqttTransport(Objects.requireNonNull(options, "options"),
        Objects.requireNonNull(clock, "clock"));
  }

  /** The options. */
  public MqttOptions options() {
    return options;
  }

  /** As {@link #attach(ReconfigurableDataflowRuntimeBuilder, DataflowProgram, ReconfigurationAckSink)} without another acknowledgement sink. */
  public ReconfigurableDataflowRuntimeBuilder attach(ReconfigurableDataflowRuntimeBuilder builder,
      DataflowProgram program) {
    return attach(builder, program, null);
  }

  /**
   * Adds the program, its MQTT sources, the {@code mqtt} destination, the control route and the
   * I/O factory to {@code builder}, and sets its clock to the transport's.
   *
   * @param alsoTo receives every acknowledgement after it was published (null for none)
   * @throws MqttConfigException when a route names no stream of the program, or a data topic
   *     collides with the control topic
   */
  public ReconfigurableDataflowRuntimeBuilder attach(ReconfigurableDataflowRuntimeBuilder builder,
      DataflowProgram program, ReconfigurationAckSink alsoTo) {
    List<String> inputs = program.inputs().names();
    List<String> outputs = program.outputs().names();
    options.inputTopics().keySet().stream().filter(s -> !inputs.contains(s)).findFirst()
        .ifPresent(s -> {
          throw new MqttConfigException("input topics: '" + s + "' is not an input of "
              + program.name() + " (inputs: " + String.join(", ", inputs) + ")");
        });
    options.outputTopics().keySet().stream().filter(s -> !outputs.contains(s)).findFirst()
        .ifPresent(s -> {
          throw new MqttConfigException("output topics: '" + s + "' is not an output of "
              + program.name() + " (outputs: " + String.join(", ", outputs) + ")");
        });
    String control = options.controlTopic();
    for (String in : inputs) {
      String topic = options.inputTopics().getOrDefault(in, in);
      Topics.validate(topic, "input '" + in + "'", true);
      Topics.checkNotControl(control, topic, "input '" + in + "'");
    }
    for (String out : outputs) {
      String topic = options.outputTopics().getOrDefault(out, out);
      Topics.validate(topic, "output '" + out + "'", false);
      Topics.checkNotControl(control, topic, "output '" + out + "'");
    }
    builder.program(program).clock(connection.clock());
    for (String in : inputs) {
      String type = program.stream(in).map(DataflowProgram.StreamDefinition::declaredType)
          .orElse(null);
      builder.source(new MqttInputSource(in, options.inputTopics().getOrDefault(in, in), type,
          connection, options.onBadRecord(), warnings));
    }
    builder.destination(DESTINATION, new MqttOutputWriter(connection, options.outputTopics(),
        options.flushTimeout().toNanos()), null, options.publishRetry());
    if (control != null) {
      ControlRoute route = new ControlRoute(control, connection, alsoTo);
      builder.source(route).acknowledgements(route)
          .options(o -> o.withRejectPolicy(RejectPolicy.KEEP_RUNNING));
    } else if (alsoTo != null) {
      builder.acknowledgements(alsoTo);
    }
    builder.ioFactory(ioFactory(new StandardIoFactory(System.out)));
    return builder;
  }

  /** The factory of requests' sources and destinations: the type {@code mqtt}, then {@code delegate}'s. */
  public IoFactory ioFactory(IoFactory delegate) {
    return new MqttIoFactory(delegate, connection, options.controlTopic(),
        options.onBadRecord(), warnings, options.flushTimeout().toNanos(),
        options.outputTopics());
  }

  /** The connection's state now: connected, failed attempts, last error, counts. */
  public MqttStatus status() {
    return connection.status();
  }

  /**
   * Waits until connected and subscribed to {@code topics}, or the timeout passes on the clock.
   *
   * @return whether it got there in time
   */
  public boolean awaitSubscribed(Duration timeout, String... topics) {
    Clock clock = connection.clock();
    long deadline = clock.nanoTime() + timeout.toNanos();
    while (true) {
      MqttStatus s = connection.status();
      if (s.connected() && s.subscriptions().containsAll(List.of(topics))) {
        return true;
      }
      if (clock.nanoTime() - deadline > 0) {
        return false;
      }
      clock.backOff();
    }
  }

  /** Disconnects (after up to a second for in-flight work) and stops reconnecting. */
  @Override
  public void close() {
    connection.close(1000);
  }
}
