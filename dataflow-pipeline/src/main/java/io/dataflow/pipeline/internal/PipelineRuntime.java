package io.dataflow.pipeline.internal;

import io.dataflow.core.Clock;
import io.dataflow.core.internal.Agent;
import io.dataflow.core.internal.AgentRunner;
import io.dataflow.core.internal.FailureGate;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.pipeline.DataflowPipeline;
import io.dataflow.pipeline.PipelineAck;
import io.dataflow.pipeline.PipelineExitReport;
import io.dataflow.pipeline.PipelineOptions;
import io.dataflow.pipeline.PipelineStatus;
import io.dataflow.pipeline.spi.Checkpointer;
import io.dataflow.pipeline.spi.KeyedSink;
import io.dataflow.pipeline.spi.PartitionedSource;
import io.dataflow.reconfig.ReconfigurationRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The keyed pipeline: one {@link ControllerAgent} and N {@link DriverAgent}s sharing one
 * {@link FailureGate}. {@link #start()} runs each agent on a thread of its own; a test that
 * never starts it steps {@link #controller()} and {@link #drivers()} from its own thread
 * instead (the testkit's {@code PipelineHarness}).
 */
public final class PipelineRuntime implements DataflowPipeline {
  /** Real-time slice of a wait for termination (the deadline itself is on the clock). */
  private static final long TERMINATION_SLICE_NANOS = 1_000_000;

  /** What the builder collected. */
  public record Parts(DataflowProgram program, PartitionedSource source, KeyedSink sink,
      Checkpointer checkpointer, Clock clock, PipelineOptions options,
      Consumer<String> warnings, Consumer<String> statusLines,
      Consumer<PipelineAck> acknowledgements) {}

  private final Clock clock;
  private final PipelineOptions options;
  private final FailureGate failures = new FailureGate();
  private final ControllerAgent controller;
  private final List<DriverAgent> drivers = new ArrayList<>();
  private final List<AgentRunner> runners = new ArrayList<>();
  private boolean started;

  /** A pipeline of {@code parts}; nothing runs yet. */
  public PipelineRuntime(Parts parts) {
    this.clock = parts.clock();
    this.options = parts.options();
    ControllerAgent[] self = new ControllerAgent[1];
    Consumer<String> warnings = parts.warnings();
    for (int i = 0; i < options.drivers(); i++) {
      drivers.add(new DriverAgent(i, options.name() + "-driver-" + i, clock, options,
          parts.sink(), parts.program(), e -> {
            self[0].events.offer(e);
            wakeController();
          }, a -> {
            self[0].acks.offer(a);
            wakeController();
          }, w -> self[0].warn(w)));
    }
    controller = new ControllerAgent(options.name() + "-controller", clock, options,
        parts.source(), parts.checkpointer(), parts.sink(), List.copyOf(drivers),
        parts.program(), failures, warnings, parts.statusLines(), parts.acknowledgements());
    self[0] = controller;
  }

  private void wakeController() {
    if (!runners.isEmpty()) {
      runners.get(0).wake();
    }
  }

  /** The controller agent (to step it). */
  public Agent controller() {
    return controller;
  }

  /**
   * Waits, in real time and bounded, for a sink close the shutdown started (a stepping test
   * calls this before moving its clock, as the single runtime's harness does).
   */
  public boolean awaitSinkClosed(Duration timeout) throws InterruptedException {
    return controller.awaitSinkClosed(timeout);
  }

  /** The driver agents, by index (to step them). */
  public List<? extends Agent> drivers() {
    return List.copyOf(drivers);
  }

  @Override
  public synchronized void start() {
    if (started) {
      throw new IllegalStateException(options.name() + " already started");
    }
    started = true;
    List<AgentRunner> made = new ArrayList<>();
    made.add(new AgentRunner(controller, clock, e -> failures.fail("runtime", e)));
    for (DriverAgent d : drivers) {
      made.add(new AgentRunner(d, clock, e -> {
        failures.fail("runtime", e);
        controller.events.offer(new DriverEvent.Fatal(d.name(), "runtime", e));
      }));
    }
    runners.addAll(made);
    controller.wakeDriversWith(d -> runners.get(d + 1).wake());
    for (AgentRunner r : made) {
      r.start();
    }
  }

  @Override
  public PipelineExitReport run() throws InterruptedException {
    synchronized (this) {
      if (!started) {
        start();
      }
    }
    controller.terminated().await();
    joinDrivers();
    return controller.report();
  }

  @Override
  public PipelineExitReport awaitTermination(Duration timeout)
      throws InterruptedException, TimeoutException {
    long deadline = clock.nanoTime() + timeout.toNanos();
    while (controller.report() == null) {
      long left = deadline - clock.nanoTime();
      if (left <= 0) {
        throw new TimeoutException(options.name() + " did not end within " + timeout);
      }
      controller.terminated().await(Math.min(left, TERMINATION_SLICE_NANOS),
          TimeUnit.NANOSECONDS);
    }
    joinDrivers();
    return controller.report();
  }

  /** Joins the driver threads, bounded: a driver stuck in a sink call is left behind. */
  private void joinDrivers() throws InterruptedException {
    for (int i = 1; i < runners.size(); i++) {
      if (!runners.get(i).join(100)) {
        controller.warn(drivers.get(i - 1).name() + " did not end; its thread was left");
      }
    }
  }

  @Override
  public void shutdown(Duration timeout) {
    controller.shutdown(timeout.toNanos());
    wakeController();
  }

  @Override
  public void cancel(String reason) {
    failures.cancel(reason);
    wakeController();
  }

  @Override
  public CompletableFuture<PipelineAck> reconfigure(ReconfigurationRequest request) {
    CompletableFuture<PipelineAck> f = controller.reconfigure(request);
    wakeController();
    return f;
  }

  @Override
  public PipelineStatus status() {
    return controller.status();
  }

  @Override
  public boolean isReady() {
    return controller.isReady();
  }

  @Override
  public PipelineExitReport exitReport() {
    return controller.report();
  }

  @Override
  public Clock clock() {
    return clock;
  }

  @Override
  public void close() {
    shutdown(options.closeTimeout());
    try {
      if (started) {
        awaitTermination(options.closeTimeout().plusSeconds(1));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (TimeoutException e) {
      controller.warn(options.name() + " did not end within its close timeout");
    }
  }
}
