package io.dataflow.core.internal;

import java.time.Duration;
import java.util.Objects;
import io.dataflow.core.spi.Monitor;
import io.dataflow.core.ExecutionPolicy;
import io.dataflow.core.DataflowRuntime;
import io.dataflow.core.SystemClock;
import io.dataflow.core.InputWindow;
import io.dataflow.core.Clock;

/**
 * Assembles the owner loop from its parts (machinery for the reconfigurable builder, which is
 * the users' entry point); fails fast on a bad value.
 */
public final class DataflowRuntimeBuilder {
  String name = "dataflow";
  Monitor monitor;
  InputSession input;
  OutputSession output;
  Clock clock = SystemClock.INSTANCE;
  ExecutionPolicy policy = ExecutionPolicy.BUFFERED;
  InputWindow window = InputWindow.none();
  int ingressCapacity = 4096;
  ControlHandler controlHandler;
  Duration closeTimeout = Duration.ofSeconds(30);
  Duration statusEvery;
  CheckpointStore checkpoints;
  long checkpointEveryTicks;
  Duration checkpointEvery;
  String checkpointBaseKey;
  java.util.function.Consumer<String> statusLines;
  DirectDataflowEngine.Warnings warnings;

  /** A builder with the defaults. */
  public DataflowRuntimeBuilder() {}

  /** The name used for threads and logs. */
  public DataflowRuntimeBuilder name(String value) {
    this.name = Objects.requireNonNull(value, "name");
    return this;
  }

  /** The monitor to evaluate (required). */
  public DataflowRuntimeBuilder monitor(Monitor value) {
    this.monitor = Objects.requireNonNull(value, "monitor");
    return this;
  }

  /** The input session (required; may have no sources when input comes from the handle). */
  public DataflowRuntimeBuilder input(InputSession value) {
    this.input = Objects.requireNonNull(value, "input");
    return this;
  }

  /** The output session (required). */
  public DataflowRuntimeBuilder output(OutputSession value) {
    this.output = Objects.requireNonNull(value, "output");
    return this;
  }

  /** The clock (default: the system clock). */
  public DataflowRuntimeBuilder clock(Clock value) {
    this.clock = Objects.requireNonNull(value, "clock");
    return this;
  }

  /** The flush policy (default: buffered, every 256 ticks). */
  public DataflowRuntimeBuilder policy(ExecutionPolicy value) {
    this.policy = Objects.requireNonNull(value, "policy");
    return this;
  }

  /** The input window (default: none). */
  public DataflowRuntimeBuilder window(InputWindow value) {
    this.window = Objects.requireNonNull(value, "window");
    return this;
  }

  /** The ingress queue capacity, rounded up to a power of two (default 4096). */
  public DataflowRuntimeBuilder ingressCapacity(int value) {
    if (value < 2) {
      throw new IllegalArgumentException("ingressCapacity must be at least 2: " + value);
    }
    this.ingressCapacity = value;
    return this;
  }

  /** Handles control items (required to accept any). */
  public DataflowRuntimeBuilder controlHandler(ControlHandler value) {
    this.controlHandler = value;
    return this;
  }

  /**
   * Writes a {@link RuntimeCheckpoint} into {@code store} after every {@code everyTicks} ticks
   * (0: not by count) and every {@code every} of clock time (null: not by time), between two
   * ingress items, and once more when the input ends.
   *
   * @param baseKey the definition key of the specification the run starts with
   */
  public DataflowRuntimeBuilder checkpoints(CheckpointStore store, long everyTicks,
      Duration every, String baseKey) {
    if (everyTicks < 0) {
      throw new IllegalArgumentException("checkpoint interval must not be negative: "
          + everyTicks);
    }
    if (every != null && (every.isNegative() || every.isZero())) {
      throw new IllegalArgumentException("checkpoint period must be positive: " + every);
    }
    this.checkpoints = Objects.requireNonNull(store, "store");
    this.checkpointEveryTicks = everyTicks;
    this.checkpointEvery = every;
    this.checkpointBaseKey = Objects.requireNonNull(baseKey, "baseKey");
    return this;
  }

  /**
   * Publishes a status line every {@code every} of clock time to {@code lines} (from the owner
   * thread); null turns it off (the default).
   */
  public DataflowRuntimeBuilder statusEvery(Duration every, java.util.function.Consumer<String> lines) {
    if (every != null && (every.isNegative() || every.isZero())) {
      throw new IllegalArgumentException("statusEvery must be positive: " + every);
    }
    this.statusEvery = every;
    this.statusLines = lines;
    return this;
  }

  /** How long closing the output may take at the end of input (default 30 s). */
  public DataflowRuntimeBuilder closeTimeout(Duration value) {
    if (value.isNegative()) {
      throw new IllegalArgumentException("closeTimeout must not be negative: " + value);
    }
    this.closeTimeout = value;
    return this;
  }

  /** Receives warnings (default: logged). */
  public DataflowRuntimeBuilder warnings(DirectDataflowEngine.Warnings value) {
    this.warnings = value;
    return this;
  }

  /** Builds the runtime. */
  public OwnerLoop build() {
    if (monitor == null) {
      throw new IllegalStateException("a monitor is required");
    }
    if (input == null) {
      throw new IllegalStateException("an input session is required");
    }
    if (output == null) {
      throw new IllegalStateException("an output session is required");
    }
    return new OwnerLoop(this);
  }
}
