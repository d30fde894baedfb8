package io.dataflow.reconfig;

import io.dataflow.core.Backoff;
import io.dataflow.core.Clock;
import io.dataflow.core.DataflowRuntime;
import io.dataflow.core.internal.CheckpointStore;
import io.dataflow.core.internal.DataflowRuntimeBuilder;
import io.dataflow.core.snapshot.MonitorSnapshot;
import io.dataflow.core.snapshot.RuntimeCheckpoint;
import io.dataflow.core.spi.OutputWriter;
import io.dataflow.core.spi.Source;
import io.dataflow.core.SystemClock;
import io.dataflow.io.internal.InputPipelineSession;
import io.dataflow.io.internal.OutputPipelineSession;
import io.dataflow.monitor.ContextTransferReport;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import io.dataflow.reconfig.internal.ReconfigurationController;
import io.dataflow.reconfig.internal.ReconfigurationPlanner;

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
  // Looked up on use: a clean run never starts SLF4J (docs/decisions.md, loggers on use).
  private static org.slf4j.Logger log() {
    return org.slf4j.LoggerFactory.getLogger(ReconfigurableDataflowRuntimeBuilder.class);
  }
  private DataflowProgram program;
  private String specName;
  private String specText;
  private RuntimeOptions options = RuntimeOptions.DEFAULTS;
  private Clock clock = SystemClock.INSTANCE;
  private final List<InputPipelineSession.Binding> sources = new ArrayList<>();
  private final List<OutputPipelineSession.Destination> destinations = new ArrayList<>();
  private ReconfigurationAckSink acks;
  private CutoverObserver observer = CutoverObserver.NONE;
  private IoFactory ioFactory = new StandardIoFactory(System.out);
  private Consumer<String> warnings;
  private Consumer<String> statusLines;
  private java.nio.file.Path checkpointDir;
  private java.nio.file.Path resumeDir;
  /** The first monitor's options, or null for {@link RuntimeOptions#monitorOptions()}. */
  private DataflowMonitor.Options firstMonitorOptions;
  private Consumer<ContextTransferReport> transferReports =
      r -> log().debug("context transfer: {}", r);

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

  /** The clock every timer, deadline and timeout of the runtime reads (default: the system clock). */
  public ReconfigurableDataflowRuntimeBuilder clock(Clock value) {
    this.clock = Objects.requireNonNull(value, "clock");
    return this;
  }

  /** How the runtime runs (default {@link RuntimeOptions#DEFAULTS}). */
  public ReconfigurableDataflowRuntimeBuilder options(RuntimeOptions value) {
    this.options = Objects.requireNonNull(value, "options");
    return this;
  }

  /**
   * Receives the periodic status line ({@link RuntimeOptions#statusEvery()}), on the owner
   * thread; it must not block. Default: logged at INFO.
   */
  public ReconfigurableDataflowRuntimeBuilder statusLines(Consumer<String> value) {
    this.statusLines = Objects.requireNonNull(value, "statusLines");
    return this;
  }

  /**
   * Writes checkpoints into {@code dir} (created when missing): the monitor's snapshot and each
   * source's position, atomically, after every {@link RuntimeOptions#checkpointEveryTicks()}
   * ticks and every {@link RuntimeOptions#checkpointEvery()} of clock time, and at the end of
   * the input; the newest {@link RuntimeOptions#checkpointKeep()} are kept
   * (docs/snapshots.md#checkpoints).
   */
  public ReconfigurableDataflowRuntimeBuilder checkpoints(java.nio.file.Path dir) {
    this.checkpointDir = Objects.requireNonNull(dir, "dir");
    return this;
  }

  /**
   * Resumes from the newest readable checkpoint in {@code dir}: the monitor continues from its
   * snapshot and every source skips the items the checkpoint had taken from it. A checkpoint of
   * a run that started with this specification resumes with the specification in force at the
   * checkpoint (a request may have replaced it); one of another specification moves its state
   * into this one by the transfer rules, with a warning. An empty or missing directory starts
   * from the beginning, with a warning; an unreadable checkpoint is set aside (renamed, never
   * deleted) and the next older one is used.
   */
  public ReconfigurableDataflowRuntimeBuilder resumeFrom(java.nio.file.Path dir) {
    this.resumeDir = Objects.requireNonNull(dir, "dir");
    return this;
  }

  /**
   * The options of the monitor the run starts with (created, or restored from a checkpoint);
   * the monitors that replace it on a reconfiguration keep {@link RuntimeOptions#monitorOptions()}.
   * Default: {@link RuntimeOptions#monitorOptions()} for every monitor. {@code run} over a large
   * file asks for its first monitor's code at once (docs/decisions.md, "A run over a large file
   * generates its monitor's code before the first tick").
   */
  public ReconfigurableDataflowRuntimeBuilder firstMonitorOptions(DataflowMonitor.Options value) {
    this.firstMonitorOptions = Objects.requireNonNull(value, "firstMonitorOptions");
    return this;
  }

  /** The options of the run's first monitor. */
  private DataflowMonitor.Options firstOptions() {
    return firstMonitorOptions != null ? firstMonitorOptions : options.monitorOptions();
  }

  /** Changes the options: {@code .options(o -> o.withPolicy(ExecutionPolicy.SYNCHRONOUS))}. */
  public ReconfigurableDataflowRuntimeBuilder options(UnaryOperator<RuntimeOptions> change) {
    return options(change.apply(options));
  }






  /** Receives warnings (default: logged). */
  public ReconfigurableDataflowRuntimeBuilder warnings(Consumer<String> value) {
    this.warnings = Objects.requireNonNull(value, "warnings");
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
        : DataflowProgram.compile(require(specName, "a specification"), specText,
            options.typingMode());
    if (destinations.isEmpty()) {
      throw new IllegalStateException("at least one destination is required");
    }
    String baseKey = p.definitionKey();
    DataflowMonitor monitor = resumeDir == null ? DataflowMonitor.create(p, firstOptions())
        : resume(p);
    InputPipelineSession in = warnings == null ? new InputPipelineSession(sources)
        : new InputPipelineSession(sources, warnings);
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
    ReconfigurationAckSink ackSink = acks != null ? acks : ack -> log().info("{}", ack.toLine());
    ReconfigurationController controller = new ReconfigurationController(in, out,
        new ReconfigurationPlanner(ioFactory, options.typingMode(), options.contextTransfer()),
        ioFactory, ackSink, options.rejectPolicy(), observer, transferReports,
        options.monitorOptions(), inputOwners, outputOwners);
    DataflowRuntimeBuilder runtime = new DataflowRuntimeBuilder().name(options.name())
        .clock(clock).policy(options.policy()).window(options.window())
        .ingressCapacity(options.ingressCapacity()).closeTimeout(options.closeTimeout())
        .statusEvery(options.statusEvery(), statusLines);
    if (warnings != null) {
      runtime.warnings(warnings::accept);
    }
    if (checkpointDir != null) {
      try {
        runtime.checkpoints(new CheckpointStore(checkpointDir, options.checkpointKeep()),
            options.checkpointEveryTicks(), options.checkpointEvery(), baseKey);
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException("cannot use the checkpoint directory "
            + checkpointDir, e);
      }
    }
    return runtime.monitor(monitor).input(in).output(out).controlHandler(controller).build();
  }

  /** A checkpoint that read back and restored. */
  private record Resumed(RuntimeCheckpoint checkpoint, DataflowMonitor monitor,
      io.dataflow.monitor.ContextTransferReport transferred) {}

  /** The monitor of a resumed run; positions the sources (see {@link #resumeFrom}). */
  private DataflowMonitor resume(DataflowProgram p) {
    if (!java.nio.file.Files.isDirectory(resumeDir)) {
      warn("no checkpoint in " + resumeDir + "; starting from the beginning");
      return DataflowMonitor.create(p, firstOptions());
    }
    java.util.Optional<CheckpointStore.Loaded<Resumed>> latest;
    try {
      // Reading includes restoring: a checkpoint that reads but does not restore is set aside
      // like a corrupted one, and the next older one is tried.
      latest = new CheckpointStore(resumeDir, options.checkpointKeep())
          .latest((file, bytes) -> restore(p, RuntimeCheckpoint.fromBytes(bytes)));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException("cannot read the checkpoint directory "
          + resumeDir, e);
    }
    if (latest.isEmpty()) {
      warn("no checkpoint in " + resumeDir + "; starting from the beginning");
      return DataflowMonitor.create(p, firstOptions());
    }
    latest.get().setAside().forEach(a -> warn("checkpoint " + a.file() + " could not be read ("
        + a.reason() + "); set aside"));
    Resumed r = latest.get().content();
    if (r.transferred() != null) {
      warn("the checkpoint " + latest.get().file() + " was taken with another specification ("
          + r.checkpoint().specificationName() + "); its state moved by the transfer rules: kept "
          + r.transferred().transferred() + ", started cold " + r.transferred().initialized()
          + ", histories " + r.transferred().historiesRetained());
    }
    for (InputPipelineSession.Binding b : sources) {
      try {
        b.source().resumeAfter(r.checkpoint().positions().getOrDefault(b.source().name(), 0L));
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException("source '" + b.source().name() + "' cannot resume: "
            + e.getMessage(), e);
      }
    }
    return r.monitor();
  }

  /** Restores a checkpoint's monitor for a run of {@code p} (see {@link #resumeFrom}). */
  private Resumed restore(DataflowProgram p, RuntimeCheckpoint c) {
    if (c.baseKey().equals(p.definitionKey()) && c.specification() != null) {
      // The same run: continue with the specification then in force.
      DataflowProgram inForce = DataflowProgram.compile(c.specificationName(), c.specification(),
          options.typingMode());
      return new Resumed(c, DataflowMonitor.restore(inForce, c.snapshot(),
          firstOptions()).monitor(), null);
    }
    DataflowMonitor.Transition t = DataflowMonitor.restore(p, c.snapshot(), firstOptions());
    // Started with another specification but now given the one in force: nothing to announce.
    boolean same = MonitorSnapshot.sameHash(c.snapshot().definitionKey(), p.definitionKey());
    return new Resumed(c, t.monitor(), same ? null : t.report());
  }

  private void warn(String message) {
    if (warnings != null) {
      warnings.accept(message);
    } else {
      log().warn("{}", message);
    }
  }

  private static String require(String value, String what) {
    if (value == null) {
      throw new IllegalStateException(what + " is required");
    }
    return value;
  }
}
