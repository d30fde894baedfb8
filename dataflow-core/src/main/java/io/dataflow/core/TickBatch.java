package io.dataflow.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A delivery unit of one or more logical ticks, in order. Batch boundaries never change
 * logical time: a batch of three ticks is evaluated as three ticks.
 *
 * <p>A batch holds its ticks either as {@link Tick} objects ({@link #of(List)}) or in columns
 * ({@link #ofColumns(TickShape, TickColumns)}): one column per name of a shape, tick {@code t}
 * assigning the names whose value at {@code t} is present. Columns carry scalar values without
 * a boxed object per value; the runtime evaluates them through the monitor's batch path where
 * it can, and {@link #ticks()} gives the same ticks as objects wherever they are needed.
 *
 * <p>Thread-safety: immutable once made (the columns of a columnar batch are handed over and
 * never written again).
 */
public final class TickBatch {
  private final TickShape shape;
  private final TickColumns columns;
  private final Consumer<TickColumns> whenEvaluated; // null: the columns are left to the GC
  private List<Tick> ticks; // made on first use for a columnar batch (a benign race: immutable)

  private TickBatch(List<Tick> ticks) {
    this.ticks = ticks;
    this.shape = null;
    this.columns = null;
    this.whenEvaluated = null;
  }

  private TickBatch(TickShape shape, TickColumns columns, Consumer<TickColumns> whenEvaluated) {
    this.shape = shape;
    this.columns = columns;
    this.whenEvaluated = whenEvaluated;
  }

  /** A batch of the given ticks. */
  public static TickBatch of(Tick... ticks) {
    return new TickBatch(List.of(ticks));
  }

  /** A batch of the given ticks (copied). */
  public static TickBatch of(List<Tick> ticks) {
    return new TickBatch(List.copyOf(ticks));
  }

  /**
   * A batch of the first {@code columns.size()} ticks of {@code columns}, whose slot {@code i}
   * is the name {@code shape.name(i)}: tick {@code t} assigns each name whose value at
   * {@code t} is not NoVal (a NoVal is an unassigned name). The batch takes the columns over:
   * the caller must not write them afterwards.
   *
   * @throws IllegalArgumentException when the widths differ
   */
  public static TickBatch ofColumns(TickShape shape, TickColumns columns) {
    return ofColumns(shape, columns, null);
  }

  /**
   * As {@link #ofColumns(TickShape, TickColumns)}, and the runtime hands the columns to
   * {@code whenEvaluated} (on its owner thread) once it has evaluated every tick of the batch
   * and reads the columns no more, so that a source can fill them again instead of allocating
   * new ones for every batch. It may never do so (a batch evaluated tick by tick, dropped or
   * failed): the columns are then left to the garbage collector.
   *
   * @param whenEvaluated takes the columns back, or null
   * @throws IllegalArgumentException when the widths differ
   */
  public static TickBatch ofColumns(TickShape shape, TickColumns columns,
      Consumer<TickColumns> whenEvaluated) {
    Objects.requireNonNull(shape, "shape");
    if (shape.size() != columns.width()) {
      throw new IllegalArgumentException("shape " + shape + " for columns of width "
          + columns.width());
    }
    return new TickBatch(shape, columns, whenEvaluated);
  }

  /**
   * For the runtime: every tick of this columnar batch was evaluated and its columns are read
   * no more; hands them to the batch's {@code whenEvaluated}, if any. Once per batch, and
   * never for a batch whose ticks were made into {@link #ticks()} (they may still be read).
   */
  public void evaluated() {
    if (whenEvaluated != null && ticks == null) {
      whenEvaluated.accept(columns);
    }
  }

  /** The ticks, in order (made from the columns on first use for a columnar batch). */
  public List<Tick> ticks() {
    List<Tick> t = ticks;
    if (t == null) {
      t = materialize();
      ticks = t;
    }
    return t;
  }

  /** The number of ticks. */
  public int size() {
    return columns != null ? columns.size() : ticks.size();
  }

  /**
   * The names of the columns of a columnar batch, or null for a batch of {@link Tick} objects.
   */
  public TickShape columnShape() {
    return shape;
  }

  /**
   * The columns of a columnar batch (read them, never write them), or null for a batch of
   * {@link Tick} objects.
   */
  public TickColumns columns() {
    return columns;
  }

  private List<Tick> materialize() {
    int n = columns.size();
    int width = shape.size();
    List<Tick> out = new ArrayList<>(n);
    TickShape full = shape; // the usual tick assigns every name: its shape is the batch's
    String[] names = new String[width];
    Value[] values = new Value[width];
    for (int t = 0; t < n; t++) {
      int k = 0;
      for (int s = 0; s < width; s++) {
        if (columns.kind(s, t) != Kind.NOVAL) {
          names[k] = shape.name(s);
          values[k++] = columns.get(s, t);
        }
      }
      if (k == 0) {
        out.add(Tick.empty());
      } else if (k == width) {
        out.add(new Tick(full, values.clone()));
      } else {
        out.add(new Tick(TickShape.of(java.util.Arrays.copyOf(names, k)),
            java.util.Arrays.copyOf(values, k)));
      }
    }
    return List.copyOf(out); // final fields: safe to publish through the race above
  }

  @Override
  public String toString() {
    return "TickBatch" + ticks();
  }
}
