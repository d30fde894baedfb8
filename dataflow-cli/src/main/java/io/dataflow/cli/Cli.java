package io.dataflow.cli;

import io.dataflow.core.DataflowRuntime;
import io.dataflow.core.ExecutionPolicy;
import io.dataflow.core.ExitReport;
import io.dataflow.core.MonitorException;
import io.dataflow.core.spi.OutputWriter;
import io.dataflow.core.spi.Source;
import io.dataflow.io.JsonLinesSource;
import io.dataflow.io.Sinks;
import io.dataflow.io.TraceException;
import io.dataflow.io.TraceFileSource;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.SpecException;
import io.dataflow.mqtt.MqttConfigException;
import io.dataflow.mqtt.MqttOptions;
import io.dataflow.mqtt.MqttTransport;
import io.dataflow.mqtt.OnBadRecord;
import io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder;
import io.dataflow.reconfig.RequestException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import picocli.CommandLine;

/**
 * The command line: runs a command that {@link Commands} parsed, maps the outcome to an exit
 * status.
 */
final class Cli {
  static final int OK = 0;
  static final int FAILED = 1;
  static final int INVALID = 2;

  private Cli() {}

  /** Runs {@code args} with stdout and stderr as pipes (no progress line): tests, embedding. */
  static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    return run(args, in, out, err, Environment.pipes());
  }

  /** Runs {@code args} in {@code env}, and returns the exit status. */
  static int run(String[] args, InputStream in, PrintStream out, PrintStream err,
      Environment env) {
    if (args.length == 0) {
      err.print(Usage.TEXT);
      return INVALID;
    }
    Commands.Context ctx = new Commands.Context(in, out, err, env);
    Integer quick = QuickCommands.run(args, ctx);
    if (quick != null) {
      out.flush();
      err.flush();
      return quick;
    }
    return withPicocli(args, ctx);
  }

  /** Parses and runs {@code args} with picocli: every form, help and usage errors. */
  static int withPicocli(String[] args, Commands.Context ctx) {
    CommandLine cl = Commands.commandLine(ctx, args);
    int status = cl.execute(args);
    cl.getOut().flush();
    cl.getErr().flush();
    return status;
  }

  static int checkCommand(Path spec, PrintStream out, PrintStream err) {
    try {
      DataflowProgram p = DataflowProgram.compile(spec.toString(), readSpec(spec));
      out.println(spec + ": ok (" + p.inputs().width() + " inputs, " + p.outputs().width()
          + " outputs)");
      return OK;
    } catch (SpecException e) {
      err.println(e.getMessage());
      return INVALID;
    } catch (IOException e) {
      err.println(spec + ": cannot read: " + describe(e));
      return INVALID;
    }
  }

  /** {@code dataflow snapshot show FILE}: the file as JSON (docs/snapshots.md). */
  static int showSnapshot(Path file, PrintStream out, PrintStream err) {
    byte[] bytes;
    try {
      if (Files.size(file) > io.dataflow.core.snapshot.RuntimeCheckpoint.MAX_BYTES) {
        err.println(file + ": " + Files.size(file) + " bytes is more than a snapshot or a"
            + " checkpoint may hold");
        return INVALID;
      }
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      err.println(file + ": cannot read: " + describe(e));
      return INVALID;
    }
    try {
      boolean checkpoint = bytes.length >= 4 && bytes[0] == 'D' && bytes[1] == 'F'
          && bytes[2] == 'C' && bytes[3] == 'P';
      out.println(checkpoint
          ? io.dataflow.io.SnapshotJson.checkpointToJson(
              io.dataflow.core.snapshot.RuntimeCheckpoint.fromBytes(bytes))
          : io.dataflow.io.SnapshotJson.toJson(
              io.dataflow.core.snapshot.MonitorSnapshot.fromBytes(bytes)));
      return OK;
    } catch (io.dataflow.core.snapshot.SnapshotException e) {
      err.println(file + ": " + e.getMessage());
      return INVALID;
    }
  }

  static int runCommand(RunOptions options, Commands.Context ctx) {
    PrintStream err = ctx.err();
    if (!readable(options.inputFile(), err)) {
      return INVALID;
    }
    // A .jsonl file holds JSON Lines ticks (as live reads them); anything else is a trace file.
    Source trace = isJsonLines(options.inputFile())
        ? JsonLinesSource.file("trace", options.inputFile())
        : TraceFileSource.open("trace", options.inputFile());
    return execute(options, trace, RUN_POLICY, ctx, false,
        firstMonitorOptions(options.inputFile(), DataflowMonitor.Options.DEFAULT));
  }

  /**
   * The input size from which {@code run} generates its monitor's code before the first tick:
   * 1 MiB, about 50 000 ticks of two values (docs/decisions.md, "A run over a large file
   * generates its monitor's code before the first tick").
   */
  static final long EAGER_CODE_BYTES = 1L << 20;

  /**
   * The options of the first monitor of a {@code run} over {@code input}: {@code base} with its
   * code generated at creation when the file holds at least {@link #EAGER_CODE_BYTES} and
   * {@code base} would generate it in the background; {@code base} otherwise (a short run does
   * not wait for code generation, and {@code -Ddataflow.monitor.fused} still decides).
   */
  static DataflowMonitor.Options firstMonitorOptions(Path input, DataflowMonitor.Options base) {
    if (base.fusion() != DataflowMonitor.Fusion.BACKGROUND) {
      return base;
    }
    long size;
    try {
      size = Files.size(input);
    } catch (IOException e) {
      return base; // the source reports what it cannot read
    }
    return size >= EAGER_CODE_BYTES ? base.withFusion(DataflowMonitor.Fusion.EAGER) : base;
  }

  /**
   * {@code run}'s output policy: flushed when the writer's buffer fills, at every control
   * barrier and at the end of the input, not every 256 ticks ({@link ExecutionPolicy#BUFFERED}):
   * a file's run has no one waiting for its next line, and a write per 256 ticks was a
   * quarter of the system calls of a 2 M-tick run.
   */
  static final ExecutionPolicy RUN_POLICY = new ExecutionPolicy(Integer.MAX_VALUE);

  /** True for an input file named {@code *.jsonl}: JSON Lines, not a trace file. */
  static boolean isJsonLines(Path input) {
    Path name = input.getFileName();
    return name != null && name.toString().endsWith(".jsonl");
  }

  /** The keyed pipeline's options of {@code run --key}. */
  record Keyed(String field, int partitions, int drivers, boolean skipBadRecords) {}

  /**
   * {@code run --key}: the keyed pipeline over a JSON Lines file (docs/pipeline.md#cli). A bad
   * record ends the run with exit status 1 after the earlier output.
   */
  static int keyedRunCommand(RunOptions options, Keyed keyed, Commands.Context ctx) {
    PrintStream out = ctx.out();
    PrintStream err = ctx.err();
    if (!readable(options.inputFile(), err)) {
      return INVALID;
    }
    String text = specText(options.spec(), err);
    if (text == null) {
      return INVALID;
    }
    Consumer<String> warn = w -> err.println("warning: " + w);
    io.dataflow.pipeline.DataflowPipeline pipeline;
    try {
      pipeline = io.dataflow.pipeline.DataflowPipeline.builder()
          .specification(options.spec().toString(), text)
          .source(new io.dataflow.pipeline.io.JsonLinesPartitionedSource(options.inputFile(),
              keyed.field(), keyed.partitions(), keyed.skipBadRecords()
                  ? io.dataflow.pipeline.io.JsonLinesPartitionedSource.OnBadRecord.SKIP
                  : io.dataflow.pipeline.io.JsonLinesPartitionedSource.OnBadRecord.FAIL, warn))
          .sink(options.format().equals("jsonl")
              ? io.dataflow.pipeline.io.KeyedSinks.jsonLines(out)
              : io.dataflow.pipeline.io.KeyedSinks.text(out))
          .options(o -> o.withDrivers(keyed.drivers()).withStatusEvery(options.statusEvery())
              .withReconfiguration(o.typingMode(), options.contextTransfer()))
          .warnings(warn)
          .statusLines(err::println)
          .build();
    } catch (SpecException e) {
      err.println(e.getMessage());
      return INVALID;
    }
    // SIGTERM or Ctrl-C: the pipeline's one-deadline shutdown.
    Signals.Handle hook = onSignal(ctx.env().signals(), pipeline::shutdown,
        pipeline::awaitTermination);
    io.dataflow.pipeline.PipelineExitReport report;
    try {
      report = pipeline.run();
    } catch (InterruptedException e) {
      err.println("dataflow: interrupted");
      return FAILED;
    } finally {
      hook.remove();
    }
    out.flush();
    // A bad record is the input's fault, but the earlier output stands: status 1, not 2.
    return exitStatus(report.run(), err) == OK ? OK : FAILED;
  }

  /** What {@code kafka} runs with, besides the specification. */
  record KafkaRun(Path spec, String bootstrap, String inputTopic, String outputTopic,
      String group, String keyField, String controlTopic, String instance, int drivers) {}

  /**
   * Runs the keyed pipeline on Kafka until SIGTERM or Ctrl-C, which is the one-deadline
   * shutdown with a final commit.
   */
  static int kafkaCommand(KafkaRun k, Commands.Context ctx) {
    PrintStream err = ctx.err();
    String text = specText(k.spec(), err);
    if (text == null) {
      return INVALID;
    }
    Consumer<String> warn = w -> err.println("warning: " + w);
    io.dataflow.kafka.KafkaPipeline pipeline;
    try {
      pipeline = io.dataflow.kafka.KafkaPipeline.builder().bootstrap(k.bootstrap())
          .inputTopic(k.inputTopic()).outputTopic(k.outputTopic()).group(k.group())
          .keyField(k.keyField()).controlTopic(k.controlTopic()).instance(k.instance())
          .specification(k.spec().toString(), text)
          .options(o -> o.withDrivers(k.drivers())).warnings(warn).build();
    } catch (SpecException e) {
      err.println(e.getMessage());
      return INVALID;
    } catch (org.apache.kafka.common.KafkaException e) {
      err.println("dataflow: kafka: " + e.getMessage());
      return FAILED;
    }
    // SIGTERM or Ctrl-C: the one-deadline shutdown with a final commit. In a process the JVM
    // halts when the handler returns, so it waits for this thread's report too (bounded).
    CountDownLatch reported = new CountDownLatch(1);
    Signals.Handle hook = onSignal(ctx.env().signals(), pipeline::shutdown, timeout -> {
      pipeline.awaitTermination(timeout);
      reported.await(5, TimeUnit.SECONDS);
    });
    try {
      io.dataflow.pipeline.PipelineExitReport report;
      try {
        pipeline.start();
        report = pipeline.pipeline().run();
      } catch (InterruptedException e) {
        err.println("dataflow: interrupted");
        return FAILED;
      } finally {
        hook.remove();
        pipeline.close();
      }
      err.println("committed " + report.committed());
      int status = exitStatus(report.run(), err) == OK ? OK : FAILED;
      err.flush();
      return status;
    } finally {
      reported.countDown();
    }
  }

  static int liveCommand(RunOptions options, Commands.Context ctx) {
    Source stdin = JsonLinesSource.stream("stdin", ctx.in(), "<stdin>");
    // Each batch stdin delivers is what was read before a read that may wait: flushing after
    // it (once the owner caught up) shows every output as soon as its line was evaluated.
    return execute(options, stdin, LIVE_POLICY, ctx, true, DataflowMonitor.Options.DEFAULT);
  }

  /**
   * {@code live}'s output policy: flushed after each delivered batch that no other input is
   * queued behind (a paused input's outputs at once), when the writer's buffer fills, at every
   * control barrier and at the end, not also every 256 ticks ({@link ExecutionPolicy#INTERACTIVE}).
   */
  static final ExecutionPolicy LIVE_POLICY = new ExecutionPolicy(Integer.MAX_VALUE, true);

  /** The MQTT options of {@code live --mqtt} (docs/mqtt.md). */
  record Mqtt(String broker, String inputTopics, String outputTopics, String controlTopic,
      String clientId, boolean skipBadRecords) {}

  /**
   * {@code live --mqtt}: inputs from their topics, outputs published to theirs and printed,
   * requests on the control topic. Runs until Ctrl-C (the one-deadline shutdown) or a failure;
   * a bad payload ends the run with exit status 1 after the earlier output, unless skipped.
   */
  static int liveMqttCommand(RunOptions options, Mqtt mqtt, Commands.Context ctx) {
    PrintStream out = ctx.out();
    PrintStream err = ctx.err();
    String text = specText(options.spec(), err);
    if (text == null) {
      return INVALID;
    }
    DataflowProgram program;
    try {
      program = DataflowProgram.compile(options.spec().toString(), text);
    } catch (SpecException e) {
      err.println(e.getMessage());
      return INVALID;
    }
    Consumer<String> warn = w -> err.println("warning: " + w);
    MqttTransport transport;
    DataflowRuntime runtime;
    try {
      MqttOptions.Builder o = MqttOptions.builder(mqtt.broker()).warnings(warn)
          .inputTopics(mqtt.inputTopics()).outputTopics(mqtt.outputTopics())
          .controlTopic(mqtt.controlTopic())
          .onBadRecord(mqtt.skipBadRecords() ? OnBadRecord.SKIP : OnBadRecord.FAIL);
      if (mqtt.clientId() != null) {
        o.clientId(mqtt.clientId());
      }
      transport = MqttTransport.create(o.build());
      OutputWriter writer = options.format().equals("jsonl") ? Sinks.jsonLines(out)
          : Sinks.text(out);
      ReconfigurableDataflowRuntimeBuilder builder = transport.attach(
          ReconfigurableDataflowRuntimeBuilder.create().tap("stdout", writer), program, ack -> {
            err.println(ack.toLine());
            err.flush();
          });
      runtime = builder
          .options(x -> x.withPolicy(ExecutionPolicy.SYNCHRONOUS)
              .withContextTransfer(options.contextTransfer())
              .withStatusEvery(options.statusEvery()))
          .statusLines(line -> err.println(line + " " + transport.status().toLine()))
          .warnings(warn)
          .ioFactory(transport.ioFactory(new io.dataflow.reconfig.StandardIoFactory(out)))
          .build();
    } catch (MqttConfigException e) {
      err.println("dataflow: " + e.getMessage());
      return INVALID;
    }
    Signals.Handle hook = onSignal(ctx.env().signals(), runtime::stop, timeout -> {
      try {
        runtime.awaitTermination(timeout);
      } finally {
        transport.close();
      }
    });
    ExitReport report;
    try {
      runtime.start();
      report = runtime.awaitTermination(Duration.ofDays(3650));
    } catch (InterruptedException | TimeoutException e) {
      err.println("dataflow: interrupted");
      return FAILED;
    } finally {
      hook.remove();
    }
    transport.close();
    out.flush();
    return exitStatus(report, err);
  }

  private static int execute(RunOptions options, Source source, ExecutionPolicy policy,
      Commands.Context ctx, boolean live, DataflowMonitor.Options firstMonitor) {
    PrintStream out = ctx.out();
    PrintStream err = ctx.err();
    String text = specText(options.spec(), err);
    if (text == null) {
      return INVALID;
    }
    // The progress line of a run, only when stderr is a terminal: with pipes, the streams get
    // exactly what they got before there was one.
    Environment env = ctx.env();
    ProgressLine progress = !live && env.stderrIsTerminal()
        ? new ProgressLine(env.clock(), err) : null;
    OutputStream stdout = progress != null && env.stdoutIsTerminal() ? progress.guard(out) : out;
    Consumer<String> stderrLine = progress == null ? err::println : progress::message;
    OutputWriter writer = options.format().equals("jsonl") ? Sinks.jsonLines(stdout)
        : Sinks.text(stdout);
    DataflowRuntime runtime;
    try {
      ReconfigurableDataflowRuntimeBuilder builder = ReconfigurableDataflowRuntimeBuilder.create()
          .specification(options.spec().toString(), text)
          .source(source)
          .destination("stdout", writer)
          .options(o -> o.withPolicy(policy).withContextTransfer(options.contextTransfer())
              .withStatusEvery(options.statusEvery())
              .withCheckpointEveryTicks(options.checkpointEvery()))
          .statusLines(stderrLine)
          .acknowledgements(ack -> {
            stderrLine.accept(ack.toLine());
            err.flush();
          })
          .warnings(w -> stderrLine.accept("warning: " + w))
          .ioFactory(new io.dataflow.reconfig.StandardIoFactory(stdout))
          .firstMonitorOptions(firstMonitor);
      if (options.checkpointDir() != null) {
        builder.checkpoints(options.checkpointDir());
      }
      if (options.resume() != null) {
        builder.resumeFrom(options.resume());
      }
      runtime = builder.build();
    } catch (SpecException | io.dataflow.core.snapshot.SnapshotException e) {
      err.println(e.getMessage());
      return INVALID;
    } catch (java.io.UncheckedIOException e) {
      err.println("dataflow: " + e.getMessage() + ": " + describe(e.getCause()));
      return INVALID;
    }
    ExitReport report;
    if (live) {
      Signals.Handle hook = onSignal(env.signals(), runtime::stop, runtime::awaitTermination);
      runtime.start();
      try {
        report = runtime.awaitTermination(Duration.ofDays(3650));
      } catch (InterruptedException | TimeoutException e) {
        err.println("dataflow: interrupted");
        return FAILED;
      }
      hook.remove();
    } else if (progress == null) {
      report = runtime.runInCallerThread();
    } else {
      ProgressReporter reporter = ProgressReporter.start(progress,
          () -> runtime.status().ticksIn(), env.clock());
      try {
        report = runtime.runInCallerThread();
      } finally {
        reporter.close(); // clears the line before the final messages
      }
    }
    out.flush();
    return exitStatus(report, err);
  }

  /** A wait for a run's end, bounded by the given timeout. */
  @FunctionalInterface
  interface Await {
    void await(Duration timeout) throws InterruptedException, TimeoutException;
  }

  /**
   * Installs the handler of SIGTERM and Ctrl-C: {@code stop} with a 10 s deadline, then a wait
   * of at most 15 s for the run to end (in a process, the JVM exits either way).
   */
  static Signals.Handle onSignal(Signals signals, java.util.function.Consumer<Duration> stop,
      Await await) {
    return signals.install(() -> {
      stop.accept(Duration.ofSeconds(10));
      try {
        await.await(Duration.ofSeconds(15));
      } catch (InterruptedException | TimeoutException ignored) {
        // exiting anyway
      }
    });
  }

  /** Maps a run's outcome to the exit status of docs/cli.md#exit-status, reporting on stderr. */
  static int exitStatus(ExitReport report, PrintStream err) {
    for (String w : report.warnings()) {
      // Lost rows are reported once: as the failure itself, or beside another failure.
      if (w.startsWith("the output did not close") && !w.equals(report.reason())) {
        err.println("dataflow: " + w);
      }
    }
    if (report.isCompleted()) {
      return OK;
    }
    Throwable cause = report.cause();
    while (cause instanceof io.dataflow.core.ComponentException
        || (cause instanceof io.dataflow.core.DataflowException && cause.getCause() != null
            && !(cause instanceof MonitorException) && cause.getCause() instanceof TraceException)) {
      cause = cause.getCause();
    }
    if (cause instanceof TraceException t) {
      err.println(t.getMessage());
      return INVALID;
    }
    if (cause instanceof RequestException r && r.isSyntax()) {
      err.println(r.getMessage());
      return INVALID;
    }
    if (cause instanceof MonitorException m) {
      err.println(m.describe());
      return FAILED;
    }
    if (cause instanceof NoSuchFileException || (cause instanceof IOException
        && "startup".equals(report.component()))) {
      err.println("dataflow: cannot read input: " + describe((Exception) cause));
      return INVALID;
    }
    String reason = cause == null ? report.reason() : describe(cause);
    err.println("dataflow: " + report.component() + " failed: " + reason);
    return FAILED;
  }

  /** The text of {@code spec}, or null after saying on {@code err} why it cannot be read. */
  static String specText(Path spec, PrintStream err) {
    try {
      return readSpec(spec);
    } catch (IOException e) {
      err.println(spec + ": cannot read: " + describe(e));
      return null;
    }
  }

  /** True when {@code input} can be read; otherwise says why on {@code err}. */
  static boolean readable(Path input, PrintStream err) {
    if (Files.isReadable(input)) {
      return true;
    }
    err.println(input + ": cannot read: " + (Files.exists(input) ? "permission denied"
        : "no such file"));
    return false;
  }

  static String readSpec(Path spec) throws IOException {
    return Files.readString(spec, StandardCharsets.UTF_8);
  }

  static String describe(Throwable e) {
    if (e instanceof NoSuchFileException n) {
      return n.getFile() + ": no such file";
    }
    if (e instanceof UncheckedIOException u) {
      return describe(u.getCause());
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
