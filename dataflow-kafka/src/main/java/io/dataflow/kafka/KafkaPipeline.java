package io.dataflow.kafka;

import io.dataflow.core.Clock;
import io.dataflow.core.SystemClock;
import io.dataflow.pipeline.DataflowPipeline;
import io.dataflow.pipeline.PipelineExitReport;
import io.dataflow.pipeline.PipelineOptions;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The keyed pipeline on Kafka, assembled: a {@link KafkaSource} on the input topic, a {@link
 * KafkaSink} on the output topic, a {@link KafkaCheckpointer} on {@code <group>.state} and,
 * with a control topic, a {@link KafkaControl}. Run one per machine with the same group: the
 * group spreads the partitions, a rebalance stops and commits a revoked partition before
 * another instance reads it (docs/kafka.md).
 *
 * <pre>{@code
 * KafkaPipeline p = KafkaPipeline.builder()
 *     .bootstrap("localhost:9092").inputTopic("telemetry").outputTopic("verdicts")
 *     .group("fleet-monitor").specification("fleet.dsrv", spec)
 *     .build();
 * p.start();
 * ...
 * p.shutdown(Duration.ofSeconds(10));
 * PipelineExitReport report = p.awaitTermination(Duration.ofSeconds(30));
 * }</pre>
 *
 * <p>Thread-safety: every method from any thread.
 */
public final class KafkaPipeline implements AutoCloseable {
  private final DataflowPipeline pipeline;
  private final KafkaCheckpointer checkpointer;
  private final KafkaControl control;
  private final java.util.concurrent.atomic.AtomicBoolean released =
      new java.util.concurrent.atomic.AtomicBoolean();

  private KafkaPipeline(Builder b) {
    KafkaSource.Builder sb = KafkaSource.builder().bootstrap(b.bootstrap).topic(b.inputTopic)
        .group(b.group).keyField(b.keyField).onBadRecord(b.onBadRecord, b.warnings);
    KafkaSource source = sb.build();
    checkpointer = new KafkaCheckpointer(source, b.stateTopic != null ? b.stateTopic
        : b.group + ".state", b.clock, Duration.ofSeconds(30), b.warnings);
    pipeline = DataflowPipeline.builder().specification(b.specName, b.specText)
        .source(source).sink(new KafkaSink(b.bootstrap, b.outputTopic))
        .checkpointer(checkpointer).clock(b.clock)
        .options(o -> b.options.apply(o.withName(b.instance))).warnings(b.warnings).build();
    control = b.controlTopic == null ? null
        : new KafkaControl(b.bootstrap, b.controlTopic, b.instance, pipeline);
  }

  /** A builder. */
  public static Builder builder() {
    return new Builder();
  }

  /** Starts the pipeline's threads and the control topic's reader. */
  public void start() {
    pipeline.start();
    if (control != null) {
      control.start();
    }
  }

  /** The pipeline (status, reconfigure, readiness). */
  public DataflowPipeline pipeline() {
    return pipeline;
  }

  /** The one-deadline shutdown with a final commit (returns at once). */
  public void shutdown(Duration timeout) {
    pipeline.shutdown(timeout);
  }

  /**
   * Waits up to {@code timeout} for the end, then releases the control reader and the
   * checkpointer's producer.
   */
  public PipelineExitReport awaitTermination(Duration timeout)
      throws InterruptedException, TimeoutException {
    PipelineExitReport r = pipeline.awaitTermination(timeout);
    release();
    return r;
  }

  private void release() {
    if (!released.compareAndSet(false, true)) {
      return;
    }
    if (control != null) {
      control.close();
    }
    checkpointer.close();
  }

  @Override
  public void close() {
    pipeline.close();
    release();
  }

  /** Configures the pipeline; bootstrap, topics, group and specification are required. */
  public static final class Builder {
    private String bootstrap;
    private String inputTopic;
    private String outputTopic;
    private String group;
    private String keyField;
    private String controlTopic;
    private String stateTopic;
    private String instance = "dataflow";
    private String specName;
    private String specText;
    private Clock clock = SystemClock.INSTANCE;
    private UnaryOperator<PipelineOptions> options = o -> o;
    private Consumer<String> warnings = w -> {};
    private KafkaSource.OnBadRecord onBadRecord = KafkaSource.OnBadRecord.FAIL;

    private Builder() {}

    /** The brokers. */
    public Builder bootstrap(String v) {
      bootstrap = KafkaSource.require(v, "bootstrap");
      return this;
    }

    /** The topic of the ticks. */
    public Builder inputTopic(String v) {
      inputTopic = KafkaSource.require(v, "inputTopic");
      return this;
    }

    /** The topic of the outputs. */
    public Builder outputTopic(String v) {
      outputTopic = KafkaSource.require(v, "outputTopic");
      return this;
    }

    /** The consumer group (the state topic defaults to {@code <group>.state}). */
    public Builder group(String v) {
      group = KafkaSource.require(v, "group");
      return this;
    }

    /** The JSON field of the key; null (the default): the record key. */
    public Builder keyField(String v) {
      keyField = v;
      return this;
    }

    /** A control topic of reconfiguration requests (acks to {@code <topic>.ack}). */
    public Builder controlTopic(String v) {
      controlTopic = v;
      return this;
    }

    /** The state topic (default {@code <group>.state}). */
    public Builder stateTopic(String v) {
      stateTopic = KafkaSource.require(v, "stateTopic");
      return this;
    }

    /** This instance's name: thread names and acknowledgements (default {@code dataflow}). */
    public Builder instance(String v) {
      instance = KafkaSource.require(v, "instance");
      return this;
    }

    /** The specification. */
    public Builder specification(String name, String text) {
      specName = KafkaSource.require(name, "specification name");
      specText = Objects.requireNonNull(text, "specification");
      return this;
    }

    /** The clock of every deadline. */
    public Builder clock(Clock v) {
      clock = Objects.requireNonNull(v, "clock");
      return this;
    }

    /** Changes the pipeline's options. */
    public Builder options(UnaryOperator<PipelineOptions> change) {
      options = Objects.requireNonNull(change, "options");
      return this;
    }

    /** Where warnings go (skipped records, late revocations, offset commits). */
    public Builder warnings(Consumer<String> v) {
      warnings = Objects.requireNonNull(v, "warnings");
      return this;
    }

    /** What a bad record does (default FAIL). */
    public Builder onBadRecord(KafkaSource.OnBadRecord v) {
      onBadRecord = Objects.requireNonNull(v, "onBadRecord");
      return this;
    }

    /** The pipeline; the control reader (if any) already has its start position. */
    public KafkaPipeline build() {
      if (bootstrap == null || inputTopic == null || outputTopic == null || group == null
          || specText == null) {
        throw new IllegalStateException("bootstrap, inputTopic, outputTopic, group and"
            + " specification are required");
      }
      return new KafkaPipeline(this);
    }
  }
}
