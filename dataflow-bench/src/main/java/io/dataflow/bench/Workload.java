package io.dataflow.bench;

import static io.dataflow.bench.Inputs.F;
import static io.dataflow.bench.Inputs.SMALL;
import static io.dataflow.bench.Inputs.TEXT;
import static io.dataflow.bench.Inputs.X;
import static io.dataflow.bench.Inputs.Y;

import io.dataflow.core.Row;
import io.dataflow.core.Tick;
import io.dataflow.core.TickColumns;
import io.dataflow.core.TickShape;
import io.dataflow.core.Value;
import io.dataflow.monitor.MonitorInput;
import java.util.List;

/**
 * One workload of issue 7: a specification, how tick {@code i} fills the input row (the monitor
 * path) or becomes a {@link Tick} (the runtime paths), and the {@link Baseline} computing the
 * same output by hand. Every workload has exactly one output, the first slot of the output row.
 *
 * <p>Thread-safety: immutable; {@link #baseline()} makes a new stateful baseline.
 */
abstract class Workload {
  /** The workload names in table order; {@link #named} knows each. */
  static final List<String> NAMES = List.of("simple_add", "counter", "threshold", "window3",
      "arith", "chain32", "defer", "dynamic");

  /** The name in the table ({@code simple_add}). */
  final String name;
  /** The specification text. */
  final String spec;
  /** The names a steady-state tick assigns: the first inputs of the input row, in order. */
  final TickShape shape;

  Workload(String name, String spec, String... inputs) {
    this.name = name;
    this.spec = spec;
    this.shape = TickShape.of(inputs);
  }

  /** Sets the inputs of tick {@code i} (0..{@link Inputs#MASK}) in a reused input row. */
  abstract void fill(Row in, int i);

  /**
   * Stages the inputs of tick {@code i} in the monitor's typed handles, one per name of
   * {@link #shape} in order (the typed path).
   */
  abstract void stage(MonitorInput[] in, int i);

  /**
   * Sets the inputs of tick {@code i} into tick {@code t} of a batch in columns (the first
   * slots of the input layout, in {@link #shape} order).
   */
  abstract void fill(TickColumns in, int t, int i);

  /**
   * Fills ticks {@code 0..n-1} of a batch with ticks {@code base..base+n-1} (modulo the inputs'
   * size). By default tick by tick; the scalar workloads write the column arrays in bulk, as
   * {@link TickColumns} invites callers that know their inputs to.
   */
  void fillBatch(TickColumns in, int base, int n) {
    for (int t = 0; t < n; t++) {
      fill(in, t, (base + t) & Inputs.MASK);
    }
  }

  /** Writes {@code values[(base + t) & MASK]} as Ints into column {@code slot}, in bulk. */
  static void fillInts(TickColumns in, int slot, long[] values, int base, int n) {
    byte[] kinds = in.kinds(slot);
    long[] payloads = in.payloads(slot);
    for (int t = 0; t < n; t++) {
      kinds[t] = io.dataflow.core.Kind.INT;
      payloads[t] = values[(base + t) & Inputs.MASK];
    }
  }

  /** The inputs of tick {@code i} as boxed values in {@link #shape} order. */
  abstract Value[] values(int i);

  /** A new baseline with fresh state. */
  abstract Baseline baseline();

  /** Tick {@code i} as the runtime receives it: boxed values of the shared {@link #shape}. */
  final Tick tick(int i) {
    return shape.tick(values(i));
  }

  /**
   * Evaluates the ticks that precede the steady state (defer receives its text on tick 0) with
   * the monitor path's row; returns how many ticks it used. Default: none.
   */
  int prime(io.dataflow.monitor.DataflowMonitor monitor, Row in, Row out) {
    return 0;
  }

  /** The priming ticks for the runtime paths (see {@link #prime}). Default: none. */
  List<Tick> primingTicks() {
    return List.of();
  }

  /** The workload with this name. */
  static Workload named(String name) {
    switch (name) {
      case "simple_add":
        return new TwoInts(name, "in x: Int\nin y: Int\nout z: Int\nz = x + y",
            SimpleAdd::new);
      case "counter":
        return new OneInt(name, "in x: Int\nout z: Int\nz = default(z[1], 0) + x", X,
            Counter::new);
      case "threshold":
        return new Threshold();
      case "window3":
        return new OneInt(name, "in x: Int\nout alert: Bool\n"
            + "alert = x > 3 && default(x[1], 4) > 3 && default(x[2], 4) > 3", SMALL,
            Window3::new);
      case "arith":
        return new TwoInts(name, "in x: Int\nin y: Int\nout z: Int\nz = (x + y) * 3 - (x % 7)",
            Arith::new);
      case "chain32":
        return new OneInt(name, chainSpec(32), X, () -> new Chain(32));
      case "defer":
        return new Defer();
      case "dynamic":
        return new Dynamic();
      default:
        throw new IllegalArgumentException("unknown workload '" + name + "', known: " + NAMES);
    }
  }

  /** {@code a0 = x + 1}, {@code a(k) = a(k-1) + x}, {@code z = a(n-1)}; all Int. */
  static String chainSpec(int n) {
    StringBuilder sb = new StringBuilder("in x: Int\n");
    for (int k = 0; k < n; k++) {
      sb.append("aux a").append(k).append(": Int\n");
    }
    sb.append("out z: Int\n");
    sb.append("a0 = x + 1\n");
    for (int k = 1; k < n; k++) {
      sb.append('a').append(k).append(" = a").append(k - 1).append(" + x\n");
    }
    return sb.append("z = a").append(n - 1).append('\n').toString();
  }

  /** Inputs {@code x: Int} from {@code xs}. */
  private static final class OneInt extends Workload {
    private final long[] xs;
    private final java.util.function.Supplier<Baseline> baseline;

    OneInt(String name, String spec, long[] xs, java.util.function.Supplier<Baseline> baseline) {
      super(name, spec, "x");
      this.xs = xs;
      this.baseline = baseline;
    }

    @Override
    void fill(Row in, int i) {
      in.setInt(0, xs[i]);
    }

    @Override
    void stage(MonitorInput[] in, int i) {
      in[0].setInt(xs[i]);
    }

    @Override
    void fill(TickColumns in, int t, int i) {
      in.setInt(0, t, xs[i]);
    }

    @Override
    void fillBatch(TickColumns in, int base, int n) {
      fillInts(in, 0, xs, base, n);
    }

    @Override
    Value[] values(int i) {
      return new Value[] {Value.of(xs[i])};
    }

    @Override
    Baseline baseline() {
      return baseline.get();
    }
  }

  /** Inputs {@code x: Int, y: Int}. */
  private static class TwoInts extends Workload {
    private final java.util.function.Supplier<Baseline> baseline;

    TwoInts(String name, String spec, java.util.function.Supplier<Baseline> baseline,
        String... inputs) {
      super(name, spec, inputs.length == 0 ? new String[] {"x", "y"} : inputs);
      this.baseline = baseline;
    }

    @Override
    void fill(Row in, int i) {
      in.setInt(0, X[i]);
      in.setInt(1, Y[i]);
    }

    @Override
    void stage(MonitorInput[] in, int i) {
      in[0].setInt(X[i]);
      in[1].setInt(Y[i]);
    }

    @Override
    void fill(TickColumns in, int t, int i) {
      in.setInt(0, t, X[i]);
      in.setInt(1, t, Y[i]);
    }

    @Override
    void fillBatch(TickColumns in, int base, int n) {
      if (shape.size() > 2) {
        super.fillBatch(in, base, n); // dynamic: the text too, tick by tick
        return;
      }
      byte[] xk = in.kinds(0);
      long[] xs = in.payloads(0);
      byte[] yk = in.kinds(1);
      long[] ys = in.payloads(1);
      for (int t = 0; t < n; t++) {
        int k = (base + t) & Inputs.MASK;
        xk[t] = io.dataflow.core.Kind.INT;
        xs[t] = X[k];
        yk[t] = io.dataflow.core.Kind.INT;
        ys[t] = Y[k];
      }
    }

    @Override
    Value[] values(int i) {
      return new Value[] {Value.of(X[i]), Value.of(Y[i])};
    }

    @Override
    Baseline baseline() {
      return baseline.get();
    }
  }

  /** {@code alert = x > 3.0} over a Float input. */
  private static final class Threshold extends Workload {
    Threshold() {
      super("threshold", "in x: Float\nout alert: Bool\nalert = x > 3.0", "x");
    }

    @Override
    void fill(Row in, int i) {
      in.setFloat(0, F[i]);
    }

    @Override
    void stage(MonitorInput[] in, int i) {
      in[0].setFloat(F[i]);
    }

    @Override
    void fill(TickColumns in, int t, int i) {
      in.setFloat(0, t, F[i]);
    }

    @Override
    void fillBatch(TickColumns in, int base, int n) {
      byte[] kinds = in.kinds(0);
      long[] payloads = in.payloads(0);
      for (int t = 0; t < n; t++) {
        kinds[t] = io.dataflow.core.Kind.FLOAT;
        payloads[t] = Double.doubleToRawLongBits(F[(base + t) & Inputs.MASK]);
      }
    }

    @Override
    Value[] values(int i) {
      return new Value[] {Value.of(F[i])};
    }

    @Override
    Baseline baseline() {
      return i -> F[i] > 3.0 ? 1 : 0;
    }
  }

  /**
   * {@code z = defer(e)}: the text {@code "x + y"} arrives on the priming tick, and the sealed
   * body runs every steady-state tick (where {@code e} is NoVal).
   */
  private static final class Defer extends TwoInts {
    private static final String SPEC = "in x: Int\nin y: Int\nin e: Str\nout z: Int\n"
        + "z = defer(e)";

    Defer() {
      super("defer", SPEC, SimpleAdd::new);
    }

    @Override
    int prime(io.dataflow.monitor.DataflowMonitor monitor, Row in, Row out) {
      fill(in, 0);
      in.setStr(2, "x + y");
      monitor.evaluate(in, out);
      in.setNoVal(2); // steady-state ticks leave e absent
      return 1;
    }

    @Override
    List<Tick> primingTicks() {
      return List.of(TickShape.of("x", "y", "e").tick(Value.of(X[0]), Value.of(Y[0]),
          Value.of("x + y")));
    }
  }

  /** {@code z = dynamic(e)} with the same text every tick. */
  private static final class Dynamic extends TwoInts {
    Dynamic() {
      super("dynamic", "in x: Int\nin y: Int\nin e: Str\nout z: Int\nz = dynamic(e)",
          DynamicBaseline::new, "x", "y", "e");
    }

    @Override
    void fill(Row in, int i) {
      in.setInt(0, X[i]);
      in.setInt(1, Y[i]);
      in.setStr(2, TEXT[i]);
    }

    @Override
    void stage(MonitorInput[] in, int i) {
      in[0].setInt(X[i]);
      in[1].setInt(Y[i]);
      in[2].setStr(TEXT[i]);
    }

    @Override
    void fill(TickColumns in, int t, int i) {
      in.setInt(0, t, X[i]);
      in.setInt(1, t, Y[i]);
      in.setStr(2, t, TEXT[i]);
    }


    @Override
    Value[] values(int i) {
      return new Value[] {Value.of(X[i]), Value.of(Y[i]), Value.of(TEXT[i])};
    }
  }

  // ------------------------------------------------------------------ baselines

  /** {@code z = x + y}. */
  private static final class SimpleAdd implements Baseline {
    @Override
    public long step(int i) {
      return Math.addExact(X[i], Y[i]);
    }
  }

  /** {@code z = default(z[1], 0) + x}. */
  private static final class Counter implements Baseline {
    private long z;

    @Override
    public long step(int i) {
      z = Math.addExact(z, X[i]);
      return z;
    }
  }

  /** {@code x > 3 && default(x[1], 4) > 3 && default(x[2], 4) > 3}: two delayed samples. */
  private static final class Window3 implements Baseline {
    private long x1 = 4;
    private long x2 = 4;

    @Override
    public long step(int i) {
      long x = SMALL[i];
      boolean alert = x > 3 & x1 > 3 & x2 > 3;
      x2 = x1;
      x1 = x;
      return alert ? 1 : 0;
    }
  }

  /** {@code (x + y) * 3 - (x % 7)}. */
  private static final class Arith implements Baseline {
    @Override
    public long step(int i) {
      long x = X[i];
      return Math.subtractExact(Math.multiplyExact(Math.addExact(x, Y[i]), 3), x % 7);
    }
  }

  /** The chain: one field per aux stream. */
  private static final class Chain implements Baseline {
    private final long[] a;

    Chain(int n) {
      a = new long[n];
    }

    @Override
    public long step(int i) {
      long x = X[i];
      long v = Math.addExact(x, 1);
      a[0] = v;
      for (int k = 1; k < a.length; k++) {
        v = Math.addExact(v, x);
        a[k] = v;
      }
      return v;
    }
  }

  /** {@code dynamic(e)} by hand: keep the body while the text is the same, then add. */
  private static final class DynamicBaseline implements Baseline {
    private String active;

    @Override
    public long step(int i) {
      String text = TEXT[i];
      if (!text.equals(active)) {
        active = text; // a real implementation would compile the new text here
      }
      return Math.addExact(X[i], Y[i]);
    }
  }
}
