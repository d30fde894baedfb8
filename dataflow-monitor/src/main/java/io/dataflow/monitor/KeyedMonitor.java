package io.dataflow.monitor;

import io.dataflow.core.MonitorException;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.snapshot.MonitorSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * One logical monitor per key, all of one program: each key has its own tick count, histories,
 * lifting memories and dynamic bodies, and key K's outputs are exactly what a lone
 * {@link DataflowMonitor} fed K's ticks, in K's order, would produce. A key's state is created
 * by its first tick. The keyed pipeline (module {@code dataflow-pipeline}) keeps one of these
 * per lane.
 *
 * <p>Keys are compared with {@code equals}: use immutable values (a {@code String}, a
 * {@code Long}).
 *
 * <p>Thread-safety: owner thread only, like a monitor.
 */
public final class KeyedMonitor {
  private DataflowProgram program;
  private final DataflowMonitor.Options options;
  /** Each key's monitor and the clock reading of its last tick. */
  private final Map<Object, Entry> keys = new HashMap<>();

  private static final class Entry {
    DataflowMonitor monitor;
    long lastSeenNanos;

    Entry(DataflowMonitor monitor) {
      this.monitor = monitor;
    }
  }

  private KeyedMonitor(DataflowProgram program, DataflowMonitor.Options options) {
    this.program = Objects.requireNonNull(program, "program");
    // Generated code is per program, not per key: a key's monitor interprets.
    this.options = options.withFusion(DataflowMonitor.Fusion.OFF);
  }

  /** Keyed monitors of {@code program}, no key yet. */
  public static KeyedMonitor create(DataflowProgram program) {
    return new KeyedMonitor(program, DataflowMonitor.Options.DEFAULT);
  }

  /** The program every key runs. */
  public DataflowProgram program() {
    return program;
  }

  /** The input layout of every key's rows. */
  public RowLayout inputs() {
    return program.inputs();
  }

  /** The output layout of every key's rows. */
  public RowLayout outputs() {
    return program.outputs();
  }

  /** The number of keys with state. */
  public int size() {
    return keys.size();
  }

  /**
   * Evaluates key's next tick: {@code output} gets its outputs. A key seen for the first time
   * starts with fresh state at tick 0.
   *
   * @param atNanos the clock reading of this tick (for idle expiry)
   * @throws MonitorException when the tick fails; that key's monitor is failed (every later
   *     tick of it throws the same), the other keys are unaffected
   */
  public void evaluate(Object key, long atNanos, Row input, Row output) {
    Entry e = keys.get(key);
    if (e == null) {
      e = new Entry(DataflowMonitor.create(program, options));
      keys.put(Objects.requireNonNull(key, "key"), e);
    }
    e.lastSeenNanos = atNanos;
    e.monitor.evaluate(input, output);
  }

  /** The next tick of {@code key} (the number of ticks it evaluated); 0 for an unknown key. */
  public long nextTick(Object key) {
    Entry e = keys.get(key);
    return e == null ? 0 : e.monitor.nextTick();
  }

  /** True when {@code key} has state. */
  public boolean contains(Object key) {
    return keys.containsKey(key);
  }

  /** Forgets {@code key}'s state; its next tick starts fresh. */
  public boolean remove(Object key) {
    return keys.remove(key) != null;
  }

  /**
   * Forgets every key whose last tick is older than {@code idleSinceNanos} (idle expiry).
   *
   * @return how many keys were forgotten
   */
  public int expireIdle(long idleSinceNanos) {
    int n = 0;
    for (Iterator<Entry> it = keys.values().iterator(); it.hasNext(); ) {
      if (it.next().lastSeenNanos - idleSinceNanos < 0) {
        it.remove();
        n++;
      }
    }
    return n;
  }

  /** The keys with state, in no particular order (a copy). */
  public List<Object> keys() {
    return new ArrayList<>(keys.keySet());
  }

  /**
   * The snapshot of one key's state (docs/snapshots.md), as a lone monitor's would be.
   *
   * @throws IllegalArgumentException for a key without state
   */
  public MonitorSnapshot snapshot(Object key) {
    Entry e = keys.get(key);
    if (e == null) {
      throw new IllegalArgumentException("no state for key " + key);
    }
    return e.monitor.snapshot();
  }

  /** Calls {@code action} with every key and its snapshot. */
  public void snapshots(BiConsumer<Object, MonitorSnapshot> action) {
    keys.forEach((k, e) -> action.accept(k, e.monitor.snapshot()));
  }

  /**
   * Replaces {@code key}'s state by a snapshot's (the rules of
   * {@link DataflowMonitor#restore(DataflowProgram, MonitorSnapshot)}: exact with this program's
   * definition key, the transfer rules otherwise).
   *
   * @throws io.dataflow.core.snapshot.SnapshotException when the snapshot does not fit; the
   *     key's state is then unchanged
   */
  public ContextTransferReport restore(Object key, MonitorSnapshot snapshot) {
    DataflowMonitor.Transition t = DataflowMonitor.restore(program, snapshot, options);
    Entry e = keys.computeIfAbsent(Objects.requireNonNull(key, "key"), k -> new Entry(null));
    e.monitor = t.monitor();
    return t.report();
  }

  /**
   * Moves every key to {@code target}, the same way for every key: with a mapping, the rules of
   * a live transfer ({@link DataflowMonitor#transfer}; {@code RetainExact} when the mapping
   * says so), without one a cold start that continues each key's tick count. A key whose
   * monitor failed starts cold.
   *
   * @return what moved (the same for every key); the report of a cold start when there is no
   *     key
   */
  public ContextTransferReport reconfigure(DataflowProgram target, TransferMapping mapping) {
    Objects.requireNonNull(target, "target");
    ContextTransferReport report = null;
    for (Entry e : keys.values()) {
      DataflowMonitor m = e.monitor;
      DataflowMonitor.Transition t;
      if (mapping == null || m.failure() != null) {
        t = DataflowMonitor.coldStart(m, target, options);
      } else if (mapping.retainExact()) {
        t = DataflowMonitor.retainExact(m, target, options);
      } else {
        t = DataflowMonitor.transfer(m, target, mapping, options);
      }
      e.monitor = t.monitor();
      if (report == null && m.failure() == null) {
        report = t.report(); // every healthy key moves the same way
      }
    }
    program = target;
    if (report == null) {
      report = mapping != null && mapping.retainExact() ? ContextTransferReport.retainedAll(target)
          : new ContextTransferReport(List.of(), computed(target), List.of());
    }
    return report;
  }

  private static List<String> computed(DataflowProgram p) {
    List<String> out = new ArrayList<>();
    for (DataflowProgram.StreamDefinition s : p.streams()) {
      if (s.role() != DataflowProgram.Role.INPUT) {
        out.add(s.name());
      }
    }
    return out;
  }

  /** The failure of {@code key}'s monitor, or null. */
  public MonitorException failure(Object key) {
    Entry e = keys.get(key);
    return e == null ? null : e.monitor.failure();
  }
}
