package io.dataflow.kafka;

import io.dataflow.pipeline.io.KeyedJsonLines;
import io.dataflow.pipeline.spi.Acknowledgement;
import io.dataflow.pipeline.spi.KeyedOutput;
import io.dataflow.pipeline.spi.KeyedSink;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A {@link KeyedSink} writing each output as a record of one topic, keyed by the monitor key
 * (its string form), the value an output line {@code {"key": K, "tick": n, "name": value}}.
 * The producer is idempotent with {@code acks=all}: a batch is acknowledged when the broker
 * has every record of it (the send callbacks); a failed send fails the batch, which is fatal
 * for the pipeline (nothing past it is committed). Records of one key keep their order.
 *
 * <p>Thread-safety: {@link #send} from any thread (the pipeline's drivers, concurrently).
 */
public final class KafkaSink implements KeyedSink {
  private final String topic;
  private final KafkaProducer<String, String> producer;

  /** A sink to {@code topic} on {@code bootstrap}; {@code extra} producer properties win. */
  public KafkaSink(String bootstrap, String topic, Properties extra) {
    this.topic = KafkaSource.require(topic, "topic");
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, KafkaSource.require(bootstrap, "bootstrap"));
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, "65536");
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    p.putAll(Objects.requireNonNull(extra, "extra"));
    this.producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
  }

  /** A sink to {@code topic} on {@code bootstrap} with the default producer settings. */
  public KafkaSink(String bootstrap, String topic) {
    this(bootstrap, topic, new Properties());
  }

  @Override
  public void send(List<KeyedOutput> outputs, Acknowledgement ack) {
    AtomicInteger left = new AtomicInteger(outputs.size());
    AtomicBoolean failed = new AtomicBoolean();
    try {
      for (KeyedOutput o : outputs) {
        producer.send(new ProducerRecord<>(topic, o.key().toString(),
            KeyedJsonLines.outputLine(o)), (md, error) -> {
              if (error != null) {
                if (failed.compareAndSet(false, true)) {
                  ack.failed(error);
                }
              } else if (left.decrementAndGet() == 0 && !failed.get()) {
                ack.succeeded();
              }
            });
      }
    } catch (RuntimeException e) {
      if (failed.compareAndSet(false, true)) {
        ack.failed(e);
      }
    }
  }

  /**
   * Drops the producer as a killed process leaves it (tests of a crash): records not yet
   * acknowledged are abandoned and their callbacks fail.
   */
  void abandon() {
    producer.close(Duration.ZERO);
  }

  @Override
  public void close() {
    producer.flush();
    producer.close(Duration.ofSeconds(30));
  }
}
