package io.dataflow.mqtt;

import io.dataflow.core.Backoff;
import io.dataflow.mqtt.internal.Topics;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How a {@link MqttTransport} connects and which topics it uses. Immutable; made by
 * {@link #builder(String)}, whose {@code build()} checks every value and names the bad one.
 *
 * @param broker the broker's address, {@code tcp://HOST:PORT}
 * @param clientId the client id, which names the persistent session on the broker
 * @param inputTopics routes of input streams (stream to topic); others use their own name
 * @param outputTopics routes of output streams; others use their own name
 * @param controlTopic the control topic, or null for no control route
 * @param onBadRecord what a source does with a bad payload
 * @param reconnect the reconnect backoff (its attempt count is not a limit: reconnecting goes on)
 * @param publishRetry the sink's retry budget: a broker away longer fails the sink
 * @param connectTimeout how long one connection attempt may take
 * @param flushTimeout how long one flush waits for PUBACKs before it is retried
 * @param warnings receives skipped bad records (default: logged)
 */
public record MqttOptions(String broker, String clientId, Map<String, String> inputTopics,
    Map<String, String> outputTopics, String controlTopic, OnBadRecord onBadRecord,
    Backoff reconnect, Backoff publishRetry, Duration connectTimeout, Duration flushTimeout,
    Consumer<String> warnings) {

  /** 100 ms doubling up to 10 s. */
  public static final Backoff DEFAULT_RECONNECT =
      new Backoff(Duration.ofMillis(100), Duration.ofSeconds(10), 2.0, Integer.MAX_VALUE);
  /** 12 attempts, 100 ms doubling up to 5 s between them: about 30 s of broker absence. */
  public static final Backoff DEFAULT_PUBLISH_RETRY =
      new Backoff(Duration.ofMillis(100), Duration.ofSeconds(5), 2.0, 12);

  /** Copies the maps. */
  public MqttOptions {
    inputTopics = Map.copyOf(inputTopics);
    outputTopics = Map.copyOf(outputTopics);
  }

  /** A builder for a broker at {@code broker} ({@code tcp://HOST:PORT}). */
  public static Builder builder(String broker) {
    return new Builder(broker);
  }

  /** Builds {@link MqttOptions}. Thread-safety: one thread. */
  public static final class Builder {
    private final String broker;
    private String clientId = "dataflow";
    private final Map<String, String> inputTopics = new LinkedHashMap<>();
    private final Map<String, String> outputTopics = new LinkedHashMap<>();
    private String controlTopic;
    private OnBadRecord onBadRecord = OnBadRecord.FAIL;
    private Backoff reconnect = DEFAULT_RECONNECT;
    private Backoff publishRetry = DEFAULT_PUBLISH_RETRY;
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Duration flushTimeout = Duration.ofSeconds(10);
    private Consumer<String> warnings;

    private Builder(String broker) {
      this.broker = broker;
    }

    /** The client id (default {@code dataflow}); one per running process on a broker. */
    public Builder clientId(String value) {
      this.clientId = Objects.requireNonNull(value, "clientId");
      return this;
    }

    /** Routes input stream {@code stream} to {@code topic} (a filter; wildcards allowed). */
    public Builder inputTopic(String stream, String topic) {
      inputTopics.put(stream, topic);
      return this;
    }

    /** Routes input streams: {@code x=robot/x,y=robot/y} (the CLI's {@code --input-topics}). */
    public Builder inputTopics(String routes) {
      inputTopics.putAll(Topics.parseRoutes(routes, "input topics"));
      return this;
    }

    /** Routes output stream {@code stream} to {@code topic}. */
    public Builder outputTopic(String stream, String topic) {
      outputTopics.put(stream, topic);
      return this;
    }

    /** Routes output streams: {@code z=robot/z} (the CLI's {@code --output-topics}). */
    public Builder outputTopics(String routes) {
      outputTopics.putAll(Topics.parseRoutes(routes, "output topics"));
      return this;
    }

    /** The control topic (acknowledgements go to {@code <topic>/ack}); null for none. */
    public Builder controlTopic(String value) {
      this.controlTopic = value;
      return this;
    }

    /** What a source does with a bad payload (default {@link OnBadRecord#FAIL}). */
    public Builder onBadRecord(OnBadRecord value) {
      this.onBadRecord = Objects.requireNonNull(value, "onBadRecord");
      return this;
    }

    /** The reconnect backoff (default {@link #DEFAULT_RECONNECT}). */
    public Builder reconnect(Backoff value) {
      this.reconnect = Objects.requireNonNull(value, "reconnect");
      return this;
    }

    /** The sink's retry budget (default {@link #DEFAULT_PUBLISH_RETRY}). */
    public Builder publishRetry(Backoff value) {
      this.publishRetry = Objects.requireNonNull(value, "publishRetry");
      return this;
    }

    /** How long one connection attempt may take (default 5 s; whole seconds, at least 1). */
    public Builder connectTimeout(Duration value) {
      this.connectTimeout = Objects.requireNonNull(value, "connectTimeout");
      return this;
    }

    /** How long one flush waits for PUBACKs before it is retried (default 10 s). */
    public Builder flushTimeout(Duration value) {
      this.flushTimeout = Objects.requireNonNull(value, "flushTimeout");
      return this;
    }

    /** Receives the warnings of skipped bad records (default: logged). */
    public Builder warnings(Consumer<String> value) {
      this.warnings = Objects.requireNonNull(value, "warnings");
      return this;
    }

    /**
     * Checks every value.
     *
     * @throws MqttConfigException naming the bad value
     */
    public MqttOptions build() {
      if (broker == null || !broker.matches("(tcp|ssl|ws|wss)://[^/\\s]+(:[0-9]+)?/?")) {
        throw new MqttConfigException("--mqtt needs a broker address such as"
            + " tcp://localhost:1883, not '" + broker + "'");
      }
      if (clientId.isBlank() || clientId.length() > 65535) {
        throw new MqttConfigException("the client id must not be blank");
      }
      inputTopics.forEach((s, t) -> Topics.validate(t, "input '" + s + "'", true));
      outputTopics.forEach((s, t) -> Topics.validate(t, "output '" + s + "'", false));
      if (controlTopic != null) {
        Topics.validate(controlTopic, "the control topic", false);
        inputTopics.forEach((s, t) -> Topics.checkNotControl(controlTopic, t,
            "input '" + s + "'"));
        outputTopics.forEach((s, t) -> Topics.checkNotControl(controlTopic, t,
            "output '" + s + "'"));
      }
      if (connectTimeout.isNegative() || flushTimeout.isNegative() || flushTimeout.isZero()) {
        throw new MqttConfigException("timeouts must be positive");
      }
      return new MqttOptions(broker, clientId, inputTopics, outputTopics, controlTopic,
          onBadRecord, reconnect, publishRetry, connectTimeout, flushTimeout, warnings);
    }
  }
}
