package io.dataflow.monitor.internal;

import io.dataflow.core.Row;
import io.dataflow.monitor.KeyedMonitor;
import java.util.Objects;

/**
 * The keyed pipeline's entry into a {@link KeyedMonitor} that writes a tick's outputs straight
 * into a batch's columns (no output row and no copy of it per record; see docs/performance.md,
 * "Keyed pipeline", eighth pass). Internal machinery: this package is exported only to the
 * pipeline module (and the testkit, for its tests), so the keyed monitor's public API does not change.
 *
 * <p>Thread-safety: as the keyed monitor (its owner thread).
 */
public final class KeyedColumns {
  private KeyedColumns() {}

  /** What {@link KeyedMonitor} installs: its columns entry. */
  @FunctionalInterface
  public interface Entry {
    long evaluate(KeyedMonitor keyed, Object key, long atNanos, Row input, Row output,
        byte[] kinds, long[] bits, int at);
  }

  private static volatile Entry entry;

  /** Called once, by {@link KeyedMonitor}'s class initialization. */
  public static void install(Entry e) {
    if (entry != null) {
      throw new IllegalStateException("the keyed monitor's columns entry is installed");
    }
    entry = Objects.requireNonNull(e, "entry");
  }

  /**
   * Evaluates {@code key}'s next tick ({@link KeyedMonitor#evaluate}'s rules) with the outputs
   * in columns when the key's tick runs in place: output {@code j}'s kind at
   * {@code kinds[at + j]} and payload at {@code bits[at + j]} (never a reference). Any other
   * tick writes {@code output} instead, as {@code evaluate} does.
   *
   * @param output a row of the outputs' width, also the columns' row width
   * @return the key's tick ({@code t >= 0}) when the outputs are in the columns, {@code ~t}
   *     when they are in {@code output}
   * @throws io.dataflow.core.MonitorException when the tick fails (as {@code evaluate})
   */
  public static long evaluate(KeyedMonitor keyed, Object key, long atNanos, Row input,
      Row output, byte[] kinds, long[] bits, int at) {
    return entry.evaluate(keyed, key, atNanos, input, output, kinds, bits, at);
  }
}
