package io.dataflow.kafka;

import io.dataflow.monitor.DataflowProgram;
import java.util.Objects;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorSupplier;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;

/**
 * Wires a {@link DataflowProcessor} into a Kafka Streams {@link Topology}: the input topic's
 * source, the processor with its state store (per key: the monitor snapshot) and meta store,
 * the output topic's sink and, with a control topic, the control topic's global store and the
 * ack topic's sink ({@code <control>.ack} unless named).
 *
 * <pre>{@code
 * Topology topology = DataflowTopology.builder()
 *     .specification("sum.dsrv", "in x: Int\nout s: Int\ns = default(s[1], 0) + x")
 *     .inputTopic("telemetry").outputTopic("verdicts")
 *     .controlTopic("dataflow-control").instance("host-1")
 *     .build();
 * KafkaStreams streams = new KafkaStreams(topology, props);
 * }</pre>
 *
 * <p>Thread-safety: a builder is for one thread; the topology is Kafka Streams'.
 */
public final class DataflowTopology {
  static final String SOURCE = "dataflow-input";
  static final String PROCESSOR = "dataflow-processor";
  static final String OUTPUT_SINK = "dataflow-output";
  static final String ACK_SINK = "dataflow-ack";
  static final String CONTROL_SOURCE = "dataflow-control";
  static final String CONTROL_PROCESSOR = "dataflow-control-store";

  private DataflowTopology() {}

  /** A builder. */
  public static Builder<String> builder() {
    return new Builder<>(Serdes.String());
  }

  /** The key of the control store for a control topic offset: zero-padded, so it sorts. */
  static String controlKey(long offset) {
    return String.format("%020d", offset);
  }

  /** What the processors of one topology share (immutable). */
  record Settings(DataflowProgram program, String stateStore, String metaStore,
      String controlTopic, String controlStore, String instance) {}

  /** Builds the topology; every setter checks its value. */
  public static final class Builder<K> {
    private Serde<K> keySerde;
    private DataflowProgram program;
    private String inputTopic;
    private String outputTopic;
    private String controlTopic;
    private String ackTopic;
    private String storeName = "dataflow-state";
    private String instance = "instance";
    private boolean logged = true;
    private boolean persistent = true;

    private Builder(Serde<K> keySerde) {
      this.keySerde = keySerde;
    }

    /** The specification every key runs (compiled here: a bad one fails at once). */
    public Builder<K> specification(String name, String text) {
      this.program = DataflowProgram.compile(name, text);
      return this;
    }

    /** A compiled specification. */
    public Builder<K> program(DataflowProgram p) {
      this.program = Objects.requireNonNull(p, "program");
      return this;
    }

    /** The serde of the record keys (String by default; Long keys: {@code Serdes.Long()}). */
    @SuppressWarnings("unchecked")
    public <K2> Builder<K2> keySerde(Serde<K2> serde) {
      Builder<K2> b = (Builder<K2>) this;
      b.keySerde = Objects.requireNonNull(serde, "keySerde");
      return b;
    }

    /** The topic of the ticks (values in the JSON Lines tick format). */
    public Builder<K> inputTopic(String topic) {
      this.inputTopic = requireName(topic, "inputTopic");
      return this;
    }

    /** The topic of the outputs, keyed like the input. */
    public Builder<K> outputTopic(String topic) {
      this.outputTopic = requireName(topic, "outputTopic");
      return this;
    }

    /**
     * A control topic of reconfiguration requests (one partition: requests are ordered by
     * offset); acknowledgements go to {@code topic.ack}.
     */
    public Builder<K> controlTopic(String topic) {
      this.controlTopic = requireName(topic, "controlTopic");
      return this;
    }

    /** The ack topic (default: the control topic's name + {@code .ack}). */
    public Builder<K> ackTopic(String topic) {
      this.ackTopic = requireName(topic, "ackTopic");
      return this;
    }

    /** The name of the per-key state store (default {@code dataflow-state}). */
    public Builder<K> storeName(String name) {
      this.storeName = requireName(name, "storeName");
      return this;
    }

    /** The name of this instance in acknowledgements (default {@code instance}). */
    public Builder<K> instance(String name) {
      this.instance = requireName(name, "instance");
      return this;
    }

    /** Whether the stores have changelogs (default true: the state survives a lost machine). */
    public Builder<K> changelog(boolean enabled) {
      this.logged = enabled;
      return this;
    }

    /**
     * Whether the task stores are RocksDB stores (default true) or in memory (restored from the
     * changelog at every start: for small state and tests).
     */
    public Builder<K> persistent(boolean enabled) {
      this.persistent = enabled;
      return this;
    }

    /** Adds the source, processor, stores and sinks to a new topology. */
    public Topology build() {
      return addTo(new Topology());
    }

    /** Adds the source, processor, stores and sinks to {@code topology}. */
    public Topology addTo(Topology topology) {
      if (program == null) {
        throw new IllegalStateException("no specification");
      }
      if (inputTopic == null || outputTopic == null) {
        throw new IllegalStateException("inputTopic and outputTopic are required");
      }
      String controlStore = storeName + "-control";
      Settings s = new Settings(program, storeName, storeName + "-meta", controlTopic,
          controlStore, instance);
      StoreBuilder<KeyValueStore<K, byte[]>> state = Stores.keyValueStoreBuilder(
          supplier(s.stateStore()), keySerde, Serdes.ByteArray());
      StoreBuilder<KeyValueStore<String, String>> meta = Stores.keyValueStoreBuilder(
          supplier(s.metaStore()), Serdes.String(), Serdes.String());
      if (!logged) {
        state = state.withLoggingDisabled();
        meta = meta.withLoggingDisabled();
      }
      ProcessorSupplier<K, String, Object, String> supplier = () -> new DataflowProcessor<>(s);
      topology.addSource(SOURCE, keySerde.deserializer(), Serdes.String().deserializer(),
          inputTopic);
      topology.addProcessor(PROCESSOR, supplier, SOURCE);
      topology.addStateStore(state, PROCESSOR);
      topology.addStateStore(meta, PROCESSOR);
      topology.addSink(OUTPUT_SINK, outputTopic, keySerde.serializer(),
          Serdes.String().serializer(), PROCESSOR);
      if (controlTopic != null) {
        topology.addGlobalStore(Stores.keyValueStoreBuilder(
                supplier(controlStore), Serdes.String(), Serdes.String())
                .withLoggingDisabled(), CONTROL_SOURCE, Serdes.String().deserializer(),
            Serdes.String().deserializer(), controlTopic, CONTROL_PROCESSOR,
            () -> new ControlStoreWriter(controlStore));
        topology.addSink(ACK_SINK, ackTopic != null ? ackTopic : controlTopic + ".ack",
            Serdes.String().serializer(), Serdes.String().serializer(), PROCESSOR);
      }
      return topology;
    }

    private KeyValueBytesStoreSupplier supplier(String name) {
      return persistent ? Stores.persistentKeyValueStore(name)
          : Stores.inMemoryKeyValueStore(name);
    }
  }

  private static String requireName(String s, String what) {
    if (s == null || s.isBlank()) {
      throw new IllegalArgumentException(what + " must not be blank, not '" + s + "'");
    }
    return s;
  }

  /** Keeps the control topic's requests in the global store by offset. */
  private static final class ControlStoreWriter implements Processor<String, String, Void, Void> {
    private final String storeName;
    private KeyValueStore<String, String> store;
    private org.apache.kafka.streams.processor.api.ProcessorContext<Void, Void> context;

    ControlStoreWriter(String storeName) {
      this.storeName = storeName;
    }

    @Override
    public void init(org.apache.kafka.streams.processor.api.ProcessorContext<Void, Void> ctx) {
      this.context = ctx;
      this.store = ctx.getStateStore(storeName);
    }

    @Override
    public void process(Record<String, String> record) {
      org.apache.kafka.streams.processor.api.RecordMetadata md =
          context.recordMetadata().orElseThrow();
      if (md.partition() != 0) {
        throw new org.apache.kafka.streams.errors.StreamsException("the control topic "
            + md.topic() + " must have one partition (requests are ordered by offset); got a"
            + " record of partition " + md.partition());
      }
      long offset = md.offset();
      if (record.value() != null) {
        store.put(controlKey(offset), record.value());
      }
    }
  }
}
