package io.dataflow.pipeline.internal;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A meeting point: the controller sends it with a control message to several drivers and
 * polls {@link #isComplete()}; each arrival adds what it did (lanes, keys).
 *
 * <p>Thread-safety: safe from any thread.
 */
final class Barrier {
  private final int parties;
  private final AtomicInteger arrived = new AtomicInteger();
  private final AtomicLong keys = new AtomicLong();
  private final ConcurrentLinkedQueue<Integer> lanes = new ConcurrentLinkedQueue<>();

  Barrier(int parties) {
    this.parties = parties;
  }

  /** One party arrives, having handled {@code lanesDone} and {@code keysDone}. */
  void arrive(java.util.Collection<Integer> lanesDone, long keysDone) {
    lanes.addAll(lanesDone);
    keys.addAndGet(keysDone);
    arrived.incrementAndGet();
  }

  boolean isComplete() {
    return arrived.get() >= parties;
  }

  int arrived() {
    return arrived.get();
  }

  int parties() {
    return parties;
  }

  java.util.List<Integer> lanes() {
    return lanes.stream().sorted().toList();
  }

  long keys() {
    return keys.get();
  }
}
