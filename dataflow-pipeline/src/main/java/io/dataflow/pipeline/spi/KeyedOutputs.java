package io.dataflow.pipeline.spi;

import io.dataflow.core.Kind;
import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Value;
import java.util.AbstractList;
import java.util.Arrays;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * A batch of outputs as columns: what a driver hands {@link KeyedSink#send(KeyedOutputs,
 * Acknowledgement)}. Output {@code i}'s key, tick, partition, offset and slot values are read
 * in place ({@link #key}, {@link #bits}, ...), without an object per output; as a
 * {@code List<KeyedOutput>} it makes each {@link KeyedOutput} (with its own row) on
 * {@link #get}. Every output of a batch has the same {@link #layout()} (a reconfiguration hands
 * over the batch before it changes the outputs).
 *
 * <p>The columns belong to the sink only until it reports the batch's acknowledgement: the
 * pipeline then reuses them for a later batch. A sink reads them before it acknowledges, and
 * copies what it keeps ({@link #get} makes a copy). Thread-safety: read-only; safe to read from
 * any thread until the acknowledgement.
 */
public final class KeyedOutputs extends AbstractList<KeyedOutput> implements RandomAccess {
  private final RowLayout layout;
  private final int width;
  private final int size;
  private final Object[] keys;
  private final long[] ticks;
  private final int[] partitions;
  private final long[] offsets;
  private final byte[] kinds;
  private final long[] bits;
  private final Object[] refs;

  private KeyedOutputs(Builder b) {
    this.layout = b.layout;
    this.width = b.width;
    this.size = b.size;
    this.keys = b.keys;
    this.ticks = b.ticks;
    this.partitions = b.partitions;
    this.offsets = b.offsets;
    this.kinds = b.kinds;
    this.bits = b.bits;
    this.refs = b.refs;
  }

  /** The names of the slots, the same for every output of the batch. */
  public RowLayout layout() {
    return layout;
  }

  /** The number of slots of each output. */
  public int width() {
    return width;
  }

  @Override
  public int size() {
    return size;
  }

  /** Output {@code i}'s key. */
  public Object key(int i) {
    Objects.checkIndex(i, size);
    return keys[i];
  }

  /** Output {@code i}'s tick: the key's own tick index (from 0). */
  public long tick(int i) {
    Objects.checkIndex(i, size);
    return ticks[i];
  }

  /** The partition of the record that produced output {@code i}. */
  public int partition(int i) {
    Objects.checkIndex(i, size);
    return partitions[i];
  }

  /** The offset of the record that produced output {@code i}. */
  public long offset(int i) {
    Objects.checkIndex(i, size);
    return offsets[i];
  }

  /** The kind ({@link Kind}) of output {@code i}'s value in {@code slot}. */
  public byte kind(int i, int slot) {
    return kinds[at(i, slot)];
  }

  /** The raw payload bits of output {@code i}'s value in {@code slot} (see {@link Row#bits}). */
  public long bits(int i, int slot) {
    return bits[at(i, slot)];
  }

  /** The reference payload (a string, a list, a map) of output {@code i} in {@code slot}. */
  public Object ref(int i, int slot) {
    int at = at(i, slot);
    return refs == null ? null : refs[at];
  }

  /** Output {@code i}'s value in {@code slot}, boxed (NoVal for a stream without output). */
  public Value value(int i, int slot) {
    int at = at(i, slot);
    return Kind.box(kinds[at], bits[at], refs == null ? null : refs[at]);
  }

  private int at(int i, int slot) {
    Objects.checkIndex(i, size);
    Objects.checkIndex(slot, width);
    return i * width + slot;
  }

  /** Output {@code i} as an object with a row of its own. */
  @Override
  public KeyedOutput get(int i) {
    Objects.checkIndex(i, size);
    Row row = new Row(width);
    int at = i * width;
    for (int s = 0; s < width; s++, at++) {
      row.setRaw(s, kinds[at], bits[at], refs == null ? null : refs[at]);
    }
    return new KeyedOutput(keys[i], ticks[i], partitions[i], offsets[i], layout, row);
  }

  /**
   * Collects a batch (the pipeline's drivers; tests). Owner thread only; {@link #build} hands
   * the columns over to the batch, after which the builder starts empty again.
   */
  public static final class Builder {
    private final RowLayout layout;
    private final int width;
    private int size;
    private Object[] keys;
    private long[] ticks;
    private int[] partitions;
    private long[] offsets;
    private byte[] kinds;
    private long[] bits;
    private Object[] refs;
    private final int capacity;
    /** The columns of an acknowledged batch, for the next batch, or null. */
    private KeyedOutputs spare;

    /** A builder of batches of rows of {@code layout}, sized for {@code capacity} outputs. */
    public Builder(RowLayout layout, int capacity) {
      this.layout = Objects.requireNonNull(layout, "layout");
      this.width = layout.width();
      this.capacity = Math.max(1, capacity);
    }

    private void allocate(int n) {
      keys = new Object[n];
      ticks = new long[n];
      partitions = new int[n];
      offsets = new long[n];
      kinds = new byte[n * width];
      bits = new long[n * width];
      refs = null;
    }

    /** The layout of the rows. */
    public RowLayout layout() {
      return layout;
    }

    /** The number of outputs collected. */
    public int size() {
      return size;
    }

    /** Appends an output: a copy of {@code row}'s values (a row of the layout's width). */
    public void add(Object key, long tick, int partition, long offset, Row row) {
      if (row.width() != width) {
        throw new IllegalArgumentException("a row of width " + row.width() + " for outputs of "
            + width + " slots");
      }
      int i = size;
      if (keys == null) {
        start(); // on the first output: a builder between batches holds nothing
      } else if (i == keys.length) {
        grow();
      }
      keys[i] = key;
      ticks[i] = tick;
      partitions[i] = partition;
      offsets[i] = offset;
      int at = i * width;
      for (int s = 0; s < width; s++, at++) {
        kinds[at] = row.kind(s);
        bits[at] = row.bits(s);
        Object r = row.ref(s);
        if (r != null) {
          if (refs == null) {
            refs = new Object[bits.length]; // only batches with reference values pay for it
          }
          refs[at] = r;
        }
      }
      size = i + 1;
    }

    /**
     * For writers that fill an output's slots in place (the pipeline's drivers): makes room
     * for one more output and returns where its slots start in {@link #kindColumn()} and
     * {@link #bitsColumn()} (slot {@code s} at the returned index plus {@code s}). The output
     * counts only once {@link #addClaimed} is called; until then the next claim returns the same
     * place. The columns may be replaced by a claim: read them after it.
     */
    public int claim() {
      if (keys == null) {
        start();
      } else if (size == keys.length) {
        grow();
      }
      return size * width;
    }

    /** The kinds of every output's slots (see {@link #claim}); valid until the next claim. */
    public byte[] kindColumn() {
      return kinds;
    }

    /** The payloads of every output's slots (see {@link #claim}); valid until the next claim. */
    public long[] bitsColumn() {
      return bits;
    }

    /**
     * Appends the output whose slots were written at the place of the last {@link #claim}
     * (kinds and payloads only: no reference values).
     */
    public void addClaimed(Object key, long tick, int partition, long offset) {
      int i = size;
      if (keys == null || i == keys.length) {
        throw new IllegalStateException("no output was claimed");
      }
      keys[i] = key;
      ticks[i] = tick;
      partitions[i] = partition;
      offsets[i] = offset;
      size = i + 1;
    }

    private void start() {
      KeyedOutputs s = spare;
      spare = null;
      if (s != null && s.width == width && s.keys.length == capacity) {
        keys = s.keys;
        ticks = s.ticks;
        partitions = s.partitions;
        offsets = s.offsets;
        kinds = s.kinds;
        bits = s.bits;
        refs = null; // every slot's references are written again, or none
      } else {
        allocate(capacity);
      }
    }

    /**
     * Hands back the columns of a batch whose acknowledgement was reported, so the next batch
     * reuses them instead of allocating: nothing may read {@code spent} afterwards.
     */
    public void reuse(KeyedOutputs spent) {
      spare = Objects.requireNonNull(spent, "spent");
    }

    private void grow() {
      int n = keys.length * 2;
      keys = Arrays.copyOf(keys, n);
      ticks = Arrays.copyOf(ticks, n);
      partitions = Arrays.copyOf(partitions, n);
      offsets = Arrays.copyOf(offsets, n);
      kinds = Arrays.copyOf(kinds, n * width);
      bits = Arrays.copyOf(bits, n * width);
      if (refs != null) {
        refs = Arrays.copyOf(refs, n * width);
      }
    }

    /** The batch of what was added; the builder then starts a new, empty one. */
    public KeyedOutputs build() {
      if (keys == null) {
        allocate(0);
      }
      KeyedOutputs b = new KeyedOutputs(this);
      size = 0;
      keys = null;
      ticks = null;
      partitions = null;
      offsets = null;
      kinds = null;
      bits = null;
      refs = null;
      return b;
    }
  }
}
