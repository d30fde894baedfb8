package io.dataflow.testkit;

import io.dataflow.core.Backoff;
import io.dataflow.core.DataflowRuntime;
import io.dataflow.core.ExecutionPolicy;
import io.dataflow.core.ExitReport;
import io.dataflow.core.spi.OutputWriter;
import io.dataflow.core.RuntimeState;
import io.dataflow.core.RuntimeStatus;
import io.dataflow.core.spi.Source;
import io.dataflow.core.Tick;
import io.dataflow.core.TickBatch;
import io.dataflow.core.Value;
import io.dataflow.io.Sinks;
import io.dataflow.monitor.ContextTransferReport;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.reconfig.AckQueue;
import io.dataflow.reconfig.CutoverObserver;
import io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder;
import io.dataflow.reconfig.ReconfigurationAck;
import io.dataflow.reconfig.ReconfigurationAckSink;
import io.dataflow.reconfig.ReconfigurationRequest;
import io.dataflow.reconfig.RuntimeOptions;
import io.dataflow.core.internal.OwnerLoop;
import java.util.function.UnaryOperator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Runs a specification in a unit test: a reconfigurable runtime stepped in the test's own
 * thread on a {@link ManualClock}, with every output collected.
 *
 * <pre>{@code
 * try (DataflowHarness h = DataflowHarness.forSpec("in x\nout z\nz = default(z[1], 0) + x")
 *     .build()) {
 *   h.tick("x", 1).tick("x", 2);
 *   OutputTraceAssert.assertThat(h.trace()).hasValues("z", 1, 3);
 *   ReconfigurationAck ack = h.reconfigure("in x\nout z\nz = x");
 * }
 * }</pre>
 *
 * <p>Every call that moves the runtime steps it until it is idle, so after {@code tick(...)}
 * returns the tick has been evaluated and its output collected. Nothing sleeps; waiting for a
 * closing output is bounded, and time passes only through {@link #advance(Duration)}.
 *
 * <p>Thread-safety: one test thread.
 */
public final class DataflowHarness implements AutoCloseable {
  private static final int MAX_IDLE_STEPS = 1_000_000;

  /**
   * The harness's defaults: {@link RuntimeOptions#DEFAULTS} named {@code harness}, with
   * synchronous output (every tick's rows are collected when its call returns), a queue of
   * 1024 and 5 s to close.
   */
  public static final RuntimeOptions DEFAULT_OPTIONS = RuntimeOptions.DEFAULTS.withName("harness")
      .withPolicy(ExecutionPolicy.SYNCHRONOUS).withIngressCapacity(1024)
      .withCloseTimeout(Duration.ofSeconds(5));

  private final OwnerLoop runtime;
  private final ManualClock clock;
  private final Sinks.Collecting collected;
  private final AckQueue acks;
  private final List<ReconfigurationAck> acknowledged = new ArrayList<>();
  private final List<ContextTransferReport> transfers = new ArrayList<>();
  private final Duration closeGrace;
  private final List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final List<String> statusLines = new ArrayList<>();

  private DataflowHarness(Builder b) {
    this.clock = b.clock;
    this.collected = Sinks.collecting();
    this.acks = new AckQueue(b.ackCapacity);
    this.closeGrace = b.closeGrace;
    ReconfigurableDataflowRuntimeBuilder rb = ReconfigurableDataflowRuntimeBuilder.create()
        .clock(clock)
        .options(b.options)
        .cutoverObserver(b.observer)
        .acknowledgements(b.ackSink != null ? b.ackSink : acks)
        .transferReports(transfers::add)
        .statusLines(statusLines::add)
        .warnings(warnings::add);
    if (b.ioFactory != null) {
      rb.ioFactory(b.ioFactory);
    }
    if (b.program != null) {
      rb.program(b.program);
    } else {
      rb.specification(b.specName, b.specText);
    }
    b.sources.forEach(s -> rb.source(s.source, s.streams));
    if (b.collectedStreams == null) {
      rb.tap("collected", collected); // the trace shows every output, however it is routed
    } else {
      rb.destination("collected", collected, b.collectedStreams, null);
    }
    b.destinations.forEach(d -> rb.destination(d.name, d.writer, d.streams, d.retry));
    this.runtime = (OwnerLoop) rb.build(); // stepped here, in the test's thread
    runUntilIdle();
  }

  /** A harness for a specification ({@code spec.dsrv} in messages). */
  public static Builder forSpec(String spec) {
    return forSpec("spec.dsrv", spec);
  }

  /** A harness for a named specification. */
  public static Builder forSpec(String name, String spec) {
    Builder b = new Builder();
    b.specName = Objects.requireNonNull(name, "name");
    b.specText = Objects.requireNonNull(spec, "spec");
    return b;
  }

  /** A harness for a compiled program. */
  public static Builder forProgram(DataflowProgram program) {
    Builder b = new Builder();
    b.program = Objects.requireNonNull(program, "program");
    return b;
  }

  // ---------------------------------------------------------------- input

  /** Submits one tick from alternating names and values ({@code tick("x", 1, "y", 2.5)}). */
  public DataflowHarness tick(Object... namesAndValues) {
    return tick(Values.row(namesAndValues));
  }

  /** Submits one tick and evaluates it. */
  public DataflowHarness tick(Map<String, Value> values) {
    return submit(Tick.of(values));
  }

  /** Submits a tick in which no input has a value. */
  public DataflowHarness emptyTick() {
    return submit(Tick.empty());
  }

  /** Submits several ticks, each evaluated in order. */
  public DataflowHarness ticks(List<Map<String, Value>> rows) {
    for (Map<String, Value> r : rows) {
      tick(r);
    }
    return this;
  }

  /** Submits a tick and steps until it has been evaluated. */
  public DataflowHarness submit(Tick tick) {
    runtime.submit(TickBatch.of(tick), Duration.ZERO);
    runUntilIdle();
    return this;
  }

  /** Offers a tick without stepping; false when the ingress queue is full. */
  public boolean offer(Tick tick) {
    return runtime.offer(tick);
  }

  /**
   * Submits a request replacing the specification and returns its acknowledgement.
   *
   * @throws IllegalStateException when no acknowledgement came (the request ended the run;
   *     see {@link #exitReport()})
   */
  public ReconfigurationAck reconfigure(String specification) {
    return reconfigure(ReconfigurationRequest.of(specification));
  }

  /**
   * Submits a request and returns its acknowledgement (a source may deliver requests too; their
   * acknowledgements are in {@link #acknowledgements()}).
   */
  public ReconfigurationAck reconfigure(ReconfigurationRequest request) {
    collectAcknowledgements();
    int before = acknowledged.size();
    runtime.submitControl(request, Duration.ZERO);
    runUntilIdle();
    collectAcknowledgements();
    ReconfigurationAck ack = null;
    for (int i = before; i < acknowledged.size(); i++) {
      if (acknowledged.get(i).origin().equals(request.origin())) {
        ack = acknowledged.get(i);
      }
    }
    if (ack == null) {
      ExitReport report = runtime.exitReport();
      throw new IllegalStateException("no acknowledgement"
          + (report == null ? "" : "; the run ended: " + report.outcome() + ", "
              + report.component() + ": " + report.reason()));
    }
    return ack;
  }

  private void collectAcknowledgements() {
    for (ReconfigurationAck ack; (ack = acks.poll()) != null; ) {
      acknowledged.add(ack);
    }
  }

  /** Moves the clock forward, firing due timers in order, and steps until idle. */
  public DataflowHarness advance(Duration d) {
    clock.advance(d);
    runUntilIdle();
    return this;
  }

  // ---------------------------------------------------------------- stepping

  /** One duty cycle; returns the work done. */
  public int step() {
    return runtime.doWork();
  }

  /**
   * Steps until a duty cycle does no work; returns the number of cycles. When the run has begun
   * to close (a failure, a request that ended it), this also finishes the close as
   * {@link #awaitTermination()} does, so when it returns the run's state is final for what was
   * stepped: running and idle, or terminated with its exit report, never half-closed.
   */
  public int runUntilIdle() {
    for (int i = 0; i < MAX_IDLE_STEPS; i++) {
      if (runtime.doWork() > 0) {
        continue;
      }
      if (runtime.state() != RuntimeState.CLOSING) {
        return i;
      }
      awaitClosingOutput();
    }
    throw new IllegalStateException("the runtime did not become idle");
  }

  /** Declares the end of input and steps until the runtime terminates. */
  public ExitReport finish() {
    runtime.endOfInput();
    return awaitTermination();
  }

  /** Stops gracefully within {@code timeout} (clock time) and steps until terminated. */
  public ExitReport stop(Duration timeout) {
    runtime.stop(timeout);
    return awaitTermination();
  }

  /** Cancels and steps until terminated. */
  public ExitReport cancel(String reason) {
    runtime.cancel(reason);
    return awaitTermination();
  }

  /**
   * Steps until the runtime terminates. While the output is closing, waits for it in real
   * time up to the close grace; if it is still not done, the clock jumps to the shutdown
   * deadline, as if the time had passed, and the runtime abandons the output.
   */
  public ExitReport awaitTermination() {
    for (int i = 0; i < MAX_IDLE_STEPS && !runtime.isTerminated(); i++) {
      if (runtime.doWork() > 0 || runtime.isTerminated()) {
        continue;
      }
      if (runtime.state() == RuntimeState.CLOSING) {
        awaitClosingOutput();
      } else {
        long next = runtime.nextTimerDeadline();
        if (next == Long.MAX_VALUE) {
          throw new IllegalStateException("the runtime is idle in state " + runtime.state()
              + " and has no timer to wait for; is an input source still open?");
        }
        clock.advance(Duration.ofNanos(Math.max(0, next - clock.nanoTime())));
      }
    }
    ExitReport r = runtime.exitReport();
    if (r == null) {
      throw new IllegalStateException("the runtime did not terminate");
    }
    return r;
  }

  /**
   * The output is closing on the closer thread: waits for it in real time up to the close
   * grace; if it is still not done, moves the clock to the shutdown deadline so the next step
   * abandons it.
   */
  private void awaitClosingOutput() {
    try {
      if (!runtime.awaitOutputClosed(closeGrace)) {
        long deadline = runtime.nextTimerDeadline();
        if (deadline != Long.MAX_VALUE && deadline - clock.nanoTime() > 0) {
          clock.advance(Duration.ofNanos(deadline - clock.nanoTime()));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  // ---------------------------------------------------------------- reading

  /** Every output collected so far. */
  public OutputTrace trace() {
    return new OutputTrace(collected.rows());
  }

  /** The present values of one output stream so far, in tick order. */
  public List<Value> values(String stream) {
    return new ArrayList<>(trace().values(stream).values());
  }

  /** The acknowledgements received so far. */
  public List<ReconfigurationAck> acknowledgements() {
    collectAcknowledgements();
    return List.copyOf(acknowledged);
  }

  /** The report of what state each accepted request moved, in request order. */
  public List<ContextTransferReport> transferReports() {
    return List.copyOf(transfers);
  }

  /** The report of the latest accepted request. */
  public ContextTransferReport lastTransferReport() {
    if (transfers.isEmpty()) {
      throw new IllegalStateException("no request was accepted");
    }
    return transfers.get(transfers.size() - 1);
  }

  /** The periodic status lines published so far ({@link RuntimeOptions#statusEvery()}). */
  public List<String> statusLines() {
    return List.copyOf(statusLines);
  }

  /** The warnings raised so far (an undeclared input name, ...). */
  public List<String> warnings() {
    return List.copyOf(warnings);
  }

  /** The runtime's status snapshot. */
  public RuntimeStatus status() {
    return runtime.status();
  }

  /** The exit report, or null while running. */
  public ExitReport exitReport() {
    return runtime.exitReport();
  }

  /** The monitor the runtime evaluates now (replaced by each accepted request). */
  public io.dataflow.core.spi.Monitor activeMonitor() {
    return runtime.activeMonitor();
  }

  /** The runtime under test. */
  public DataflowRuntime runtime() {
    return runtime;
  }

  /** The clock. */
  public ManualClock clock() {
    return clock;
  }

  /** Stops the runtime if it still runs (bounded). */
  @Override
  public void close() {
    if (!runtime.isTerminated()) {
      cancel("harness closed");
    }
  }

  /** Configures a harness. */
  public static final class Builder {
    private String specName;
    private String specText;
    private DataflowProgram program;
    private ManualClock clock = new ManualClock();
    private RuntimeOptions options = DEFAULT_OPTIONS;
    private CutoverObserver observer = CutoverObserver.NONE;
    private Duration closeGrace = Duration.ofSeconds(2);
    private int ackCapacity = 1024;
    private ReconfigurationAckSink ackSink;
    private Set<String> collectedStreams;
    private io.dataflow.reconfig.IoFactory ioFactory;
    private final List<SourceSpec> sources = new ArrayList<>();
    private final List<DestinationSpec> destinations = new ArrayList<>();

    private record SourceSpec(Source source, Set<String> streams) {}

    private record DestinationSpec(String name, OutputWriter writer, Set<String> streams,
        Backoff retry) {}

    private Builder() {}

    /** How the runtime runs (default {@link DataflowHarness#DEFAULT_OPTIONS}). */
    public Builder options(RuntimeOptions value) {
      this.options = Objects.requireNonNull(value, "options");
      return this;
    }

    /** Changes the options: {@code .options(o -> o.withContextTransfer(false))}. */
    public Builder options(UnaryOperator<RuntimeOptions> change) {
      return options(change.apply(options));
    }

    /** The clock (default: a new {@link ManualClock} at 0). */
    public Builder clock(ManualClock value) {
      this.clock = Objects.requireNonNull(value, "clock");
      return this;
    }

    /** Observes (or injects faults into) cutover steps. */
    public Builder cutoverObserver(CutoverObserver value) {
      this.observer = value;
      return this;
    }

    /** How long (real time) to wait for a closing output before the clock jumps (2 s). */
    public Builder closeGrace(Duration value) {
      this.closeGrace = value;
      return this;
    }

    /**
     * How many acknowledgements the harness's queue holds before delivery fails (default 1024;
     * {@link #reconfigure} reads it after each request).
     */
    public Builder ackCapacity(int value) {
      this.ackCapacity = value;
      return this;
    }

    /**
     * Delivers acknowledgements to this sink instead of the harness's queue (then
     * {@link #reconfigure} finds none and {@link #acknowledgements()} stays empty).
     */
    public Builder acknowledgements(ReconfigurationAckSink value) {
      this.ackSink = Objects.requireNonNull(value, "acknowledgements");
      return this;
    }

    /** Adds a source (besides the harness's own tick submission). */
    public Builder source(Source source) {
      sources.add(new SourceSpec(source, null));
      return this;
    }

    /** Adds a source owning the given streams. */
    public Builder source(Source source, Set<String> streams) {
      sources.add(new SourceSpec(source, streams));
      return this;
    }

    /** Adds a destination besides the collecting one. */
    public Builder destination(String name, OutputWriter writer) {
      destinations.add(new DestinationSpec(name, writer, null, null));
      return this;
    }

    /** Adds a destination with owned streams and retries. */
    public Builder destination(String name, OutputWriter writer, Set<String> streams,
        Backoff retry) {
      destinations.add(new DestinationSpec(name, writer, streams, retry));
      return this;
    }

    /** Creates the sources and destinations requests describe (default: the standard ones). */
    public Builder ioFactory(io.dataflow.reconfig.IoFactory value) {
      this.ioFactory = value;
      return this;
    }

    /** Restricts what the harness collects to these streams (default: every stream). */
    public Builder collect(Set<String> streams) {
      this.collectedStreams = streams;
      return this;
    }

    /** Builds the harness and opens the runtime. */
    public DataflowHarness build() {
      return new DataflowHarness(this);
    }
  }
}
