package io.dataflow.kafka;

import io.dataflow.kafka.internal.AckLine;
import io.dataflow.pipeline.DataflowPipeline;
import io.dataflow.pipeline.PipelineAck;
import io.dataflow.reconfig.ReconfigurationRequest;
import io.dataflow.reconfig.RequestDecoder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.CompletionException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconfiguration of a keyed pipeline from a control topic: every instance reads every request
 * (its own consumer, no group, from the end of the topic when it starts), hands it to
 * {@link DataflowPipeline#reconfigure}, which applies it across the drivers at one position of
 * every lane, and writes the acknowledgement (instance, control offset, accepted, revision,
 * plan, lanes and keys moved; or the refusal) to {@code <control>.ack}, keyed by the instance.
 *
 * <p>A request is the request JSON5 format (docs/reconfiguration.md); one that does not decode
 * or is refused changes nothing. Requests written before an instance started are not applied
 * by it: start an instance with the specification in force.
 *
 * <p>Thread-safety: one thread of its own ({@code <instance>-control}); {@link #close} from any.
 */
public final class KafkaControl implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KafkaControl.class);

  private final String topic;
  private final String ackTopic;
  private final String instance;
  private final DataflowPipeline pipeline;
  private final KafkaConsumer<String, String> consumer;
  private final KafkaProducer<String, String> producer;
  private final Thread thread;
  private volatile boolean closed;

  /**
   * Reads {@code topic} on {@code bootstrap} for {@code pipeline}; acknowledgements go to
   * {@code topic + ".ack"} keyed {@code instance}. The position at the end of the topic is
   * taken here, so a request written after this returns is applied.
   */
  public KafkaControl(String bootstrap, String topic, String instance,
      DataflowPipeline pipeline) {
    this.topic = KafkaSource.require(topic, "controlTopic");
    this.ackTopic = topic + ".ack";
    this.instance = KafkaSource.require(instance, "instance");
    this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
    Properties c = new Properties();
    c.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    consumer = new KafkaConsumer<>(c, new StringDeserializer(), new StringDeserializer());
    List<TopicPartition> parts = new ArrayList<>();
    for (PartitionInfo info : consumer.partitionsFor(topic, Duration.ofSeconds(30))) {
      parts.add(new TopicPartition(topic, info.partition()));
    }
    consumer.assign(parts);
    consumer.seekToEnd(parts);
    parts.forEach(consumer::position); // fixes the start now, not at the first poll
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    thread = new Thread(this::loop, instance + "-control");
    thread.setDaemon(true);
  }

  /** Starts reading. */
  public KafkaControl start() {
    thread.start();
    return this;
  }

  /** The ack topic. */
  public String ackTopic() {
    return ackTopic;
  }

  private void loop() {
    try {
      while (!closed) {
        for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(100))) {
          handle(r);
        }
      }
    } catch (WakeupException e) {
      // closed
    } catch (RuntimeException e) {
      LOG.error("control topic {}: reading stopped", topic, e);
    } finally {
      consumer.close(org.apache.kafka.clients.consumer.CloseOptions.timeout(
          Duration.ofSeconds(5)));
    }
  }

  private void handle(ConsumerRecord<String, String> r) {
    long offset = r.offset();
    String origin = topic + "@" + r.partition() + ":" + offset;
    ReconfigurationRequest request;
    try {
      request = RequestDecoder.decode(Objects.requireNonNullElse(r.value(), ""), origin);
    } catch (RuntimeException e) {
      ack(refused(offset, "the request does not decode: " + e.getMessage()));
      return;
    }
    pipeline.reconfigure(request).whenComplete((a, error) -> {
      if (error != null) {
        Throwable cause = error instanceof CompletionException && error.getCause() != null
            ? error.getCause() : error;
        ack(refused(offset, cause.getMessage()));
      } else {
        ack(accepted(offset, a));
      }
    });
  }

  private Map<String, Object> refused(long offset, String reason) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("instance", instance);
    m.put("controlOffset", offset);
    m.put("ok", false);
    m.put("error", reason);
    return m;
  }

  private Map<String, Object> accepted(long offset, PipelineAck a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("instance", instance);
    m.put("controlOffset", offset);
    m.put("ok", true);
    m.put("monitorRevision", a.ack().monitorRevision().root());
    m.put("plan", a.ack().plan().toString());
    m.put("lanes", a.lanes());
    m.put("keys", a.keys());
    return m;
  }

  private void ack(Map<String, Object> fields) {
    producer.send(new ProducerRecord<>(ackTopic, instance, AckLine.of(fields)), (md, e) -> {
      if (e != null) {
        LOG.warn("control topic {}: the acknowledgement {} was not written: {}", topic, fields,
            e.toString());
      }
    });
  }

  @Override
  public void close() {
    closed = true;
    consumer.wakeup();
    try {
      thread.join(10_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    producer.close(Duration.ofSeconds(5));
  }
}
