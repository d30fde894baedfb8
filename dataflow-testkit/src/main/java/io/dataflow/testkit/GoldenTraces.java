package io.dataflow.testkit;

import io.dataflow.core.DataflowRuntime;
import io.dataflow.core.ExitReport;
import io.dataflow.core.Row;
import io.dataflow.core.Value;
import io.dataflow.io.Sinks;
import io.dataflow.io.TextOutputWriter;
import io.dataflow.io.TraceFileSource;
import io.dataflow.io.TraceReader;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.monitor.DataflowProgram;
import io.dataflow.monitor.TransferMapping;
import io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder;
import io.dataflow.reconfig.ReconfigurationRequest;
import io.dataflow.reconfig.RequestDecoder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.opentest4j.AssertionFailedError;

/**
 * Golden traces: a folder of {@code NAME.dsrv} / {@code NAME.input} / {@code NAME.expected}
 * triples (the format of this project's {@code conformance/} folder) run as one JUnit 5 test per
 * case, with a line diff when the output differs.
 *
 * <pre>{@code
 * @TestFactory
 * Stream<DynamicTest> goldenTraces() {
 *   return GoldenTraces.tests(Path.of("src/test/golden"), GoldenTraces::runWithMonitor);
 * }
 * }</pre>
 */
public final class GoldenTraces {
  private GoldenTraces() {}

  /**
   * One case.
   *
   * @param name the case name (the file stem)
   * @param spec the specification file
   * @param input the trace file
   * @param expected the expected text output
   */
  public record Case(String name, Path spec, Path input, Path expected) {
    /** The expected output text. */
    public String expectedText() throws IOException {
      return Files.readString(expected, StandardCharsets.UTF_8);
    }

    /** The specification text. */
    public String specText() throws IOException {
      return Files.readString(spec, StandardCharsets.UTF_8);
    }
  }

  /** How a path under test turns a case into output text. */
  @FunctionalInterface
  public interface Runner {
    /** Runs the case and returns the text output. */
    String run(Case c) throws Exception;
  }

  /** The cases in a folder, sorted by name: every {@code .dsrv} with its two siblings. */
  public static List<Case> discover(Path dir) {
    List<Case> cases = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      files.filter(p -> p.getFileName().toString().endsWith(".dsrv")).sorted().forEach(p -> {
        String stem = p.getFileName().toString().replaceFirst("\\.dsrv$", "");
        Path input = dir.resolve(stem + ".input");
        Path expected = dir.resolve(stem + ".expected");
        if (Files.exists(input) && Files.exists(expected)) {
          cases.add(new Case(stem, p, input, expected));
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return cases;
  }

  /** One dynamic test per case of {@code dir}, run by {@code runner}. */
  public static Stream<DynamicTest> tests(Path dir, Runner runner) {
    List<Case> cases = discover(dir);
    if (cases.isEmpty()) {
      throw new IllegalStateException("no golden cases in " + dir);
    }
    return cases.stream().map(c -> DynamicTest.dynamicTest(c.name(), c.spec().toUri(),
        () -> check(c, runner)));
  }

  /** Runs one case and fails with a line diff when the output differs. */
  public static void check(Case c, Runner runner) throws Exception {
    String expected = c.expectedText();
    String actual = runner.run(c);
    if (!expected.equals(actual)) {
      throw new AssertionFailedError(c.name() + ": output differs (- expected, + actual)\n"
          + LineDiff.render(expected, actual), expected, actual);
    }
  }

  // ---------------------------------------------------------------- standard paths

  /**
   * The bare monitor path: {@link TraceReader}, {@link DataflowMonitor} and
   * {@link TextOutputWriter}; an {@code @reconfigure} line replaces the monitor with the state
   * transfer of docs/reconfiguration.md#state-transfer.
   */
  public static String runWithMonitor(Case c) throws Exception {
    DataflowProgram program = DataflowProgram.compile(c.spec().toString(), c.specText());
    DataflowMonitor monitor = DataflowMonitor.create(program);
    StringWriter out = new StringWriter();
    TextOutputWriter writer = new TextOutputWriter(out, false);
    Row in = program.inputs().newRow();
    Row row = program.outputs().newRow();
    try (TraceReader reader = TraceReader.open(c.input())) {
      TraceReader.Item item;
      while ((item = reader.next()) != null) {
        if (item instanceof TraceReader.Tick t) {
          in.clear();
          for (Map.Entry<String, Value> e : t.values().entrySet()) {
            int slot = program.inputs().slotOf(e.getKey());
            if (slot >= 0) {
              in.set(slot, e.getValue());
            }
          }
          long tick = monitor.nextTick();
          monitor.evaluate(in, row);
          writer.feed(tick, program.outputs(), row);
        } else {
          TraceReader.Reconfigure r = (TraceReader.Reconfigure) item;
          ReconfigurationRequest request = RequestDecoder.decode(r.json(),
              r.location().toString());
          DataflowProgram next = DataflowProgram.compile("<request>", request.specification());
          monitor = next.definitionKey().equals(program.definitionKey())
              ? DataflowMonitor.retainExact(monitor, next, DataflowMonitor.Options.DEFAULT)
                  .monitor()
              : DataflowMonitor.transfer(monitor, next, TransferMapping.plan(program, next),
                  DataflowMonitor.Options.DEFAULT).monitor();
          program = next;
          in = program.inputs().newRow();
          row = program.outputs().newRow();
        }
      }
    }
    writer.flush();
    return out.toString();
  }

  /** The runtime stepped in the calling thread, reading the trace file as a source. */
  public static String runStepped(Case c) throws Exception {
    return runRuntime(c, false);
  }

  /** The runtime on its own thread, reading the trace file as a source. */
  public static String runThreaded(Case c) throws Exception {
    return runRuntime(c, true);
  }

  private static String runRuntime(Case c, boolean threaded) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    DataflowRuntime runtime = ReconfigurableDataflowRuntimeBuilder.create()
        .specification(c.spec().toString(), c.specText())
        .source(TraceFileSource.open("trace", c.input()))
        .destination("out", Sinks.text(out))
        .warnings(w -> { })
        .build();
    ExitReport report;
    if (threaded) {
      runtime.start();
      report = runtime.awaitTermination(Duration.ofSeconds(30));
    } else {
      report = runtime.runInCallerThread();
    }
    if (!report.isCompleted()) {
      throw new AssertionError(c.name() + ": run " + report.outcome() + ": "
          + report.component() + ": " + report.reason(), report.cause());
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
