package io.dataflow.bench;

import io.dataflow.core.Clock;
import io.dataflow.core.SystemClock;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.util.concurrent.atomic.LongAdder;

/**
 * Debug counters of {@link HandoffBench} (issue 21's two modes), on only with
 * {@code -Dhandoff.counters=true}: the system clock, counting the owner's parks and the time it
 * spent parked, and per iteration the thread CPU of the owner and the producers per tick. The
 * counting happens on the clock's waits only, never per tick.
 *
 * <p>Thread-safety: the clock is used from every thread; {@link #mark} and {@link #line} from
 * JMH's iteration set-up and tear-down.
 */
final class HandoffCounters implements Clock {
  /** Whether the bench uses these counters. */
  static final boolean ENABLED = Boolean.getBoolean("handoff.counters");
  /** The granularity of {@link #spans}: 64 (a line) or 128 (a pair of lines). */
  static final int GRAIN = Integer.getInteger("handoff.grain", 128);

  private final LongAdder parks = new LongAdder();
  private final LongAdder parkedNanos = new LongAdder();
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private long[] before;
  private long parksBefore;
  private long parkedBefore;
  private long ownerCpuBefore;
  private long producerCpuBefore;
  private long wallBefore;

  @Override
  public long nanoTime() {
    return SystemClock.INSTANCE.nanoTime();
  }

  @Override
  public Instant instant() {
    return SystemClock.INSTANCE.instant();
  }

  @Override
  public void backOff() {
    SystemClock.INSTANCE.backOff();
  }

  @Override
  public void parkUntil(long deadlineNanos) {
    long t0 = SystemClock.INSTANCE.nanoTime();
    SystemClock.INSTANCE.parkUntil(deadlineNanos);
    parks.increment();
    parkedNanos.add(SystemClock.INSTANCE.nanoTime() - t0);
  }

  private long ownerCpu() {
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals("handoff-owner")) {
        return threads.getThreadCpuTime(t.getId());
      }
    }
    return -1;
  }

  private long producerCpu(long[] totals) {
    long sum = 0;
    for (int i = 5; i < totals.length; i++) {
      sum += threads.getThreadCpuTime(totals[i]);
    }
    return sum;
  }

  /** Takes the baseline of an iteration ({@code totals}: offered, back-offs, thread ids). */
  void mark(long[] totals) {
    before = totals;
    parksBefore = parks.sum();
    parkedBefore = parkedNanos.sum();
    ownerCpuBefore = ownerCpu();
    producerCpuBefore = producerCpu(totals);
    wallBefore = SystemClock.INSTANCE.nanoTime();
  }

  /** The iteration's counters per tick. */
  String line(long[] totals) {
    double ticks = Math.max(1, totals[0] - before[0]);
    double wall = SystemClock.INSTANCE.nanoTime() - wallBefore;
    return String.format(
        "%n[handoff-counters] ticks=%d rate=%.1fM/s backoffs/Mtick=%.0f ownerParks/Mtick=%.0f"
            + " ownerParked=%.0f%% ownerCpu=%.1fns/tick producerCpu=%.1fns/tick"
            + " depth<=64:%.0f%% depth>=cap-64:%.0f%%",
        (long) ticks, ticks / wall * 1e3, (totals[1] - before[1]) / ticks * 1e6,
        (parks.sum() - parksBefore) / ticks * 1e6,
        (parkedNanos.sum() - parkedBefore) / wall * 100,
        (ownerCpu() - ownerCpuBefore) / ticks, (producerCpu(totals) - producerCpuBefore) / ticks,
        pct(totals[3] - before[3], totals[2] - before[2]),
        pct(totals[4] - before[4], totals[2] - before[2]));
  }

  /**
   * Which 64-byte line each named field of {@code o} is on, relative to the object's first line
   * (its address read through Unsafe: compressed oops, shift 3, zero base; debug only), e.g.
   * {@code @40 rows:0 sum:0 runtime:1}: the object starts 40 bytes into a line.
   */
  static String lines(Object o, String... fields) {
    try {
      java.lang.reflect.Field f = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
      f.setAccessible(true);
      sun.misc.Unsafe u = (sun.misc.Unsafe) f.get(null);
      Object[] holder = {o};
      long addr = (u.getInt(holder, (long) u.arrayBaseOffset(Object[].class)) & 0xffffffffL) << 3;
      StringBuilder sb = new StringBuilder(o.getClass().getSimpleName()).append('@')
          .append(addr & 63);
      for (String name : fields) {
        long off = -1;
        for (Class<?> c = o.getClass(); c != null && off < 0; c = c.getSuperclass()) {
          try {
            off = u.objectFieldOffset(c.getDeclaredField(name));
          } catch (NoSuchFieldException e) {
            // look in the superclass
          }
        }
        sb.append(' ').append(name).append(':').append((addr + off) / 64 - addr / 64);
      }
      return sb.toString();
    } catch (ReflectiveOperationException | RuntimeException e) {
      return "layout unknown: " + e;
    }
  }

  private static sun.misc.Unsafe unsafe() throws ReflectiveOperationException {
    java.lang.reflect.Field f = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
    f.setAccessible(true);
    return (sun.misc.Unsafe) f.get(null);
  }

  /** A field of {@code o} by name, from its class or a superclass (debug only). */
  static Object field(Object o, String name) {
    try {
      for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
        try {
          java.lang.reflect.Field f = c.getDeclaredField(name);
          sun.misc.Unsafe u = unsafe();
          return u.getObject(o, u.objectFieldOffset(f));
        } catch (NoSuchFieldException e) {
          // the superclass
        }
      }
    } catch (ReflectiveOperationException e) {
      return null;
    }
    return null;
  }

  /**
   * The cache lines (address / 64) each object spans, and the lines shared between an object
   * the producer reads ({@code P:} labels) and one the owner writes ({@code O:} labels).
   */
  static String spans(java.util.Map<String, Object> objects) {
    try {
      sun.misc.Unsafe u = unsafe();
      java.util.Map<String, long[]> spans = new java.util.LinkedHashMap<>();
      for (var e : objects.entrySet()) {
        Object o = e.getValue();
        if (o == null) {
          continue;
        }
        Object[] holder = {o};
        long addr = (u.getInt(holder, (long) u.arrayBaseOffset(Object[].class)) & 0xffffffffL) << 3;
        long size;
        if (o.getClass().isArray()) {
          size = u.arrayBaseOffset(o.getClass())
              + (long) java.lang.reflect.Array.getLength(o) * u.arrayIndexScale(o.getClass());
        } else {
          size = 12;
          for (Class<?> c = o.getClass(); c != null; c = c.getSuperclass()) {
            for (java.lang.reflect.Field f : c.getDeclaredFields()) {
              if (!java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                size = Math.max(size, u.objectFieldOffset(f) + 8);
              }
            }
          }
        }
        spans.put(e.getKey(), new long[] {addr / GRAIN, (addr + size - 1) / GRAIN});
      }
      StringBuilder sb = new StringBuilder();
      for (var a : spans.entrySet()) {
        for (var b : spans.entrySet()) {
          if (a.getKey().startsWith("P:") && b.getKey().startsWith("O:")
              && !a.getKey().substring(2).equals(b.getKey().substring(2))
              && a.getValue()[0] <= b.getValue()[1] && b.getValue()[0] <= a.getValue()[1]) {
            sb.append(" SHARED(").append(a.getKey()).append(',').append(b.getKey()).append(')');
          }
        }
      }
      return sb.length() == 0 ? " no shared lines" : sb.toString();
    } catch (ReflectiveOperationException | RuntimeException e) {
      return "spans unknown: " + e;
    }
  }

  private static double pct(long part, long all) {
    return all == 0 ? -1 : 100.0 * part / all;
  }
}
