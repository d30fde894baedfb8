package io.dataflow.bench;

import io.dataflow.core.internal.OwnerLoop;
import io.dataflow.core.Row;
import io.dataflow.core.TickShape;
import io.dataflow.core.Value;
import io.dataflow.io.Sinks;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.TransferMapping;
import io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder;
import io.dataflow.reconfig.ReconfigurationAck;
import io.dataflow.reconfig.ReconfigurationRequest;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The latency of one root reconfiguration with {@code Transfer}, for specifications of
 * {@code streams} computed streams ({@link #spec}). Each op replaces the active specification by
 * the other of two that differ in one equation, so every op is a Transfer in which all streams
 * but one keep their state and every history moves (no per-invocation setup is needed).
 *
 * <ul>
 *   <li>{@link #monitor}: plan and apply on the monitor API with precompiled programs:
 *       {@code TransferMapping.plan} + {@code DataflowMonitor.transfer}.
 *   <li>{@link #compileAndMonitor}: the same, compiling the replacement text first.
 *   <li>{@link #stepped}: the whole control path of a stepped runtime: submit a
 *       {@code ReconfigurationRequest}, one duty cycle decodes, compiles and plans it, applies it
 *       in order and delivers the acknowledgement.
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CutoverBench {
  /**
   * {@code n} output streams over {@code in x: Int}: even ones are counters
   * ({@code s = default(s[1], 0) + x}, a history ring each), odd ones read their predecessor
   * ({@code s(k) = s(k-1) * 2 - x}). {@code variant} 1 changes the last equation.
   */
  static String spec(int n, int variant) {
    StringBuilder sb = new StringBuilder("in x: Int\n");
    for (int k = 0; k < n; k++) {
      sb.append("out s").append(k).append(": Int\n");
    }
    for (int k = 0; k < n; k++) {
      String eq = k % 2 == 0 ? "default(s" + k + "[1], 0) + x" : "s" + (k - 1) + " * 2 - x";
      if (k == n - 1 && variant == 1) {
        eq = eq + " + 1";
      }
      sb.append('s').append(k).append(" = ").append(eq).append('\n');
    }
    return sb.toString();
  }

  /** Two programs and their texts; {@code toggle} says which one to install next. */
  @State(Scope.Thread)
  public static class Specs {
    /** Computed streams per specification. */
    @Param({"10", "100"})
    public int streams;

    final String[] texts = new String[2];
    final DataflowProgram[] programs = new DataflowProgram[2];
    int toggle = 1;

    /** Compiles both variants. */
    @Setup(Level.Trial)
    public void compile() {
      for (int v = 0; v < 2; v++) {
        texts[v] = spec(streams, v);
        programs[v] = DataflowProgram.compile("cutover" + v + ".dsrv", texts[v]);
      }
    }

    /** The variant to install next; flips every call. */
    int next() {
      int v = toggle;
      toggle ^= 1;
      return v;
    }
  }

  /** A monitor of variant 0 that has run a few ticks, so there is state to move. */
  @State(Scope.Thread)
  public static class Active {
    DataflowMonitor monitor;

    /** Creates the monitor and evaluates 16 ticks. */
    @Setup(Level.Trial)
    public void setUp(Specs specs) {
      monitor = DataflowMonitor.create(specs.programs[0]);
      Row in = monitor.inputs().newRow();
      Row out = monitor.outputs().newRow();
      for (int i = 0; i < 16; i++) {
        in.setInt(0, Inputs.X[i]);
        monitor.evaluate(in, out);
      }
    }

    /** The monitor still evaluates after all those transfers. */
    @TearDown(Level.Trial)
    public void check() {
      Row in = monitor.inputs().newRow();
      in.setInt(0, 1);
      monitor.evaluate(in, monitor.outputs().newRow());
    }
  }

  /** A stepped reconfigurable runtime of variant 0 that has evaluated a few ticks. */
  @State(Scope.Thread)
  public static class Stepped {
    OwnerLoop runtime; // stepped here
    long acks; // the benchmark thread, which also steps the runtime

    /** Builds and starts the runtime and evaluates 16 ticks. */
    @Setup(Level.Trial)
    public void setUp(Specs specs) {
      runtime = (OwnerLoop) ReconfigurableDataflowRuntimeBuilder.create()
          .specification("cutover0.dsrv", specs.texts[0])
          .destination("out", Sinks.nullSink())
          .acknowledgements(this::onAck)
          .build();
      runtime.doWork();
      TickShape shape = TickShape.of("x");
      for (int i = 0; i < 16; i++) {
        runtime.offer(shape.tick(Value.of(Inputs.X[i])));
      }
      runtime.doWork();
    }

    private void onAck(ReconfigurationAck ack) {
      if (!ack.accepted()) {
        throw new IllegalStateException("rejected: " + ack);
      }
      acks++;
    }

    /** Stops the runtime; fails the run if a request failed. */
    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
      if (runtime.status().lastError() != null) {
        throw new IllegalStateException("the runtime failed: " + runtime.status().lastError());
      }
      runtime.stop(Duration.ofSeconds(5));
      for (int k = 0; k < 1000 && !runtime.isTerminated(); k++) {
        if (runtime.doWork() == 0) {
          runtime.awaitOutputClosed(Duration.ofMillis(10));
        }
      }
    }
  }

  /** Plan and apply a Transfer to the other (precompiled) program. */
  @Benchmark
  public DataflowMonitor monitor(Specs specs, Active active) {
    DataflowProgram target = specs.programs[specs.next()];
    TransferMapping mapping = TransferMapping.plan(active.monitor.program(), target);
    active.monitor = DataflowMonitor.transfer(active.monitor, target, mapping,
        DataflowMonitor.Options.DEFAULT).monitor();
    return active.monitor;
  }

  /** Compile the other text, then plan and apply the Transfer. */
  @Benchmark
  public DataflowMonitor compileAndMonitor(Specs specs, Active active) {
    int v = specs.next();
    DataflowProgram target = DataflowProgram.compile("cutover" + v + ".dsrv", specs.texts[v]);
    TransferMapping mapping = TransferMapping.plan(active.monitor.program(), target);
    active.monitor = DataflowMonitor.transfer(active.monitor, target, mapping,
        DataflowMonitor.Options.DEFAULT).monitor();
    return active.monitor;
  }

  /** Submit a request for the other text and step the runtime until it is acknowledged. */
  @Benchmark
  public long stepped(Specs specs, Stepped r) {
    long before = r.acks;
    r.runtime.submitControl(ReconfigurationRequest.of(specs.texts[specs.next()]),
        Duration.ofSeconds(1));
    while (r.acks == before) {
      if (r.runtime.isTerminated()) {
        throw new IllegalStateException("the runtime ended: " + r.runtime.exitReport());
      }
      r.runtime.doWork();
    }
    return r.acks;
  }
}
