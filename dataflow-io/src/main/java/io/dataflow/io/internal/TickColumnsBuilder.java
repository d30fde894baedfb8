package io.dataflow.io.internal;

import io.dataflow.core.TickBatch;
import io.dataflow.core.TickColumns;
import io.dataflow.core.TickShape;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.function.Consumer;

/**
 * Assembles columnar {@link TickBatch}es from the ticks a reader parses: one column per name
 * seen (in order of first appearance), a NoVal where a tick does not assign a name. The names
 * carry over from batch to batch, so a steady input keeps one {@link TickShape} (the engine
 * resolves a shape's names once); a batch is widened in place when a new name appears, and a
 * shape grown past {@value #MAX_CARRIED} names starts over with the next batch.
 *
 * <p>The runtime hands the columns of an evaluated batch back ({@link TickBatch#evaluated()}),
 * and the builder fills them again: a steady input allocates no columns per batch (before, a
 * batch's new columns were about 26 bytes per tick of two Int inputs, which a short process
 * paid for in page faults and in zeroing the arrays).
 *
 * <p>Thread-safety: one reading thread; a batch taken belongs to its receiver until the
 * runtime hands its columns back, from its own thread.
 */
public final class TickColumnsBuilder {
  private static final int MAX_CARRIED = 32;
  /** Columns handed back, at most as many as a source usually has in flight; more are dropped. */
  private static final int SPARE = 32;
  private final int capacity;
  private String[] names = new String[4];
  private int width;
  private TickShape shape; // of names[0..width), made when a batch is taken
  private TickColumns columns;
  private int size;
  private int guess; // the column the next name probably has (names come in the same order)
  // Evaluated batches' columns, from the runtime's thread (a lock per batch, no allocation).
  private final ArrayBlockingQueue<TickColumns> spare = new ArrayBlockingQueue<>(SPARE);
  private final Consumer<TickColumns> recycle = spare::offer;

  /** A builder of batches of up to {@code capacity} ticks. */
  public TickColumnsBuilder(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be positive: " + capacity);
    }
    this.capacity = capacity;
    this.columns = new TickColumns(0, capacity);
  }

  /** The ticks in the batch being built. */
  public int size() {
    return size;
  }

  /** True when the batch holds {@code capacity} ticks and must be taken. */
  public boolean isFull() {
    return size == capacity;
  }

  /** Appends up to {@code n} ticks that assign nothing; returns how many fitted. */
  public long addEmpty(long n) {
    int k = (int) Math.min(n, capacity - size);
    size += k; // fresh columns are NoVal
    return k;
  }

  /** Appends one tick (there must be room). */
  public void add(PendingTick tick) {
    for (int i = 0; i < tick.count; i++) {
      int c = column(tick.names[i]);
      columns.setRaw(c, size, tick.kinds[i], tick.bits[i], tick.refs[i]);
    }
    size++;
  }

  /** The batch built so far, handed over; the next one starts empty with the same names. */
  public TickBatch take() {
    if (shape == null) {
      shape = TickShape.of(Arrays.copyOf(names, width));
    }
    columns.setSize(size);
    TickBatch batch = TickBatch.ofColumns(shape, columns, recycle);
    if (width > MAX_CARRIED) {
      Arrays.fill(names, 0, width, null);
      width = 0;
      shape = null;
    }
    columns = fresh();
    size = 0;
    return batch;
  }

  /** Empty columns of the current width: handed-back ones made NoVal again, or new ones. */
  private TickColumns fresh() {
    TickColumns c;
    while ((c = spare.poll()) != null) {
      if (c.width() == width) {
        c.clear();
        return c;
      }
      // Of a narrower shape (a name appeared since): dropped.
    }
    return new TickColumns(width, capacity);
  }

  private int column(String name) {
    int g = guess;
    if (g < width && (names[g] == name || names[g].equals(name))) {
      guess = g + 1;
      return g;
    }
    for (int c = 0; c < width; c++) {
      if (names[c] == name || names[c].equals(name)) {
        guess = c + 1;
        return c;
      }
    }
    return widen(name);
  }

  /** Adds a column for {@code name}, keeping the ticks so far (the current one included). */
  private int widen(String name) {
    if (width == names.length) {
      names = Arrays.copyOf(names, width * 2);
    }
    names[width] = name;
    TickColumns wider = new TickColumns(width + 1, capacity);
    int rows = Math.min(size + 1, capacity);
    for (int c = 0; c < width; c++) {
      columns.copyColumn(c, 0, wider, c, 0, rows);
    }
    columns = wider;
    shape = null;
    guess = width + 1;
    return width++;
  }
}
