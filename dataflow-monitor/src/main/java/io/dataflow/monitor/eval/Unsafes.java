package io.dataflow.monitor.eval;

import java.lang.reflect.Field;

/**
 * The one place this package obtains {@code sun.misc.Unsafe} (module {@code jdk.unsupported}),
 * for the keyed kernel's byte access to a key's vector ({@link KeyedKernel.Steps}) and the
 * snapshot walk's field access by offset ({@link FieldAccess}). {@link #UNSAFE} is null where the
 * JVM does not offer it; each user then takes its portable path (shifts, reflection).
 */
final class Unsafes {
  /** {@code sun.misc.Unsafe}, or null where the JVM refuses it. */
  static final sun.misc.Unsafe UNSAFE = find();

  private Unsafes() {}

  private static sun.misc.Unsafe find() {
    try {
      Field f = sun.misc.Unsafe.class.getDeclaredField("theUnsafe");
      f.setAccessible(true);
      return (sun.misc.Unsafe) f.get(null);
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null; // the callers' portable paths then
    }
  }
}
