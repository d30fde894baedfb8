package io.dataflow.pipeline;

import io.dataflow.monitor.TypingMode;
import java.time.Duration;
import java.util.Objects;

/**
 * How a keyed pipeline runs (docs/pipeline.md#options). Start from {@link #DEFAULTS} and change
 * what you need with the {@code with...} methods.
 *
 * @param name the pipeline's name (thread names, logs)
 * @param drivers driver threads (default: cores - 1, at least 1)
 * @param pendingCeiling records of one lane admitted but not yet acknowledged at which the lane
 *     is paused at the source
 * @param resumeBelow the lane resumes once its pending records fall below this (hysteresis)
 * @param queueCapacity each driver's data queue, bounded in records (handed over in chunks of
 *     one lane's records)
 * @param maxPollRecords records taken from the source per poll
 * @param batchSize outputs per sink batch at most
 * @param idleFlush how long a driver keeps a partial batch while its input is idle
 * @param commitEvery how often the controller takes a checkpoint of every lane (a barrier in
 *     each lane) and commits what is acknowledged
 * @param keyTtl idle-key expiry: a key without a tick for this long is forgotten (null: off)
 * @param closeTimeout the deadline of a shutdown at the end of input
 * @param statusEvery the period of the status line (null: off)
 * @param typingMode how replacement specifications are typed
 * @param contextTransfer whether a reconfiguration carries state over (else every key starts
 *     cold)
 */
public record PipelineOptions(String name, int drivers, int pendingCeiling, int resumeBelow,
    int queueCapacity, int maxPollRecords, int batchSize, Duration idleFlush,
    Duration commitEvery, Duration keyTtl, Duration closeTimeout, Duration statusEvery,
    TypingMode typingMode, boolean contextTransfer) {

  /** The defaults. */
  public static final PipelineOptions DEFAULTS = new PipelineOptions("pipeline",
      Math.max(1, Runtime.getRuntime().availableProcessors() - 1), 10_000, 5_000, 8_192, 1_024,
      512, Duration.ofMillis(1), Duration.ofSeconds(1), null, Duration.ofSeconds(10), null,
      TypingMode.GRADUAL, true);

  /** Validates the options. */
  public PipelineOptions {
    Objects.requireNonNull(name, "name");
    positive(drivers, "drivers");
    positive(pendingCeiling, "pendingCeiling");
    if (resumeBelow < 1 || resumeBelow > pendingCeiling) {
      throw new IllegalArgumentException("resumeBelow must be in 1.." + pendingCeiling + ", not "
          + resumeBelow);
    }
    if (queueCapacity < 2) {
      throw new IllegalArgumentException("queueCapacity must be at least 2, not " + queueCapacity);
    }
    positive(maxPollRecords, "maxPollRecords");
    positive(batchSize, "batchSize");
    nonNegative(idleFlush, "idleFlush");
    positive(commitEvery, "commitEvery");
    if (keyTtl != null) {
      positive(keyTtl, "keyTtl");
    }
    positive(closeTimeout, "closeTimeout");
    if (statusEvery != null) {
      positive(statusEvery, "statusEvery");
    }
    Objects.requireNonNull(typingMode, "typingMode");
  }

  private static void positive(int v, String what) {
    if (v < 1) {
      throw new IllegalArgumentException(what + " must be positive, not " + v);
    }
  }

  private static void positive(Duration d, String what) {
    if (Objects.requireNonNull(d, what).isNegative() || d.isZero()) {
      throw new IllegalArgumentException(what + " must be positive, not " + d);
    }
  }

  private static void nonNegative(Duration d, String what) {
    if (Objects.requireNonNull(d, what).isNegative()) {
      throw new IllegalArgumentException(what + " must not be negative, not " + d);
    }
  }

  /** With another name. */
  public PipelineOptions withName(String v) {
    return copy(c -> c.name = v);
  }

  /** With another number of driver threads. */
  public PipelineOptions withDrivers(int v) {
    return copy(c -> c.drivers = v);
  }

  /** With another pending ceiling and resume watermark (hysteresis). */
  public PipelineOptions withBackpressure(int ceiling, int resume) {
    return copy(c -> {
      c.pendingCeiling = ceiling;
      c.resumeBelow = resume;
    });
  }

  /** With another data queue capacity per driver and records per poll. */
  public PipelineOptions withQueues(int capacity, int pollRecords) {
    return copy(c -> {
      c.queueCapacity = capacity;
      c.maxPollRecords = pollRecords;
    });
  }

  /** With another sink batch size and idle flush. */
  public PipelineOptions withBatching(int size, Duration idle) {
    return copy(c -> {
      c.batchSize = size;
      c.idleFlush = idle;
    });
  }

  /** With another checkpoint and commit period. */
  public PipelineOptions withCommitEvery(Duration v) {
    return copy(c -> c.commitEvery = v);
  }

  /** With idle-key expiry after {@code v} without a tick (null: off). */
  public PipelineOptions withKeyTtl(Duration v) {
    return copy(c -> c.keyTtl = v);
  }

  /** With another close timeout. */
  public PipelineOptions withCloseTimeout(Duration v) {
    return copy(c -> c.closeTimeout = v);
  }

  /** With a status line every {@code v} (null: off). */
  public PipelineOptions withStatusEvery(Duration v) {
    return copy(c -> c.statusEvery = v);
  }

  /** With another typing mode and context transfer setting for reconfigurations. */
  public PipelineOptions withReconfiguration(TypingMode mode, boolean transfer) {
    return copy(c -> {
      c.typingMode = mode;
      c.contextTransfer = transfer;
    });
  }

  /** A copy with one change: the one place that spells out every component. */
  private PipelineOptions copy(java.util.function.Consumer<Copy> change) {
    Copy c = new Copy(this);
    change.accept(c);
    return new PipelineOptions(c.name, c.drivers, c.pendingCeiling, c.resumeBelow,
        c.queueCapacity, c.maxPollRecords, c.batchSize, c.idleFlush, c.commitEvery, c.keyTtl,
        c.closeTimeout, c.statusEvery, c.typingMode, c.contextTransfer);
  }

  /** The components of a copy being made (the record validates them when it is built). */
  private static final class Copy {
    String name;
    int drivers;
    int pendingCeiling;
    int resumeBelow;
    int queueCapacity;
    int maxPollRecords;
    int batchSize;
    Duration idleFlush;
    Duration commitEvery;
    Duration keyTtl;
    Duration closeTimeout;
    Duration statusEvery;
    TypingMode typingMode;
    boolean contextTransfer;

    Copy(PipelineOptions o) {
      name = o.name;
      drivers = o.drivers;
      pendingCeiling = o.pendingCeiling;
      resumeBelow = o.resumeBelow;
      queueCapacity = o.queueCapacity;
      maxPollRecords = o.maxPollRecords;
      batchSize = o.batchSize;
      idleFlush = o.idleFlush;
      commitEvery = o.commitEvery;
      keyTtl = o.keyTtl;
      closeTimeout = o.closeTimeout;
      statusEvery = o.statusEvery;
      typingMode = o.typingMode;
      contextTransfer = o.contextTransfer;
    }
  }
}
