package io.dataflow.bench;

import io.dataflow.core.Kind;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What a batch contract could reach for {@code simple_add} (not a path of the library: a
 * measurement for docs/performance.md, "Next steps"). One op is a batch of {@value #BATCH}
 * ticks in column arrays (a tag and a payload column per stream), as a caller would fill them.
 *
 * <p>{@code batchFloor} is the code a generated batch loop would run: the language's semantics
 * of {@code z = x + y} (tags, sample-and-hold lifting memories, NoVal and Deferred before the
 * checked addition, the output's tag and payload columns) with the lifting memories in locals,
 * written back once per batch. {@code batchBaseline} is the hand-written loop over the same
 * columns without the semantics. Both are reported per tick. Thread-safety: one JMH thread.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class BatchFloorBench {
  static final int BATCH = 256;

  /** The workload: {@code simple_add} only (so the report puts it beside its baseline). */
  @Param({"simple_add"})
  public String workload;

  private final byte[] xTags = new byte[BATCH];
  private final long[] xs = new long[BATCH];
  private final byte[] yTags = new byte[BATCH];
  private final long[] ys = new long[BATCH];
  private final byte[] zTags = new byte[BATCH];
  private final long[] zs = new long[BATCH];
  private byte heldXTag = Kind.NOVAL;
  private long heldX;
  private byte heldYTag = Kind.NOVAL;
  private long heldY;
  private int next;

  /** Fills the input columns with the next batch's ticks, as the caller of a batch would. */
  private void fill() {
    int base = next;
    for (int i = 0; i < BATCH; i++) {
      int k = (base + i) & Inputs.MASK;
      xTags[i] = Kind.INT;
      xs[i] = Inputs.X[k];
      yTags[i] = Kind.INT;
      ys[i] = Inputs.Y[k];
    }
    next = base + BATCH;
  }

  /** The semantics of {@code z = x + y} over one batch, memories in locals. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void batchFloor(Blackhole bh) {
    bh.consume(floor());
  }

  /** One batch through the semantic loop; returns the sum of the present outputs. */
  long floor() {
    fill();
    byte hxt = heldXTag;
    long hx = heldX;
    byte hyt = heldYTag;
    long hy = heldY;
    long sum = 0;
    for (int i = 0; i < BATCH; i++) {
      byte xt = xTags[i];
      long x = xs[i];
      if (xt == Kind.NOVAL) {
        xt = hxt;
        x = hx;
      } else {
        hxt = xt;
        hx = x;
      }
      byte yt = yTags[i];
      long y = ys[i];
      if (yt == Kind.NOVAL) {
        yt = hyt;
        y = hy;
      } else {
        hyt = yt;
        hy = y;
      }
      if (xt == Kind.INT && yt == Kind.INT) {
        zTags[i] = Kind.INT;
        long z = Math.addExact(x, y);
        zs[i] = z;
        sum += z;
      } else {
        zTags[i] = xt == Kind.NOVAL || yt == Kind.NOVAL ? Kind.NOVAL : Kind.DEFERRED;
      }
    }
    heldXTag = hxt;
    heldX = hx;
    heldYTag = hyt;
    heldY = hy;
    return sum;
  }

  /** The same columns added by hand, without tags or memories. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public void batchBaseline(Blackhole bh) {
    bh.consume(plain());
  }

  /** One batch through the plain loop; returns the sum of the outputs. */
  long plain() {
    fill();
    long sum = 0;
    for (int i = 0; i < BATCH; i++) {
      long z = Math.addExact(xs[i], ys[i]);
      zs[i] = z;
      sum += z;
    }
    return sum;
  }

  /** The output column of the last batch: tick {@code i}'s tag and payload (tests). */
  long output(int i) {
    return zTags[i] == Kind.INT ? zs[i] : Long.MIN_VALUE;
  }
}
