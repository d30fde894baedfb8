package io.dataflow.testkit;

import io.dataflow.core.DataflowRuntime;
import io.dataflow.core.ExecutionPolicy;
import io.dataflow.core.ExitReport;
import io.dataflow.core.InputWindow;
import io.dataflow.core.MonitorException;
import io.dataflow.core.RuntimeState;
import io.dataflow.core.Tick;
import io.dataflow.core.Value;
import io.dataflow.io.InMemorySource;
import io.dataflow.io.Sinks;
import io.dataflow.io.TraceFileSource;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.MonitorInput;
import io.dataflow.monitor.MonitorOutput;
import io.dataflow.monitor.TypingMode;
import io.dataflow.reconfig.AckQueue;
import io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder;
import java.io.StringReader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs one generated spec over one trace through each library path and reduces the outcome to
 * comparable text: the output lines ({@code z[0] = Int(3)}) and, when a runtime error ended
 * the run, the error's tick, stream and reason.
 */
final class Runs {
  static final String SPEC = "gen.dsrv";

  private Runs() {}

  /**
   * The outcome of a run.
   *
   * @param lines the output in the text format
   * @param failure null when every tick was evaluated, else {@code tick=T stream=S: reason}
   */
  record Run(List<String> lines, String failure) {
    Run {
      lines = List.copyOf(lines);
    }

    @Override
    public String toString() {
      return String.join("\n", lines) + (failure == null ? "" : "\n(failed: " + failure + ")");
    }
  }

  /**
   * The comparable text of a runtime error. The monitor wraps an unexpected exception as a
   * MonitorException "internal error: ...": that is a bug, never an expected outcome.
   */
  static String describe(MonitorException e) {
    if (e.reason() != null && e.reason().startsWith("internal error")) {
      throw new AssertionError("an internal error escaped a tick: " + e.getMessage(), e);
    }
    return "tick=" + e.tick() + " stream=" + e.stream() + ": " + e.reason();
  }

  /** The bare monitor on generated code from the first tick. */
  static Run monitor(String spec, TypingMode mode, List<Map<String, Value>> trace) {
    return monitor(spec, mode, trace, DataflowMonitor.Options.DEFAULT.withFused(true));
  }

  /** The bare monitor with the interpreter only (no generated code). */
  static Run interpreted(String spec, TypingMode mode, List<Map<String, Value>> trace) {
    return monitor(spec, mode, trace, DataflowMonitor.Options.DEFAULT.withFused(false));
  }

  static Run monitor(String spec, TypingMode mode, List<Map<String, Value>> trace,
      DataflowMonitor.Options options) {
    DataflowMonitor monitor = DataflowMonitor.create(DataflowProgram.compile(SPEC, spec, mode),
        options);
    List<String> lines = new ArrayList<>();
    for (int t = 0; t < trace.size(); t++) {
      Map<String, Value> out;
      try {
        out = monitor.evaluate(trace.get(t));
      } catch (MonitorException e) {
        assertPoisoned(monitor, e);
        return new Run(lines, describe(e));
      }
      for (Map.Entry<String, Value> e : out.entrySet()) {
        lines.add(e.getKey() + "[" + t + "] = " + e.getValue());
      }
    }
    return new Run(lines, null);
  }

  /**
   * The bare monitor through its typed handles: each tick sets the trace row's inputs with
   * {@code MonitorInput.set}, runs {@code step()} and reads every output handle. A value its
   * input's declared type refuses ends the run as the row path's failure would (same tick,
   * stream and reason), although here it leaves the monitor healthy.
   */
  static Run handles(String spec, TypingMode mode, List<Map<String, Value>> trace,
      DataflowMonitor.Options options) {
    DataflowMonitor monitor = DataflowMonitor.create(DataflowProgram.compile(SPEC, spec, mode),
        options);
    List<MonitorInput> inputs = new ArrayList<>();
    for (String name : monitor.inputs().names()) {
      inputs.add(monitor.input(name));
    }
    List<MonitorOutput> outputs = new ArrayList<>();
    for (String name : monitor.outputs().names()) {
      outputs.add(monitor.output(name));
    }
    List<String> lines = new ArrayList<>();
    for (int t = 0; t < trace.size(); t++) {
      for (MonitorInput in : inputs) {
        Value v = trace.get(t).get(in.name());
        if (v != null) {
          try {
            in.set(v);
          } catch (IllegalArgumentException refused) {
            String prefix = "tick " + monitor.nextTick() + ": ";
            if (!refused.getMessage().startsWith(prefix)) {
              throw new AssertionError("a refused value names its tick: " + refused);
            }
            return new Run(lines, "tick=" + monitor.nextTick() + " stream=" + in.name() + ": "
                + refused.getMessage().substring(prefix.length()));
          }
        }
      }
      try {
        monitor.step();
      } catch (MonitorException e) {
        return new Run(lines, describe(e));
      }
      for (MonitorOutput out : outputs) {
        if (out.kind() != io.dataflow.core.Kind.NOVAL) {
          lines.add(out.name() + "[" + t + "] = " + out.get());
        }
      }
    }
    return new Run(lines, null);
  }

  /**
   * The bare monitor through batches in columns ({@code evaluate(TickColumns, TickColumns)}) of
   * sizes 1 to {@code maxBatch} drawn from {@code seed}; a failing tick ends the run after the
   * ticks of its batch before it.
   */
  static Run columns(String spec, TypingMode mode, List<Map<String, Value>> trace,
      DataflowMonitor.Options options, long seed, int maxBatch) {
    DataflowMonitor monitor = DataflowMonitor.create(DataflowProgram.compile(SPEC, spec, mode),
        options);
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(seed);
    io.dataflow.core.TickColumns in = monitor.inputs().newColumns(maxBatch);
    io.dataflow.core.TickColumns out = monitor.outputs().newColumns(maxBatch);
    List<String> lines = new ArrayList<>();
    int t = 0;
    while (t < trace.size()) {
      int n = Math.min(1 + rnd.nextInt(maxBatch), trace.size() - t);
      in.clear();
      for (int k = 0; k < n; k++) {
        for (Map.Entry<String, Value> e : trace.get(t + k).entrySet()) {
          in.set(monitor.inputs().slotOf(e.getKey()), k, e.getValue());
        }
      }
      in.setSize(n);
      MonitorException failed = null;
      try {
        monitor.evaluate(in, out);
      } catch (MonitorException e) {
        failed = e;
      }
      for (int k = 0; k < out.size(); k++) {
        for (int s = 0; s < out.width(); s++) {
          if (out.kind(s, k) != io.dataflow.core.Kind.NOVAL) {
            lines.add(monitor.outputs().name(s) + "[" + (t + k) + "] = " + out.get(s, k));
          }
        }
      }
      if (failed != null) {
        return new Run(lines, describe(failed));
      }
      t += n;
    }
    return new Run(lines, null);
  }

  /**
   * After a runtime error every later call fails with the same cause
   * (docs/language.md#runtime-errors).
   */
  private static void assertPoisoned(DataflowMonitor monitor, MonitorException first) {
    long next = monitor.nextTick();
    try {
      monitor.evaluate(Map.of());
    } catch (MonitorException again) {
      if (!describe(again).equals(describe(first)) || monitor.nextTick() != next) {
        throw new AssertionError("a poisoned monitor failed differently: " + describe(again)
            + " after " + describe(first));
      }
      return;
    }
    throw new AssertionError("the monitor evaluated a tick after failing with "
        + describe(first));
  }

  /** The runtime stepped in the test's thread by the harness, one submitted tick at a time. */
  static Run stepped(String spec, TypingMode mode, List<Map<String, Value>> trace) {
    try (DataflowHarness h = DataflowHarness.forSpec(SPEC, spec)
        .options(o -> o.withTypingMode(mode)).build()) {
      for (Map<String, Value> row : trace) {
        if (h.status().state() != RuntimeState.RUNNING) {
          break;
        }
        h.tick(row);
      }
      ExitReport r = h.runtime().isTerminated() ? h.awaitTermination() : h.finish();
      return new Run(h.trace().lines(), failure(r));
    }
  }

  /** The runtime in the caller's thread reading the rendered trace file. */
  static Run traceFile(String spec, TypingMode mode, String traceText) {
    Sinks.Collecting out = Sinks.collecting();
    DataflowRuntime runtime = builder(spec, mode, out)
        .source(TraceFileSource.of("trace", new StringReader(traceText), "gen.input"))
        .build();
    ExitReport r = runtime.runInCallerThread();
    return new Run(out.lines(), failure(r));
  }

  /** The runtime on its own thread reading the rows from memory, one tick per batch. */
  static Run threaded(String spec, TypingMode mode, List<Map<String, Value>> trace)
      throws Exception {
    return threaded(spec, mode, trace, 1, ExecutionPolicy.SYNCHRONOUS, InputWindow.none());
  }

  /**
   * The runtime on its own thread reading the rows from memory in batches of up to
   * {@code batchSize} ticks, with the given flush policy and input window.
   */
  static Run threaded(String spec, TypingMode mode, List<Map<String, Value>> trace,
      int batchSize, ExecutionPolicy policy, InputWindow window) throws Exception {
    List<Tick> ticks = new ArrayList<>();
    for (Map<String, Value> row : trace) {
      ticks.add(Tick.of(row));
    }
    Sinks.Collecting out = Sinks.collecting();
    DataflowRuntime runtime = builder(spec, mode, out)
        .options(o -> o.withPolicy(policy))
        .options(o -> o.withWindow(window))
        .source(InMemorySource.ofTicks("ticks", ticks, batchSize))
        .build();
    runtime.start();
    ExitReport r = runtime.awaitTermination(Duration.ofSeconds(30));
    return new Run(out.lines(), failure(r));
  }

  static ReconfigurableDataflowRuntimeBuilder builder(String spec, TypingMode mode,
      Sinks.Collecting out) {
    return ReconfigurableDataflowRuntimeBuilder.create()
        .specification(SPEC, spec)
        .options(o -> o.withTypingMode(mode))
        .destination("collected", out)
        .acknowledgements(new AckQueue(64))
        .warnings(w -> { });
  }

  /** Null for a completed run, the monitor error for a run it ended; anything else fails. */
  static String failure(ExitReport r) {
    if (r.isCompleted()) {
      return null;
    }
    if ("monitor".equals(r.component()) && r.cause() instanceof MonitorException m) {
      return describe(m);
    }
    throw new AssertionError("run " + r.outcome() + " in " + r.component() + ": " + r.reason(),
        r.cause());
  }
}
