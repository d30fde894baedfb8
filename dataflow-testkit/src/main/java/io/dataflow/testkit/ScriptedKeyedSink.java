package io.dataflow.testkit;

import io.dataflow.pipeline.spi.Acknowledgement;
import io.dataflow.pipeline.spi.KeyedOutput;
import io.dataflow.pipeline.spi.KeyedSink;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A keyed sink for pipeline tests that records every output and acknowledges as scripted:
 * at once (the default), held until the test releases them (a slow sink), never (a sink that
 * never completes, not even at close), or failing the n-th batch.
 *
 * <p>Thread-safety: safe from any thread (drivers send concurrently; the test reads).
 */
public final class ScriptedKeyedSink implements KeyedSink {
  private final List<KeyedOutput> received = new ArrayList<>();
  private final List<KeyedOutput> acknowledged = new ArrayList<>();
  private final ArrayDeque<Held> held = new ArrayDeque<>();
  private boolean hold;
  private boolean never;
  private int failBatch = -1;
  private int batches;
  private boolean probe = true;
  private boolean closed;

  private record Held(List<KeyedOutput> outputs, Acknowledgement ack) {}

  /** Acknowledges every batch at once. */
  public static ScriptedKeyedSink acknowledging() {
    return new ScriptedKeyedSink();
  }

  /** Holds acknowledgements until {@link #release(int)} or {@link #releaseAll()}; close acks. */
  public synchronized ScriptedKeyedSink holding() {
    hold = true;
    return this;
  }

  /** Never acknowledges, not even at close. */
  public synchronized ScriptedKeyedSink neverAcknowledging() {
    never = true;
    return this;
  }

  /** Fails batch {@code n} (0-based, in the order batches arrive); the others are acked. */
  public synchronized ScriptedKeyedSink failingBatch(int n) {
    failBatch = n;
    return this;
  }

  /** What {@link #probe()} answers. */
  public synchronized ScriptedKeyedSink probing(boolean value) {
    probe = value;
    return this;
  }

  @Override
  public void send(List<KeyedOutput> outputs, Acknowledgement ack) {
    boolean fail;
    synchronized (this) {
      received.addAll(outputs);
      fail = batches++ == failBatch;
      if (!fail && (hold || never)) {
        held.addLast(new Held(List.copyOf(outputs), ack));
        return;
      }
      if (!fail) {
        acknowledged.addAll(outputs);
      }
    }
    if (fail) {
      ack.failed(new java.io.IOException("scripted failure of batch " + (batches - 1)));
    } else {
      ack.succeeded();
    }
  }

  /** Acknowledges the oldest {@code n} held batches; returns how many it released. */
  public int release(int n) {
    List<Held> out = new ArrayList<>();
    synchronized (this) {
      while (out.size() < n && !held.isEmpty()) {
        Held h = held.pollFirst();
        acknowledged.addAll(h.outputs());
        out.add(h);
      }
    }
    out.forEach(h -> h.ack().succeeded());
    return out.size();
  }

  /** Acknowledges every held batch. */
  public int releaseAll() {
    return release(Integer.MAX_VALUE);
  }

  /** Batches held, not yet acknowledged. */
  public synchronized int heldBatches() {
    return held.size();
  }

  /** Every output received, in arrival order. */
  public synchronized List<KeyedOutput> received() {
    return List.copyOf(received);
  }

  /** Every output acknowledged. */
  public synchronized List<KeyedOutput> acknowledged() {
    return List.copyOf(acknowledged);
  }

  @Override
  public synchronized boolean probe() {
    return probe;
  }

  /** True once closed. */
  public synchronized boolean isClosed() {
    return closed;
  }

  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      if (never) {
        return; // the pipeline's deadline must abandon it
      }
    }
    releaseAll();
  }
}
