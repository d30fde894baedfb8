package io.dataflow.reconfig;

import io.dataflow.core.ExecutionPolicy;
import io.dataflow.core.InputWindow;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.TypingMode;
import java.time.Duration;
import java.util.Objects;

/**
 * How a runtime runs: one immutable options object that {@link ReconfigurableDataflowRuntimeBuilder}
 * and the testkit's harness share, changed through {@code with...} copies.
 *
 * <pre>{@code
 * RuntimeOptions options = RuntimeOptions.DEFAULTS
 *     .withPolicy(ExecutionPolicy.SYNCHRONOUS)
 *     .withCloseTimeout(Duration.ofSeconds(5));
 * }</pre>
 *
 * @param name the runtime's name, in thread names and logs
 * @param policy when output is flushed
 * @param window how input ticks are grouped before evaluation
 * @param ingressCapacity the bounded ingress queue's capacity (at least 2)
 * @param closeTimeout how long closing the output may take at the end of a run (on the
 *     runtime's clock)
 * @param typingMode the typing mode of the specification and every replacement
 * @param contextTransfer whether state moves to a replacement ({@code false}: InstallCold always)
 * @param rejectPolicy what a request that fails to plan does
 * @param monitorOptions the monitor's options (dynamic-property cache, generated code)
 * @param statusEvery how often a status line is published (on the runtime's clock), or null
 *     for never (the default)
 * @param checkpointEveryTicks with a checkpoint directory: a checkpoint after every so many
 *     ticks (0: not by count)
 * @param checkpointEvery with a checkpoint directory: a checkpoint every so much clock time
 *     (null: not by time)
 * @param checkpointKeep how many checkpoints the directory keeps (at least 1)
 */
public record RuntimeOptions(String name, ExecutionPolicy policy, InputWindow window,
    int ingressCapacity, Duration closeTimeout, TypingMode typingMode, boolean contextTransfer,
    RejectPolicy rejectPolicy, DataflowMonitor.Options monitorOptions, Duration statusEvery,
    long checkpointEveryTicks, Duration checkpointEvery, int checkpointKeep) {

  /**
   * Name {@code dataflow}, buffered output, no input window, a queue of 4096, 30 s to close,
   * gradual typing, context transfer on, a rejected request ends the run, default monitor, no
   * status line; with a checkpoint directory, a checkpoint every 1000 ticks, the last 3 kept.
   */
  public static final RuntimeOptions DEFAULTS = new RuntimeOptions("dataflow",
      ExecutionPolicy.BUFFERED, InputWindow.none(), 4096, Duration.ofSeconds(30),
      TypingMode.GRADUAL, true, RejectPolicy.END_RUN, DataflowMonitor.Options.DEFAULT, null, 1000, null, 3);

  /** Validates the options. */
  public RuntimeOptions {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(window, "window");
    Objects.requireNonNull(closeTimeout, "closeTimeout");
    Objects.requireNonNull(typingMode, "typingMode");
    Objects.requireNonNull(rejectPolicy, "rejectPolicy");
    Objects.requireNonNull(monitorOptions, "monitorOptions");
    if (ingressCapacity < 2) {
      // The bounded queue (JCTools' MPSC array queue) holds at least two items.
      throw new IllegalArgumentException("ingressCapacity must be at least 2: " + ingressCapacity);
    }
    if (checkpointEveryTicks < 0) {
      throw new IllegalArgumentException("checkpointEveryTicks must not be negative: "
          + checkpointEveryTicks);
    }
    if (checkpointEvery != null && (checkpointEvery.isNegative() || checkpointEvery.isZero())) {
      throw new IllegalArgumentException("checkpointEvery must be positive: " + checkpointEvery);
    }
    if (checkpointKeep < 1) {
      throw new IllegalArgumentException("checkpointKeep must be at least 1: " + checkpointKeep);
    }
    if (statusEvery != null && (statusEvery.isNegative() || statusEvery.isZero())) {
      throw new IllegalArgumentException("statusEvery must be positive: " + statusEvery);
    }
    if (closeTimeout.isNegative()) {
      throw new IllegalArgumentException("closeTimeout must not be negative: " + closeTimeout);
    }
  }

  /** A copy with another name. */
  public RuntimeOptions withName(String value) {
    return copy(c -> c.name = value);
  }

  /** A copy with another flush policy. */
  public RuntimeOptions withPolicy(ExecutionPolicy value) {
    return copy(c -> c.policy = value);
  }

  /** A copy with another input window. */
  public RuntimeOptions withWindow(InputWindow value) {
    return copy(c -> c.window = value);
  }

  /** A copy with another ingress capacity. */
  public RuntimeOptions withIngressCapacity(int value) {
    return copy(c -> c.ingressCapacity = value);
  }

  /** A copy with another close timeout. */
  public RuntimeOptions withCloseTimeout(Duration value) {
    return copy(c -> c.closeTimeout = value);
  }

  /** A copy with another typing mode. */
  public RuntimeOptions withTypingMode(TypingMode value) {
    return copy(c -> c.typingMode = value);
  }

  /** A copy with context transfer switched on or off. */
  public RuntimeOptions withContextTransfer(boolean value) {
    return copy(c -> c.contextTransfer = value);
  }

  /** A copy with another reject policy. */
  public RuntimeOptions withRejectPolicy(RejectPolicy value) {
    return copy(c -> c.rejectPolicy = value);
  }

  /** A copy with other monitor options. */
  public RuntimeOptions withMonitorOptions(DataflowMonitor.Options value) {
    return copy(c -> c.monitorOptions = value);
  }

  /** A copy that publishes a status line every {@code value} (null: never). */
  public RuntimeOptions withStatusEvery(Duration value) {
    return copy(c -> c.statusEvery = value);
  }

  /** A copy that checkpoints after every {@code ticks} ticks (0: not by count). */
  public RuntimeOptions withCheckpointEveryTicks(long ticks) {
    return copy(c -> c.checkpointEveryTicks = ticks);
  }

  /** A copy that checkpoints every {@code period} of clock time (null: not by time). */
  public RuntimeOptions withCheckpointEvery(Duration period) {
    return copy(c -> c.checkpointEvery = period);
  }

  /** A copy that keeps the newest {@code count} checkpoints. */
  public RuntimeOptions withCheckpointKeep(int count) {
    return copy(c -> c.checkpointKeep = count);
  }

  /** A copy with one change: the one place that spells out every component. */
  private RuntimeOptions copy(java.util.function.Consumer<Copy> change) {
    Copy c = new Copy(this);
    change.accept(c);
    return new RuntimeOptions(c.name, c.policy, c.window, c.ingressCapacity, c.closeTimeout,
        c.typingMode, c.contextTransfer, c.rejectPolicy, c.monitorOptions, c.statusEvery,
        c.checkpointEveryTicks, c.checkpointEvery, c.checkpointKeep);
  }

  /** The components of a copy being made (the record validates them when it is built). */
  private static final class Copy {
    String name;
    ExecutionPolicy policy;
    InputWindow window;
    int ingressCapacity;
    Duration closeTimeout;
    TypingMode typingMode;
    boolean contextTransfer;
    RejectPolicy rejectPolicy;
    DataflowMonitor.Options monitorOptions;
    Duration statusEvery;
    long checkpointEveryTicks;
    Duration checkpointEvery;
    int checkpointKeep;

    Copy(RuntimeOptions o) {
      name = o.name;
      policy = o.policy;
      window = o.window;
      ingressCapacity = o.ingressCapacity;
      closeTimeout = o.closeTimeout;
      typingMode = o.typingMode;
      contextTransfer = o.contextTransfer;
      rejectPolicy = o.rejectPolicy;
      monitorOptions = o.monitorOptions;
      statusEvery = o.statusEvery;
      checkpointEveryTicks = o.checkpointEveryTicks;
      checkpointEvery = o.checkpointEvery;
      checkpointKeep = o.checkpointKeep;
    }
  }
}
