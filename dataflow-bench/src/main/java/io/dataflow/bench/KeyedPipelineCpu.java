package io.dataflow.bench;

import java.lang.management.ManagementFactory;

/**
 * {@link KeyedPipelineBench}'s runs outside JMH, reporting per record both the wall time and
 * the CPU time of the whole process (every thread, GC included): on a machine shared with
 * other work the CPU time per record is the steadier measure of what a record costs, the wall
 * time what the machine gave. Usage: {@code KeyedPipelineCpu counter|groupsum [runs]} (the
 * checkpoint period is 60 s, as in {@code KeyedPipelineBench}'s {@code PT60S}; each line also
 * gives the CPU time of the driver threads and of the controller thread per record);
 * {@code steppedcounter|steppedgroupsum [runs]} the same pipeline stepped on one thread (the
 * pipeline's own work per record, no hand-offs);
 * {@code monitor [runs] [keys] [spec]} runs {@link KeyedMonitorBench}'s loop over {@code keys}
 * keys (default 1000) of specification {@code spec} (default {@code groupsum}, see
 * {@link KeyedMonitorBench#SPECS}) on one thread and reports its thread's CPU time; {@code floor},
 * {@code floorlong}, {@code floorlongfib} and {@code floorlongahead} {@code [runs] [keys]} the key lookup and vector
 * touch alone (below).
 */
public final class KeyedPipelineCpu {
  private KeyedPipelineCpu() {}

  /** Runs the pipeline {@code runs} times (default 8), prints one line per run. */
  public static void main(String[] args) throws Exception {
    String which = args.length > 0 ? args[0] : "groupsum";
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 8;
    if (which.equals("monitor")) {
      monitor(runs, args.length > 2 ? Integer.parseInt(args[2]) : 1000,
          args.length > 3 ? args[3] : "groupsum");
      return;
    }
    if (which.startsWith("floor")) {
      floor(runs, args.length > 2 ? Integer.parseInt(args[2]) : 1000, which);
      return;
    }
    if (which.startsWith("stepped")) {
      stepped(which.substring("stepped".length()), runs);
      return;
    }
    KeyedPipelineBench bench = new KeyedPipelineBench();
    bench.commitEvery = "PT60S";
    bench.setUp();
    KeyedPipelineBench.Input input;
    if (which.equals("counter")) {
      KeyedPipelineBench.CounterInput c = new KeyedPipelineBench.CounterInput();
      c.setUp();
      input = c;
    } else {
      KeyedPipelineBench.GroupsumInput g = new KeyedPipelineBench.GroupsumInput();
      g.setUp();
      input = g;
    }
    com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean)
        ManagementFactory.getOperatingSystemMXBean();
    for (int r = 0; r < runs; r++) {
      PipelineThreads threads = new PipelineThreads();
      threads.start();
      long cpu0 = os.getProcessCpuTime();
      long t0 = System.nanoTime();
      if (which.equals("counter")) {
        bench.counter((KeyedPipelineBench.CounterInput) input);
      } else {
        bench.groupsum((KeyedPipelineBench.GroupsumInput) input);
      }
      long wall = System.nanoTime() - t0;
      long cpu = os.getProcessCpuTime() - cpu0;
      threads.finish();
      double n = KeyedPipelineBench.RECORDS;
      System.out.printf("%s run %d: %.0f ns/record wall (%.2f M records/s), %.0f ns/record"
          + " CPU (all threads; drivers %.0f, controller %.0f), load %.2f%n", which, r,
          wall / n, n / wall * 1e3, cpu / n, threads.cpu("-driver-") / n,
          threads.cpu("-controller") / n, os.getSystemLoadAverage());
    }
  }

  /**
   * {@code steppedgroupsum|steppedcounter [runs]}: the same pipeline, but its controller and
   * drivers stepped in turn on this one thread by the testkit's {@code PipelineHarness} (a
   * manual clock, no thread hand-offs, parks or wake-ups): the CPU time of the pipeline's own
   * work per record, the steadiest measure of the per-record path on a shared machine.
   */
  private static void stepped(String which, int runs) {
    KeyedPipelineBench.Input input = which.equals("counter")
        ? new KeyedPipelineBench.CounterInput() : new KeyedPipelineBench.GroupsumInput();
    if (input instanceof KeyedPipelineBench.CounterInput c) {
      c.setUp();
    } else {
      ((KeyedPipelineBench.GroupsumInput) input).setUp();
    }
    java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (int r = 0; r < runs; r++) {
      input.sink.reset();
      input.source.resume(java.util.Set.of(0, 1, 2, 3, 4, 5, 6, 7));
      io.dataflow.testkit.PipelineHarness h = io.dataflow.testkit.PipelineHarness.of(
          io.dataflow.pipeline.DataflowPipeline.builder()
              .specification(input.name(), input.text())
              .source(input.source)
              .sink(input.sink)
              .checkpointer(new io.dataflow.pipeline.io.InMemoryCheckpointer())
              .options(o -> o.withName("stepped").withDrivers(KeyedPipelineBench.DRIVERS)
                  .withCommitEvery(java.time.Duration.ofSeconds(60))));
      long cpu0 = threads.getCurrentThreadCpuTime();
      io.dataflow.pipeline.PipelineExitReport report = h.runToEnd(42);
      long cpu = threads.getCurrentThreadCpuTime() - cpu0;
      if (!report.ok() || input.sink.outputs.sum() != KeyedPipelineBench.RECORDS
          || input.sink.sum.sum() != input.expectedSum) {
        throw new IllegalStateException("stepped run failed: " + report);
      }
      System.out.printf("stepped %s run %d: %.1f ns/record CPU (one thread), load %.2f%n",
          which, r, cpu / (double) KeyedPipelineBench.RECORDS,
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }

  /**
   * The CPU time of the pipeline's threads (by name), sampled every millisecond while they
   * live (a thread's time after its last sample, under a millisecond, is not counted).
   */
  private static final class PipelineThreads extends Thread {
    private final java.util.Map<Long, Long> cpuById = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.Map<Long, String> nameById =
        new java.util.concurrent.ConcurrentHashMap<>();
    private volatile boolean running = true;

    PipelineThreads() {
      super("cpu-sampler");
      setDaemon(true);
    }

    @Override
    public void run() {
      java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
      while (running) {
        sample(mx);
        io.dataflow.core.Clock clock = io.dataflow.core.SystemClock.INSTANCE;
        clock.parkUntil(clock.nanoTime() + 1_000_000);
      }
    }

    private void sample(java.lang.management.ThreadMXBean mx) {
      // Thread.enumerate, not getAllStackTraces: no safepoint per sample.
      Thread[] all = new Thread[Thread.activeCount() + 16];
      int n = Thread.enumerate(all);
      for (int i = 0; i < n; i++) {
        Thread t = all[i];
        if (t.getName().startsWith("bench-")) {
          long c = mx.getThreadCpuTime(t.getId());
          if (c > 0) {
            cpuById.put(t.getId(), c);
            nameById.put(t.getId(), t.getName());
          }
        }
      }
    }

    void finish() throws InterruptedException {
      running = false;
      join();
    }

    long cpu(String part) {
      long sum = 0;
      for (java.util.Map.Entry<Long, Long> e : cpuById.entrySet()) {
        if (nameById.get(e.getKey()).contains(part)) {
          sum += e.getValue();
        }
      }
      return sum;
    }
  }

  /**
   * The floor under {@code monitor}: the same keys in the same order, each looked up in a
   * {@code LinkedHashMap} (as the keyed monitor keeps them) and its state vector of the
   * {@code groupsum} length (16 longs) touched and summed, the input and output rows as in the
   * benchmark; none of the language's semantics.
   */
  private static void floor(int runs, int keys, String which) {
    if (!which.equals("floor")) {
      floorLong(runs, keys, which);
      return;
    }
    KeyedMonitorBench b = new KeyedMonitorBench();
    b.keys = keys;
    b.setup();
    java.util.Map<Object, Object> state = new java.util.LinkedHashMap<>();
    io.dataflow.core.Row in = new io.dataflow.core.Row(1);
    io.dataflow.core.Row out = new io.dataflow.core.Row(1);
    Long[] order = b.order();
    java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    int n = 20_000_000;
    long sink = 0;
    long clock = 0;
    for (int r = 0; r < runs; r++) {
      long cpu0 = threads.getCurrentThreadCpuTime();
      for (int e = 0; e < n; e++) {
        int i = e & (order.length - 1);
        in.setInt(0, i & 7);
        Object s = state.get(order[i]);
        if (s == null) {
          s = new long[16];
          state.put(order[i], s);
        }
        long[] v = (long[]) s;
        v[0] = clock++;
        v[1]++;
        v[2] += in.bits(0);
        out.setRaw(0, io.dataflow.core.Kind.INT, v[2], null);
        sink += out.bits(0);
      }
      long cpu = threads.getCurrentThreadCpuTime() - cpu0;
      System.out.printf("floor (%d keys) run %d: %.1f ns/event CPU, load %.2f%n", keys, r,
          cpu / (double) n, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
    if (sink == 42) {
      System.out.println();
    }
  }

  /** {@link KeyedMonitorBench}'s loop: thread CPU time per event, 20 M events per run. */
  private static void monitor(int runs, int keys, String spec) {
    KeyedMonitorBench b = new KeyedMonitorBench();
    b.keys = keys;
    b.spec = spec;
    b.setup();
    java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    int n = 20_000_000;
    long sink = 0;
    com.sun.management.ThreadMXBean allocation = (com.sun.management.ThreadMXBean) threads;
    long self = Thread.currentThread().getId();
    for (int r = 0; r < runs; r++) {
      long cpu0 = threads.getCurrentThreadCpuTime();
      long bytes0 = allocation.getThreadAllocatedBytes(self);
      long t0 = System.nanoTime();
      for (int i = 0; i < n; i++) {
        sink += b.groupsum();
      }
      long wall = System.nanoTime() - t0;
      long cpu = threads.getCurrentThreadCpuTime() - cpu0;
      long bytes = allocation.getThreadAllocatedBytes(self) - bytes0;
      System.out.printf("monitor %s (%d keys) run %d: %.1f ns/event wall, %.1f ns/event"
          + " CPU, %.1f B/event allocated, load %.2f%n", spec, keys, r, wall / (double) n,
          cpu / (double) n, bytes / (double) n,
          ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
    if (sink == 42) {
      System.out.println();
    }
  }

  /**
   * {@code floor} with the keyed monitor's table for {@code Long} keys ({@code KeyTable}'s
   * layout: the key's value in a {@code long[]}, its state at the same index of an
   * {@code Object[]}, linear probing at most half full): {@code floorlong} with
   * {@code HashMap}'s spread (as {@code KeyTable}), {@code floorlongfib} with a Fibonacci spread,
   * {@code floorlongahead} also reading the state of the key 8 events ahead (misses overlap).
   */
  private static void floorLong(int runs, int keys, String which) {
    KeyedMonitorBench b = new KeyedMonitorBench();
    b.keys = keys;
    b.setup();
    boolean fib = which.contains("fib");
    boolean ahead = which.contains("ahead");
    int cap = Integer.highestOneBit(keys) << 2;
    int mask = cap - 1;
    int shift = 64 - Integer.numberOfTrailingZeros(cap);
    long[] tk = new long[cap];
    Object[] tv = new Object[cap];
    io.dataflow.core.Row in = new io.dataflow.core.Row(1);
    io.dataflow.core.Row out = new io.dataflow.core.Row(1);
    Long[] order = b.order();
    java.lang.management.ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    int n = 20_000_000;
    long sink = 0;
    long clock = 0;
    for (int r = 0; r < runs; r++) {
      long cpu0 = threads.getCurrentThreadCpuTime();
      for (int e = 0; e < n; e++) {
        int i = e & (order.length - 1);
        in.setInt(0, i & 7);
        if (ahead) {
          // Touch the state of the key 8 events ahead, so its misses overlap this event's.
          long ka = order[(e + 8) & (order.length - 1)];
          int sa = (int) (ka ^ (ka >>> 32)) & mask;
          Object va = tv[sa];
          while (va != null && tk[sa] != ka) {
            sa = (sa + 1) & mask;
            va = tv[sa];
          }
          if (va != null) {
            sink += ((long[]) va)[0] & 1;
          }
        }
        long k = order[i];
        int slot = fib ? (int) ((k * 0x9E3779B97F4A7C15L) >>> shift)
            : (int) (k ^ (k >>> 32)) & mask;
        Object s;
        while (true) {
          s = tv[slot];
          if (s == null || tk[slot] == k) {
            break;
          }
          slot = (slot + 1) & mask;
        }
        if (s == null) {
          s = new long[16];
          tk[slot] = k;
          tv[slot] = s;
        }
        long[] v = (long[]) s;
        v[0] = clock++;
        v[1]++;
        v[2] += in.bits(0);
        out.setRaw(0, io.dataflow.core.Kind.INT, v[2], null);
        sink += out.bits(0);
      }
      long cpu = threads.getCurrentThreadCpuTime() - cpu0;
      System.out.printf("%s (%d keys) run %d: %.1f ns/event CPU, load %.2f%n", which, keys, r,
          cpu / (double) n, ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
    if (sink == 42) {
      System.out.println();
    }
  }
}
