package io.dataflow.pipeline;

import io.dataflow.core.Clock;
import io.dataflow.core.SystemClock;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.SpecException;
import io.dataflow.pipeline.internal.PipelineRuntime;
import io.dataflow.pipeline.io.InMemoryCheckpointer;
import io.dataflow.pipeline.spi.Checkpointer;
import io.dataflow.pipeline.spi.KeyedSink;
import io.dataflow.pipeline.spi.PartitionedSource;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Builds a {@link DataflowPipeline}: a specification (or a compiled program), a partitioned
 * source, an acknowledging sink, and optionally a checkpointer (default: in memory, so nothing
 * survives the process), a clock and {@link PipelineOptions}.
 *
 * <p>Thread-safety: not thread-safe; build on one thread.
 */
public final class DataflowPipelineBuilder {
  // Looked up on use: a clean run never starts SLF4J (docs/decisions.md, loggers on use).
  private static org.slf4j.Logger log() {
    return org.slf4j.LoggerFactory.getLogger(DataflowPipeline.class);
  }

  private DataflowProgram program;
  private PartitionedSource source;
  private KeyedSink sink;
  private Checkpointer checkpointer;
  private Clock clock = SystemClock.INSTANCE;
  private PipelineOptions options = PipelineOptions.DEFAULTS;
  private Consumer<String> warnings = w -> log().warn("{}", w);
  private Consumer<String> statusLines = l -> log().info("{}", l);
  private Consumer<PipelineAck> acknowledgements = a -> log().info("{}", a.toLine());

  DataflowPipelineBuilder() {}

  /**
   * The specification every key runs, compiled with the options' typing mode when the pipeline
   * is built.
   *
   * @throws SpecException (at {@link #build()}) when it does not compile
   */
  public DataflowPipelineBuilder specification(String name, String text) {
    Objects.requireNonNull(text, "text");
    this.program = null;
    this.pendingName = Objects.requireNonNull(name, "name");
    this.pendingText = text;
    return this;
  }

  private String pendingName;
  private String pendingText;

  /** A compiled program every key runs. */
  public DataflowPipelineBuilder program(DataflowProgram value) {
    this.program = Objects.requireNonNull(value, "program");
    this.pendingText = null;
    return this;
  }

  /** The partitioned source (required). */
  public DataflowPipelineBuilder source(PartitionedSource value) {
    this.source = Objects.requireNonNull(value, "source");
    return this;
  }

  /** The acknowledging sink (required). */
  public DataflowPipelineBuilder sink(KeyedSink value) {
    this.sink = Objects.requireNonNull(value, "sink");
    return this;
  }

  /** Where commits persist (default: in memory). */
  public DataflowPipelineBuilder checkpointer(Checkpointer value) {
    this.checkpointer = Objects.requireNonNull(value, "checkpointer");
    return this;
  }

  /** The clock every timeout and period is measured on (default: the system clock). */
  public DataflowPipelineBuilder clock(Clock value) {
    this.clock = Objects.requireNonNull(value, "clock");
    return this;
  }

  /** The options. */
  public DataflowPipelineBuilder options(PipelineOptions value) {
    this.options = Objects.requireNonNull(value, "options");
    return this;
  }

  /** Changes the options: {@code options(o -> o.withDrivers(2))}. */
  public DataflowPipelineBuilder options(UnaryOperator<PipelineOptions> change) {
    this.options = Objects.requireNonNull(change.apply(options), "options");
    return this;
  }

  /** Where warnings go (default: SLF4J at WARN). Called from any pipeline thread. */
  public DataflowPipelineBuilder warnings(Consumer<String> value) {
    this.warnings = Objects.requireNonNull(value, "warnings");
    return this;
  }

  /** Where the periodic status lines go (default: SLF4J at INFO). */
  public DataflowPipelineBuilder statusLines(Consumer<String> value) {
    this.statusLines = Objects.requireNonNull(value, "statusLines");
    return this;
  }

  /** Where reconfiguration acknowledgements go, besides each request's future. */
  public DataflowPipelineBuilder acknowledgements(Consumer<PipelineAck> value) {
    this.acknowledgements = Objects.requireNonNull(value, "acknowledgements");
    return this;
  }

  /**
   * Builds the pipeline; nothing runs until {@link DataflowPipeline#start()} or
   * {@link DataflowPipeline#run()}.
   *
   * @throws SpecException when the specification does not compile
   * @throws IllegalStateException when the specification, source or sink is missing
   */
  public DataflowPipeline build() {
    DataflowProgram p = program;
    if (p == null && pendingText != null) {
      p = DataflowProgram.compile(pendingName, pendingText, options.typingMode());
    }
    if (p == null) {
      throw new IllegalStateException("a pipeline needs a specification");
    }
    if (source == null || sink == null) {
      throw new IllegalStateException("a pipeline needs a source and a sink");
    }
    return new PipelineRuntime(new PipelineRuntime.Parts(p, source, sink,
        checkpointer == null ? new InMemoryCheckpointer() : checkpointer, clock, options,
        warnings, statusLines, acknowledgements));
  }
}
