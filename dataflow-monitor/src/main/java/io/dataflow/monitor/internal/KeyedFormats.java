package io.dataflow.monitor.internal;

import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.KeyedMonitor;
import java.util.Objects;

/**
 * Test hooks into a {@link KeyedMonitor}'s per-key formats: the hot format a key of a program
 * the keyed kernel covers is resident in, and the wide format every other consumer reads
 * (docs/performance.md, keyed monitors, ninth pass). For the testkit's equivalence tests only;
 * this package is exported only to the pipeline and the testkit.
 *
 * <p>Thread-safety: as the keyed monitor (its owner thread).
 */
public final class KeyedFormats {
  private KeyedFormats() {}

  /** What {@link KeyedMonitor} installs. */
  public interface Hooks {
    KeyedMonitor createWide(DataflowProgram program);

    boolean isHot(KeyedMonitor keyed, Object key);

    void convert(KeyedMonitor keyed, Object key, boolean wide);
  }

  private static volatile Hooks hooks;

  /** Called once, by {@link KeyedMonitor}'s class initialization. */
  public static void install(Hooks h) {
    if (hooks != null) {
      throw new IllegalStateException("the keyed monitor's format hooks are installed");
    }
    hooks = Objects.requireNonNull(h, "hooks");
  }

  private static Hooks hooks() {
    if (hooks == null) { // installed by the keyed monitor's class initialization
      try {
        Class.forName(KeyedMonitor.class.getName(), true, KeyedMonitor.class.getClassLoader());
      } catch (ClassNotFoundException e) {
        throw new IllegalStateException(e);
      }
    }
    return hooks;
  }

  /** Keyed monitors of {@code program} whose keys never use the hot format. */
  public static KeyedMonitor createWide(DataflowProgram program) {
    return hooks().createWide(program);
  }

  /** Whether {@code key}'s state is resident in the hot format. */
  public static boolean isHot(KeyedMonitor keyed, Object key) {
    return hooks().isHot(keyed, key);
  }

  /**
   * Moves {@code key} to the wide format ({@code wide}) or, when its state fits, to the hot
   * format: what a snapshot, checkpoint or reconfiguration does to it; its behaviour must not
   * change either way.
   */
  public static void convert(KeyedMonitor keyed, Object key, boolean wide) {
    hooks().convert(keyed, key, wide);
  }
}
