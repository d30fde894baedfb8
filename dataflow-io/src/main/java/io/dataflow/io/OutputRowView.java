package io.dataflow.io;

import io.dataflow.core.Kind;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Value;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The outputs of one tick as a read-only view of typed slots: what
 * {@link Sinks#viewCallback} hands its callback. Reading an Int, a Float or a Bool allocates
 * nothing, so a sink that reads scalars costs no garbage per row; {@link #get(int)} and
 * {@link #toOutputRow()} box, like {@link OutputRow}.
 *
 * <p>Slots follow the {@link #layout()}: the output streams in declaration order of the active
 * specification. The layout is one instance until a reconfiguration changes the outputs, so a
 * callback may resolve a stream's slot once ({@link #slotOf(String)}) and look it up again only
 * when {@code layout()} is no longer the same instance.
 *
 * <p>The view is valid only during the callback: the runtime reuses it (and the row behind it)
 * for the next tick. Copy what you keep, for example with {@link #toOutputRow()}.
 *
 * <p>Thread-safety: owner thread only, during the callback.
 */
public final class OutputRowView {
  private long tick;
  private RowLayout layout;
  private Row row;

  OutputRowView() {}

  /** Points the view at the next tick's outputs (the sink, before each callback). */
  void reset(long tick, RowLayout layout, Row row) {
    this.tick = tick;
    // Write only what changes: every reference store pays a GC barrier, and the engine hands
    // over the same layout and row tick after tick.
    if (this.layout != layout) {
      this.layout = layout;
    }
    if (this.row != row) {
      this.row = row;
    }
  }

  /** The logical tick number. */
  public long tick() {
    return tick;
  }

  /** The output streams, one per slot, in declaration order. */
  public RowLayout layout() {
    return layout;
  }

  /** The number of slots (output streams). */
  public int width() {
    return row.width();
  }

  /** The name of the stream in a slot. */
  public String name(int slot) {
    return layout.name(slot);
  }

  /** The slot of a stream, or -1 when the active specification has no such output. */
  public int slotOf(String stream) {
    return layout.slotOf(stream);
  }

  /** The kind of the value in a slot ({@link Kind}: {@code Kind.INT}, {@code Kind.NOVAL}, ...). */
  public byte kind(int slot) {
    return row.kind(slot);
  }

  /** True when the slot has a value this tick (anything but NoVal, Deferred included). */
  public boolean hasValue(int slot) {
    return row.kind(slot) != Kind.NOVAL;
  }

  /** True when the slot holds neither NoVal nor Deferred. */
  public boolean isPresent(int slot) {
    return row.isPresent(slot);
  }

  /**
   * The Int in a slot.
   *
   * @throws IllegalStateException when the slot holds another kind (NoVal included)
   */
  public long getInt(int slot) {
    requireKind(slot, Kind.INT);
    return row.bits(slot);
  }

  /**
   * The Float in a slot.
   *
   * @throws IllegalStateException when the slot holds another kind (NoVal included)
   */
  public double getFloat(int slot) {
    requireKind(slot, Kind.FLOAT);
    return Double.longBitsToDouble(row.bits(slot));
  }

  /**
   * The Bool in a slot.
   *
   * @throws IllegalStateException when the slot holds another kind (NoVal included)
   */
  public boolean getBool(int slot) {
    requireKind(slot, Kind.BOOL);
    return row.bits(slot) != 0;
  }

  /**
   * The Str in a slot (the monitor's own String; no copy).
   *
   * @throws IllegalStateException when the slot holds another kind (NoVal included)
   */
  public String getStr(int slot) {
    requireKind(slot, Kind.STR);
    return (String) row.ref(slot);
  }

  private void requireKind(int slot, byte kind) {
    if (row.kind(slot) != kind) {
      throw new IllegalStateException("tick " + tick + ": output '" + layout.name(slot)
          + "' (slot " + slot + ") holds " + Kind.name(row.kind(slot)) + ", not "
          + Kind.name(kind));
    }
  }

  /** The value in a slot, boxed (NoVal and Deferred included). */
  public Value get(int slot) {
    return row.get(slot);
  }

  /** A copy of this tick's outputs that have a value, boxed: what {@link Sinks#callback} gets. */
  public OutputRow toOutputRow() {
    Map<String, Value> values = new LinkedHashMap<>();
    for (int i = 0; i < row.width(); i++) {
      if (row.kind(i) != Kind.NOVAL) {
        values.put(layout.name(i), row.get(i));
      }
    }
    return new OutputRow(tick, values);
  }

  /** True when some slot has a value this tick (the ticks a callback sink delivers). */
  boolean anyValue() {
    for (int i = 0, n = row.width(); i < n; i++) {
      if (row.kind(i) != Kind.NOVAL) {
        return true;
      }
    }
    return false;
  }

  @Override
  public String toString() {
    return "OutputRowView[tick=" + tick + ", " + row + "]";
  }
}
