package io.dataflow.reconfig;

import io.dataflow.core.Backoff;
import io.dataflow.core.Clock;
import io.dataflow.core.DataflowRuntime;
import io.dataflow.core.DataflowRuntimeBuilder;
import io.dataflow.core.DirectDataflowEngine;
import io.dataflow.core.ExecutionPolicy;
import io.dataflow.core.InputWindow;
import io.dataflow.core.OutputWriter;
import io.dataflow.core.Source;
import io.dataflow.core.SystemClock;
import io.dataflow.io.InputPipelineSession;
import io.dataflow.io.OutputPipelineSession;
import io.dataflow.monitor.ContextTransferReport;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.TypingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The entry point for a runtime whose specification can be replaced live. It compiles the
 * specification, wires the sources and destinations into pipeline sessions, and installs the
 * reconfiguration controller as the runtime's control handler.
 *
 * <pre>{@code
 * AckQueue acks = new AckQueue(16);
 * DataflowRuntime runtime = ReconfigurableDataflowRuntimeBuilder.create()
 *     .specification("counter.dsrv", "in x\nout z\nz = default(z[1], 0) + x")
 *     .destination("out", Sinks.text(System.out))
 *     .acknowledgements(acks)
 *     .build();
 * runtime.start();
 * runtime.offer(Tick.of("x", Value.of(1)));
 * runtime.submitControl(ReconfigurationRequest.of(newSpec), Duration.ofSeconds(1));
 * }</pre>
 *
 * <p>Thread-safety: a builder is used by one thread; {@link #build()} may be called once.
 */
public final class ReconfigurableDataflowRuntimeBuilder {
  private static final org.slf4j.Logger LOG =
      org.slf4j.LoggerFactory.getLogger(ReconfigurableDataflowRuntimeBuilder.class);
  private DataflowProgram program;
  private String specName;
  private String specText;
  private TypingMode typingMode = TypingMode.GRADUAL;
  private final List<InputPipelineSession.Binding> sources = new ArrayList<>();
  private final List<OutputPipelineSession.Destination> destinations = new ArrayList<>();
  private final DataflowRuntimeBuilder runtime = DataflowRuntime.builder();
  private DataflowMonitor.Options monitorOptions = DataflowMonitor.Options.DEFAULT;
  private boolean contextTransfer = true;
  private ReconfigurationAckSink acks;
  private RejectPolicy rejectPolicy = RejectPolicy.END_RUN;
  private CutoverObserver observer = CutoverObserver.NONE;
  private IoFactory ioFactory = new StandardIoFactory(System.out);
  private DirectDataflowEngine.Warnings warnings;
  private Consumer<ContextTransferReport> transferReports =
      r -> LOG.debug("context transfer: {}", r);

  private ReconfigurableDataflowRuntimeBuilder() {}

  /** A new builder. */
  public static ReconfigurableDataflowRuntimeBuilder create() {
    return new ReconfigurableDataflowRuntimeBuilder();
  }

  /** The specification to run, compiled at {@link #build()} ({@code name} is used in errors). */
  public ReconfigurableDataflowRuntimeBuilder specification(String name, String text) {
    this.specName = Objects.requireNonNull(name, "name");
    this.specText = Objects.requireNonNull(text, "text");
    this.program = null;
    return this;
  }

  /** An already compiled program to run. */
  public ReconfigurableDataflowRuntimeBuilder program(DataflowProgram value) {
    this.program = Objects.requireNonNull(value, "program");
    this.specText = null;
    return this;
  }

  /** The typing mode for the specification and every replacement (default gradual). */
  public ReconfigurableDataflowRuntimeBuilder typingMode(TypingMode value) {
    this.typingMode = Objects.requireNonNull(value, "typingMode");
    return this;
  }

  /** Adds a source owning whatever it delivers. */
  public ReconfigurableDataflowRuntimeBuilder source(Source source) {
    sources.add(InputPipelineSession.Binding.of(source));
    return this;
  }

  /** Adds a source owning the given input streams. */
  public ReconfigurableDataflowRuntimeBuilder source(Source source, Set<String> streams) {
    sources.add(new InputPipelineSession.Binding(source, streams));
    return this;
  }

  /**
   * Adds a destination receiving every output stream that no destination names explicitly
   * (every stream when none does).
   */
  public ReconfigurableDataflowRuntimeBuilder destination(String name, OutputWriter writer) {
    destinations.add(OutputPipelineSession.Destination.all(name, writer));
    return this;
  }

  /**
   * Adds a destination.
   *
   * @param streams the output streams it owns, or null for every stream no other
   *     destination owns
   * @param retry backoff for {@link io.dataflow.core.RetryableException}s, or null
   */
  public ReconfigurableDataflowRuntimeBuilder destination(String name, OutputWriter writer,
      Set<String> streams, Backoff retry) {
    destinations.add(new OutputPipelineSession.Destination(name, writer, streams, retry));
    return this;
  }

  /**
   * Adds a tap: a destination that receives every output stream whatever the routing, also
   * after a request moves streams to other destinations (a collector, metrics, debugging).
   */
  public ReconfigurableDataflowRuntimeBuilder tap(String name, OutputWriter writer) {
    destinations.add(OutputPipelineSession.Destination.tap(name, writer));
    return this;
  }

  /** The clock (default: the system clock). */
  public ReconfigurableDataflowRuntimeBuilder clock(Clock value) {
    runtime.clock(value);
    return this;
  }

  /** The flush policy (default buffered). */
  public ReconfigurableDataflowRuntimeBuilder policy(ExecutionPolicy value) {
    runtime.policy(value);
    return this;
  }

  /** The input window (default none). */
  public ReconfigurableDataflowRuntimeBuilder window(InputWindow value) {
    runtime.window(value);
    return this;
  }

  /** The ingress queue capacity (default 4096). */
  public ReconfigurableDataflowRuntimeBuilder ingressCapacity(int value) {
    runtime.ingressCapacity(value);
    return this;
  }

  /** How long closing the output may take (default 30 s). */
  public ReconfigurableDataflowRuntimeBuilder closeTimeout(Duration value) {
    runtime.closeTimeout(value);
    return this;
  }

  /** The runtime's name (threads, logs). */
  public ReconfigurableDataflowRuntimeBuilder name(String value) {
    runtime.name(value);
    return this;
  }

  /** Receives warnings (default: logged). */
  public ReconfigurableDataflowRuntimeBuilder warnings(DirectDataflowEngine.Warnings value) {
    this.warnings = Objects.requireNonNull(value, "warnings");
    runtime.warnings(value);
    return this;
  }

  /** Monitor options (the dynamic-property cache size). */
  public ReconfigurableDataflowRuntimeBuilder monitorOptions(DataflowMonitor.Options value) {
    this.monitorOptions = Objects.requireNonNull(value, "monitorOptions");
    return this;
  }

  /** Whether state moves to a replacement (default true); false means InstallCold always. */
  public ReconfigurableDataflowRuntimeBuilder contextTransfer(boolean value) {
    this.contextTransfer = value;
    return this;
  }

  /** Where acknowledgements go (default: logged at INFO). */
  public ReconfigurableDataflowRuntimeBuilder acknowledgements(ReconfigurationAckSink value) {
    this.acks = Objects.requireNonNull(value, "acknowledgements");
    return this;
  }

  /**
   * Receives the detailed report of the state each accepted request moved (which streams kept
   * their state, which started cold, which histories moved). Called on the owner thread right
   * after the monitor was replaced, before the acknowledgement; it must not block, and throwing
   * fails the cutover like any other step. Default: logged at DEBUG.
   */
  public ReconfigurableDataflowRuntimeBuilder transferReports(
      Consumer<ContextTransferReport> value) {
    this.transferReports = Objects.requireNonNull(value, "transferReports");
    return this;
  }

  /** What a rejected request does (default: end the run). */
  public ReconfigurableDataflowRuntimeBuilder onRejected(RejectPolicy value) {
    this.rejectPolicy = Objects.requireNonNull(value, "rejectPolicy");
    return this;
  }

  /** Observes (and, in tests, injects faults into) each cutover step. */
  public ReconfigurableDataflowRuntimeBuilder cutoverObserver(CutoverObserver value) {
    this.observer = Objects.requireNonNull(value, "observer");
    return this;
  }

  /** Creates the sources and destinations requests describe (default: the standard types). */
  public ReconfigurableDataflowRuntimeBuilder ioFactory(IoFactory value) {
    this.ioFactory = Objects.requireNonNull(value, "ioFactory");
    return this;
  }

  /**
   * Compiles the specification and builds the runtime (not started).
   *
   * @throws io.dataflow.monitor.SpecException when the specification does not compile
   */
  public DataflowRuntime build() {
    DataflowProgram p = program != null ? program
        : DataflowProgram.compile(require(specName, "a specification"), specText, typingMode);
    if (destinations.isEmpty()) {
      throw new IllegalStateException("at least one destination is required");
    }
    InputPipelineSession in = warnings == null ? new InputPipelineSession(sources)
        : new InputPipelineSession(sources, warnings::warn);
    OutputPipelineSession out = new OutputPipelineSession(destinations);
    Map<String, String> inputOwners = new LinkedHashMap<>();
    for (InputPipelineSession.Binding b : sources) {
      if (b.streams() != null) {
        b.streams().forEach(s -> inputOwners.put(s, b.source().name()));
      }
    }
    Map<String, String> outputOwners = new LinkedHashMap<>();
    for (OutputPipelineSession.Destination d : destinations) {
      if (d.streams() != null) {
        d.streams().forEach(s -> outputOwners.put(s, d.name()));
      }
    }
    ReconfigurationAckSink ackSink = acks != null ? acks : ack -> LOG.info("{}", ack.toLine());
    ReconfigurationController controller = new ReconfigurationController(in, out,
        new ReconfigurationPlanner(ioFactory, typingMode, contextTransfer), ioFactory, ackSink,
        rejectPolicy, observer, transferReports, monitorOptions, inputOwners, outputOwners);
    return runtime.monitor(DataflowMonitor.create(p, monitorOptions)).input(in).output(out)
        .controlHandler(controller).build();
  }

  private static String require(String value, String what) {
    if (value == null) {
      throw new IllegalStateException(what + " is required");
    }
    return value;
  }
}
