package io.dataflow.core.internal;

import java.io.IOException;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Objects;
import java.util.Set;
import io.dataflow.core.spi.OutputWriter;
import io.dataflow.core.spi.Monitor;
import io.dataflow.core.ExecutionPolicy;
import io.dataflow.core.MonitorException;
import io.dataflow.core.Tick;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Row;
import io.dataflow.core.TickColumns;
import io.dataflow.core.TickShape;

/**
 * Evaluates ticks on the owner thread: fills a reusable input row from a tick (names resolved
 * to slots once per {@link TickShape} and cached), calls the monitor, and feeds the reusable
 * output row to the output writer, flushing as the {@link ExecutionPolicy} says.
 *
 * <p>A name the monitor does not declare as an input is ignored, with one warning per name per
 * run (the set survives monitor replacements).
 *
 * <p>Thread-safety: owner thread only.
 */
public final class DirectDataflowEngine {
  /** Receives the engine's warnings (an undeclared input name). */
  public interface Warnings {
    /** One warning, a single line. */
    void warn(String message);
  }

  private static final int SHAPE_CACHE_LIMIT = 64;

  private Monitor monitor; // owner thread only
  private final OutputWriter writer;
  /** The writer when it is a session: a batch's outputs then go to it in columns. */
  private final OutputSession session;
  private final ExecutionPolicy policy;
  private final Warnings warnings;
  private final Set<String> warned = new HashSet<>();
  private final IdentityHashMap<TickShape, Mapping> shapes = new IdentityHashMap<>();
  private TickShape lastShape;
  private Mapping lastMapping;
  private Row input;
  private Row output;
  private TickColumns batchIn; // the monitor's input and output columns, made on first use
  private TickColumns batchOut;
  private RowLayout outputLayout;
  private boolean layoutsStale;
  private long ticksIn;
  private long ticksOut;
  private int unflushed;

  /** An engine evaluating {@code monitor} into {@code writer}. */
  public DirectDataflowEngine(Monitor monitor, OutputWriter writer, ExecutionPolicy policy,
      Warnings warnings) {
    this.monitor = Objects.requireNonNull(monitor, "monitor");
    this.writer = Objects.requireNonNull(writer, "writer");
    this.session = writer instanceof OutputSession s ? s : null;
    this.policy = Objects.requireNonNull(policy, "policy");
    this.warnings = Objects.requireNonNull(warnings, "warnings");
    rebuildLayouts();
  }

  /**
   * Evaluates one tick and feeds its outputs.
   *
   * @throws MonitorException on a runtime error in the tick
   * @throws IOException when the writer fails
   */
  public void process(Tick tick) throws IOException {
    if (layoutsStale) {
      throw new IllegalStateException("the monitor was replaced but the row layouts were not "
          + "rebuilt");
    }
    Mapping m = mappingOf(tick.shape());
    Row in = input;
    // Every slot is written each tick, once: the inputs the tick assigns, NoVal for the rest.
    int[] unassigned = m.unassigned;
    for (int i = 0; i < unassigned.length; i++) {
      in.setNoVal(unassigned[i]);
    }
    int[] slots = m.slots;
    for (int i = 0; i < slots.length; i++) {
      int slot = slots[i];
      if (slot >= 0) {
        in.set(slot, tick.value(i));
      }
    }
    long number = monitor.nextTick();
    ticksIn++;
    monitor.evaluate(in, output);
    writer.feed(number, outputLayout, output);
    ticksOut++;
    if (++unflushed >= policy.flushEvery()) {
      flush();
    }
  }

  /**
   * Evaluates ticks {@code from} to {@code to - 1} of a columnar batch whose slot {@code i} is
   * the input {@code shape.name(i)}, through the monitor's batch path, and feeds their outputs
   * one tick at a time: the same ticks, outputs and flushes as {@link #process(Tick)} of each
   * tick in order. When a tick fails, the outputs of the ticks before it are fed first.
   *
   * @throws MonitorException on a runtime error in a tick
   * @throws IOException when the writer fails
   */
  public void process(TickShape shape, TickColumns columns, int from, int to)
      throws IOException {
    if (layoutsStale) {
      throw new IllegalStateException("the monitor was replaced but the row layouts were not "
          + "rebuilt");
    }
    int n = to - from;
    if (n <= 0) {
      return;
    }
    int[] slots = mappingOf(shape).slots();
    if (batchIn == null || batchIn.capacity() < n) {
      int capacity = Math.max(n, 256);
      batchIn = monitor.inputs().newColumns(capacity);
      batchOut = monitor.outputs().newColumns(capacity);
    }
    TickColumns in = batchIn;
    int width = in.width();
    for (int s = 0; s < width; s++) {
      int p = positionOf(slots, s);
      if (p >= 0) {
        columns.copyColumn(p, from, in, s, 0, n);
      } else {
        in.clearColumn(s, 0, n);
      }
    }
    in.setSize(n);
    long first = monitor.nextTick();
    try {
      monitor.evaluate(in, batchOut);
    } catch (RuntimeException e) {
      int done = Math.min(batchOut.size(), n);
      ticksIn += done + 1; // as process(Tick): the failed tick was handed to the monitor
      feed(first, done);
      throw e;
    }
    ticksIn += n;
    feed(first, n);
  }

  /** The position in a shape whose slot is {@code slot}, or -1 when the shape lacks it. */
  private static int positionOf(int[] slots, int slot) {
    for (int p = 0; p < slots.length; p++) {
      if (slots[p] == slot) {
        return p;
      }
    }
    return -1;
  }

  /**
   * Feeds the first {@code n} ticks of the output columns, flushing as the policy says: to a
   * session in columns, a run of ticks per call up to the next flush (one call per batch when
   * the policy flushes less often than that), otherwise a row at a time.
   */
  private void feed(long first, int n) throws IOException {
    TickColumns out = batchOut;
    Row row = output;
    OutputSession s = session;
    if (s != null) {
      int flushEvery = policy.flushEvery();
      for (int t = 0; t < n; ) {
        int run = Math.min(n - t, Math.max(1, flushEvery - unflushed));
        try {
          s.feed(first + t, outputLayout, out, t, t + run, row);
        } catch (IOException | RuntimeException e) {
          int fed = s.fed(); // as a row at a time: the rows before the failing one count
          ticksOut += fed;
          unflushed += fed;
          throw e;
        }
        ticksOut += run;
        t += run;
        unflushed += run;
        if (unflushed >= flushEvery) {
          flush();
        }
      }
      return;
    }
    for (int t = 0; t < n; t++) {
      out.copyTo(t, row);
      writer.feed(first + t, outputLayout, row);
      ticksOut++;
      if (++unflushed >= policy.flushEvery()) {
        flush();
      }
    }
  }

  /**
   * The end of a delivered batch: flushes when the policy says so
   * ({@link ExecutionPolicy#flushEachDelivery()}) and rows were fed since the last flush.
   */
  public void endOfDelivery() throws IOException {
    if (policy.flushEachDelivery() && unflushed > 0) {
      flush();
    }
  }

  /**
   * Where a shape's values go in the input row.
   *
   * @param slots the input slot of each name of the shape, -1 for a name that is not an input
   * @param unassigned the input slots the shape assigns nothing to (NoVal each tick)
   */
  private record Mapping(int[] slots, int[] unassigned) {}

  private Mapping mappingOf(TickShape shape) {
    if (shape == lastShape) {
      return lastMapping;
    }
    Mapping m = shapes.get(shape);
    if (m == null) {
      int[] slots = new int[shape.size()];
      RowLayout layout = monitor.inputs();
      boolean[] assigned = new boolean[layout.width()];
      int count = 0;
      for (int i = 0; i < slots.length; i++) {
        slots[i] = layout.slotOf(shape.name(i));
        if (slots[i] < 0) {
          if (warned.add(shape.name(i))) {
            warnings.warn("'" + shape.name(i) + "' is not an input of the specification; "
                + "ignored");
          }
        } else {
          assigned[slots[i]] = true;
          count++;
        }
      }
      int[] unassigned = new int[assigned.length - count];
      for (int slot = 0, k = 0; slot < assigned.length; slot++) {
        if (!assigned[slot]) {
          unassigned[k++] = slot;
        }
      }
      m = new Mapping(slots, unassigned);
      if (shapes.size() >= SHAPE_CACHE_LIMIT) {
        shapes.clear();
      }
      shapes.put(shape, m);
    }
    lastShape = shape;
    lastMapping = m;
    return m;
  }

  /** Pushes buffered output rows to the writer's destination. */
  public void flush() throws IOException {
    unflushed = 0;
    writer.flush();
  }

  /** The active monitor. */
  public Monitor monitor() {
    return monitor;
  }

  /**
   * Replaces the monitor (reconfiguration). The row layouts are stale until
   * {@link #rebuildLayouts()} is called; evaluating before that is an error.
   */
  public void replaceMonitor(Monitor next) {
    this.monitor = Objects.requireNonNull(next, "monitor");
    layoutsStale = true;
  }

  /** Rebuilds the reusable rows and the name-to-slot cache for the active monitor. */
  public void rebuildLayouts() {
    input = monitor.inputs().newRow();
    output = monitor.outputs().newRow();
    outputLayout = monitor.outputs();
    batchIn = null;
    batchOut = null;
    shapes.clear();
    lastShape = null;
    lastMapping = null;
    layoutsStale = false;
  }

  /** Ticks handed to the monitor so far. */
  public long ticksIn() {
    return ticksIn;
  }

  /** Tick rows fed to the writer so far. */
  public long ticksOut() {
    return ticksOut;
  }
}
