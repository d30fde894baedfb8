package io.dataflow.kafka;

import io.dataflow.core.Row;
import io.dataflow.core.snapshot.MonitorSnapshot;
import io.dataflow.io.TraceException;
import io.dataflow.kafka.internal.AckLine;
import io.dataflow.kafka.internal.RequestPlan;
import io.dataflow.kafka.internal.TickRows;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.KeyedMonitor;
import io.dataflow.pipeline.io.KeyedJsonLines;
import io.dataflow.pipeline.spi.KeyedOutput;
import io.dataflow.reconfig.ReconfigurationException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.StreamsException;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Kafka Streams processor that runs one dataflow monitor per record key: the value is a tick
 * in the JSON Lines tick format, the outputs are forwarded keyed by the same key as an output
 * line ({@code {"key": K, "tick": n, "name": value}}) with the input's timestamp.
 *
 * <h2>State</h2>
 * Each key's monitor state is one value of the task's {@code KeyValueStore<K, byte[]>}: the
 * monitor snapshot format (docs/snapshots.md), written after every record of the key. Kafka
 * Streams' changelog, standby replicas and rebalancing therefore carry it: a task moved to
 * another instance, or a restarted one, continues every key exactly. A task's meta store holds
 * the specification it runs, its revision and its position in the control topic. In memory the
 * task keeps the keys it has seen (a {@link KeyedMonitor}: about 200 bytes per key for simple
 * specifications), loaded from the store at a key's first record; {@link #init} forgets them,
 * so an aborted transaction (the task is re-initialized) never leaves memory ahead of the
 * store.
 *
 * <h2>Reconfiguration</h2>
 * With a control topic, its requests (the request JSON5 format, docs/reconfiguration.md) are a
 * global store read by every instance. A task switches at its first record after a request is
 * visible to it: every key of the task's store moves to the new program by the transfer rules,
 * is written back, and an acknowledgement (instance, task, control offset, revisions, plan,
 * keys moved; or the refusal) is forwarded to the ack sink. A request that is refused changes
 * nothing.
 *
 * <p>A record without a key, or whose value is not a tick, is skipped with a warning (counted
 * in {@link #skipped()}); a tick that fails the key's monitor throws a {@link StreamsException}
 * naming key, partition and offset.
 *
 * <p>Thread-safety: Kafka Streams calls a processor from its task's stream thread only.
 *
 * @param <K> the record key type (a String or a Long, compared with {@code equals})
 */
public final class DataflowProcessor<K> implements Processor<K, String, Object, String> {
  private static final Logger LOG = LoggerFactory.getLogger(DataflowProcessor.class);
  static final String META_SPEC_NAME = "spec.name";
  static final String META_SPEC_TEXT = "spec.text";
  static final String META_REVISION = "revision";
  static final String META_CONTROL_NEXT = "control.next";

  private final DataflowTopology.Settings settings;
  private ProcessorContext<Object, String> context;
  private KeyValueStore<K, byte[]> state; // stream thread only, like every field
  private KeyValueStore<String, String> meta;
  private KeyValueStore<String, String> control;
  private DataflowProgram program;
  private long revision;
  private long controlNext;
  private KeyedMonitor keyed;
  private TickRows rows;
  private Row in;
  private Row out;
  private final KeyedJsonLines.Decoder decoder = KeyedJsonLines.decoder(null);
  private long skipped;

  DataflowProcessor(DataflowTopology.Settings settings) {
    this.settings = settings;
  }

  @Override
  public void init(ProcessorContext<Object, String> context) {
    this.context = context;
    this.state = context.getStateStore(settings.stateStore());
    this.meta = context.getStateStore(settings.metaStore());
    this.control = settings.controlTopic() == null ? null
        : context.getStateStore(settings.controlStore());
    String text = meta.get(META_SPEC_TEXT);
    if (text == null) {
      program = settings.program();
      revision = 0;
      controlNext = 0;
    } else {
      program = DataflowProgram.compile(meta.get(META_SPEC_NAME), text,
          settings.program().typingMode());
      revision = Long.parseLong(meta.get(META_REVISION));
      controlNext = Long.parseLong(meta.get(META_CONTROL_NEXT));
    }
    useProgram(program);
    keyed = KeyedMonitor.create(program);
  }

  private void useProgram(DataflowProgram p) {
    program = p;
    rows = new TickRows(p.inputs(), w -> LOG.warn("task {}: {}", context.taskId(), w));
    in = p.inputs().newRow();
    out = p.outputs().newRow();
  }

  @Override
  public void process(Record<K, String> record) {
    if (control != null) {
      applyRequests(record.timestamp());
    }
    K key = record.key();
    Optional<RecordMetadata> md = context.recordMetadata();
    int partition = md.map(RecordMetadata::partition).orElse(-1);
    long offset = md.map(RecordMetadata::offset).orElse(-1L);
    if (key == null || record.value() == null) {
      skip("a record without " + (key == null ? "a key" : "a value"), partition, offset);
      return;
    }
    KeyedJsonLines.Keyed k;
    try {
      k = decoder.decode(record.value(), md.map(RecordMetadata::topic).orElse("input") + "["
          + partition + "]", offset);
    } catch (TraceException e) {
      skip(e.getMessage(), partition, offset);
      return;
    }
    load(key);
    rows.fill(k.tick(), in);
    try {
      keyed.evaluate(key, record.timestamp(), in, out);
    } catch (RuntimeException e) {
      throw new StreamsException("key " + key + " (partition " + partition + ", offset "
          + offset + "): " + e.getMessage(), e);
    } finally {
      state.put(key, keyed.snapshot(key).toBytes());
    }
    for (int i = 0; i < out.width(); i++) {
      if (out.kind(i) != io.dataflow.core.Kind.NOVAL) {
        Row copy = new Row(out.width());
        copy.copyFrom(out);
        KeyedOutput o = new KeyedOutput(key, keyed.nextTick(key) - 1, Math.max(partition, 0),
            Math.max(offset, 0), program.outputs(), copy);
        context.forward(new Record<>(key, KeyedJsonLines.outputLine(o), record.timestamp()),
            DataflowTopology.OUTPUT_SINK);
        break;
      }
    }
  }

  /** Brings {@code key}'s state from the store into memory, if it is not there. */
  private void load(K key) {
    if (!keyed.contains(key)) {
      byte[] bytes = state.get(key);
      if (bytes != null) {
        keyed.restore(key, MonitorSnapshot.fromBytes(bytes));
      }
    }
  }

  private void skip(String why, int partition, long offset) {
    skipped++;
    LOG.warn("task {}: skipped {} (partition {}, offset {}; {} skipped so far)",
        context.taskId(), why, partition, offset, skipped);
  }

  // ------------------------------------------------------------ reconfiguration

  private void applyRequests(long timestamp) {
    List<KeyValue<String, String>> fresh = new ArrayList<>();
    try (KeyValueIterator<String, String> it = control.range(DataflowTopology.controlKey(
        controlNext), DataflowTopology.controlKey(Long.MAX_VALUE))) {
      it.forEachRemaining(fresh::add);
    }
    for (KeyValue<String, String> kv : fresh) {
      long at = Long.parseLong(kv.key);
      apply(at, kv.value, timestamp);
      controlNext = at + 1;
      meta.put(META_CONTROL_NEXT, Long.toString(controlNext));
    }
  }

  private void apply(long controlOffset, String text, long timestamp) {
    Map<String, Object> ack = new LinkedHashMap<>();
    ack.put("instance", settings.instance());
    ack.put("task", context.taskId().toString());
    ack.put("controlOffset", controlOffset);
    ack.put("previousRevision", revision);
    RequestPlan plan;
    try {
      plan = RequestPlan.of(text, settings.controlTopic() + "@" + controlOffset, program);
    } catch (ReconfigurationException e) {
      LOG.warn("task {}: reconfiguration request at {} refused: {}", context.taskId(),
          controlOffset, e.getMessage());
      ack.put("ok", false);
      ack.put("monitorRevision", revision);
      ack.put("error", e.getMessage());
      forwardAck(ack, timestamp);
      return;
    }
    // Every key of the task moves, not only those in memory.
    List<Object> fromStore = new ArrayList<>();
    try (KeyValueIterator<K, byte[]> it = state.all()) {
      while (it.hasNext()) {
        KeyValue<K, byte[]> kv = it.next();
        if (!keyed.contains(kv.key)) {
          keyed.restore(kv.key, MonitorSnapshot.fromBytes(kv.value));
          fromStore.add(kv.key);
        }
      }
    }
    keyed.reconfigure(plan.candidate(), plan.mapping());
    List<KeyValue<K, byte[]>> written = new ArrayList<>();
    keyed.snapshots((k, s) -> written.add(KeyValue.pair(cast(k), s.toBytes())));
    state.putAll(written);
    useProgram(plan.candidate());
    revision++;
    meta.put(META_SPEC_NAME, program.name());
    meta.put(META_SPEC_TEXT, program.source());
    meta.put(META_REVISION, Long.toString(revision));
    ack.put("ok", true);
    ack.put("monitorRevision", revision);
    ack.put("plan", plan.plan());
    ack.put("keys", (long) written.size());
    forwardAck(ack, timestamp);
  }

  @SuppressWarnings("unchecked")
  private K cast(Object key) {
    return (K) key;
  }

  private void forwardAck(Map<String, Object> ack, long timestamp) {
    context.forward(new Record<>(settings.instance() + "/" + context.taskId(),
        AckLine.of(ack), timestamp), DataflowTopology.ACK_SINK);
  }

  /** Records skipped (no key, no value, not a tick) by this task since it was created. */
  public long skipped() {
    return skipped;
  }

  @Override
  public void close() {
    keyed = null;
  }
}
