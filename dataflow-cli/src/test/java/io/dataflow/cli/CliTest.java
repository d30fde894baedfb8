package io.dataflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.ExitReport;
import io.dataflow.io.AsyncOutputWriter;
import io.dataflow.monitor.DataflowMonitor;
import io.dataflow.testkit.CallLog;
import io.dataflow.testkit.DataflowHarness;
import io.dataflow.testkit.GoldenTraces;
import io.dataflow.testkit.ManualClock;
import io.dataflow.testkit.ScriptedSink;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/** The command line in-process: conformance byte for byte, exit statuses, messages. */
class CliTest {
  @TempDir
  Path dir;

  record Result(int status, String out, String err) {}

  static Result cli(String stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Main.run(args, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Result(status, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  static String runCase(GoldenTraces.Case c) {
    Result r = cli("", "run", c.spec().toString(), "--input-file", c.input().toString());
    assertThat(r.status()).as("exit status of %s (stderr: %s)", c.name(), r.err()).isZero();
    return r.out();
  }

  /** The project's conformance cases: {@code conformance/} beside this module. */
  static Path conformanceDir() {
    Path dir = Path.of(System.getProperty("basedir", ".")).toAbsolutePath().resolveSibling(
        "conformance").normalize();
    assertThat(dir).as("the project's conformance folder").isDirectory();
    return dir;
  }

  @TestFactory
  Stream<DynamicTest> conformanceCasesThroughTheCli() {
    return GoldenTraces.tests(conformanceDir(), CliTest::runCase);
  }

  private Path file(String name, String text) throws IOException {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  @Test
  void runtimeErrorExitsOneAfterPrintingEarlierRows() throws IOException {
    Path spec = file("div.dsrv", "in x\nout z\nz = 10 / x\n");
    Path input = file("div.input", "0: x = 1\n1: x = 0\n2: x = 2\n");
    Result r = cli("", "run", spec.toString(), "--input-file", input.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEqualTo("z[0] = Int(10)\n");
    assertThat(r.err()).isEqualTo(spec + ":3:1: tick 1: stream 'z': division by zero\n");
  }

  @Test
  void badTraceLineExitsTwoAfterPrintingEarlierRows() throws IOException {
    Path spec = file("id.dsrv", "in x\nout z\nz = x\n");
    Path input = file("bad.input", "0: x = 1\n1: x = 2\n1: x = 3\n");
    Result r = cli("", "run", spec.toString(), "--input-file", input.toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.out()).isEqualTo("z[0] = Int(1)\nz[1] = Int(2)\n");
    assertThat(r.err()).isEqualTo(input
        + ":3:1: tick 1 is not greater than the previous tick 1\n");
  }

  @Test
  void invalidSpecExitsTwoWithTheLocation() throws IOException {
    Path spec = file("bad.dsrv", "in x\nout z\nz = x +\n");
    Path input = file("x.input", "0: x = 1\n");
    Result r = cli("", "run", spec.toString(), "--input-file", input.toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo(spec + ":3:8: expected an expression, found end of input\n");
  }

  @Test
  void compileTimeCycleNamesTheStreams() throws IOException {
    Path spec = file("cycle.dsrv", "in x\nout a\nout b\na = b + x\nb = a\n");
    Result r = cli("", "check", spec.toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).startsWith(spec + ":4:1: same-tick dependency cycle: a -> b -> a");
  }

  @Test
  void abandonedRowsExitOneWithTheCountOnStderrOnce() throws Exception {
    ScriptedSink slow = new ScriptedSink("slow", new CallLog()).blockFeedsFrom(2);
    AsyncOutputWriter async = new AsyncOutputWriter(slow, 64, Thread::new);
    ExitReport report;
    try (DataflowHarness h = DataflowHarness.forSpec("in x\nout z\nz = x\n")
        .clock(new ManualClock()).closeGrace(Duration.ofMillis(50)).destination("slow", async)
        .build()) {
      h.tick("x", 1).tick("x", 2).tick("x", 3).tick("x", 4);
      assertThat(slow.awaitBlocked(Duration.ofSeconds(5))).isTrue();
      report = h.stop(Duration.ofSeconds(3));
    } finally {
      slow.release();
    }
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = Cli.exitStatus(report, new PrintStream(err, true, StandardCharsets.UTF_8));
    assertThat(status).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("dataflow: sink failed: the output "
        + "did not close by the deadline; 3 rows abandoned\n");
  }

  @Test
  void reconfigurationPrintsTheAcknowledgementOnStderr() {
    Path shared = conformanceDir();
    Result r = cli("", "run", shared.resolve("reconf_counter.dsrv").toString(), "--input-file",
        shared.resolve("reconf_counter.input").toString(), "--no-context-transfer");
    assertThat(r.status()).isZero();
    assertThat(r.out()).isEqualTo("z[0] = Int(1)\nz[1] = Int(3)\nz[2] = Int(1)\nz[3] = Int(2)\n");
    assertThat(r.err()).isEqualTo("ack monitor_revision=1 interface_revision=0 "
        + "monitor_changed=true interface_changed=false\n");
  }

  @Test
  void rejectedRequestExitsOneAndMalformedRequestExitsTwo() throws IOException {
    Path spec = file("id.dsrv", "in x\nout z\nz = x\n");
    Path unknown = file("u.input",
        "0: x = 1\n@reconfigure {specification: \"in x\\nout z\\nz = x\", bogus: 1}\n1: x = 2\n");
    Result r = cli("", "run", spec.toString(), "--input-file", unknown.toString());
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEqualTo("z[0] = Int(1)\n");
    assertThat(r.err()).contains("unknown field 'bogus'");
    Path blank = file("b.input", "0: x = 1\n@reconfigure {specification: \"  \"}\n1: x = 2\n");
    assertThat(cli("", "run", spec.toString(), "--input-file", blank.toString()).status())
        .isEqualTo(1);
    Path broken = file("m.input", "0: x = 1\n@reconfigure {specification: \"in x\n1: x = 2\n");
    Result m = cli("", "run", spec.toString(), "--input-file", broken.toString());
    assertThat(m.status()).isEqualTo(2);
    assertThat(m.out()).isEqualTo("z[0] = Int(1)\n");
    assertThat(m.err()).startsWith(broken + ":2:");
  }

  @Test
  void undeclaredInputNamesAreIgnoredWithOneWarningEach() throws IOException {
    Path spec = file("id.dsrv", "in x\nout z\nz = x\n");
    Path input = file("w.input", "0: x = 1\n   q = 3\n1: q = 4\n");
    Result r = cli("", "run", spec.toString(), "--input-file", input.toString());
    assertThat(r.status()).isZero();
    assertThat(r.out()).isEqualTo("z[0] = Int(1)\n");
    assertThat(r.err()).isEqualTo(
        "warning: 'q' is not an input of the specification; ignored\n");
  }

  @Test
  void jsonLinesFormatEncodesEveryTick() throws IOException {
    Path spec = file("f.dsrv", "in x\nout z\nout d\nz = x * 0.5\nd = x[1]\n");
    Path input = file("f.input", "0: x = 1\n1: x = 2\n");
    Result r = cli("", "run", spec.toString(), "--input-file", input.toString(), "--format",
        "jsonl");
    assertThat(r.status()).isZero();
    assertThat(r.out()).isEqualTo("{\"tick\":0,\"outputs\":{\"z\":0.5,\"d\":{\"$deferred\":true}}}\n"
        + "{\"tick\":1,\"outputs\":{\"z\":1.0,\"d\":1}}\n");
  }

  @Test
  void liveModeReadsJsonLinesAndControlItemsFromStdin() throws IOException {
    Path spec = file("c.dsrv", "in x\nout z\nz = default(z[1], 0) + x\n");
    String stdin = "{\"x\": 1}\n{\"x\": 2}\n"
        + "{\"$reconfigure\": {\"specification\": \"in x\\nout z\\nz = x * 100\"}}\n"
        + "{\"x\": 3}\n";
    Result r = cli(stdin, "live", spec.toString());
    assertThat(r.status()).isZero();
    assertThat(r.out()).isEqualTo("z[0] = Int(1)\nz[1] = Int(3)\nz[2] = Int(300)\n");
    assertThat(r.err()).startsWith("ack monitor_revision=1 ");
  }

  @Test
  void runReadsAJsonLinesFileAsItReadsTheSameTrace() throws IOException {
    Path spec = file("add.dsrv", "in x: Int\nin y: Int\nout z: Int\nz = x + y\n");
    StringBuilder trace = new StringBuilder();
    StringBuilder jsonl = new StringBuilder("// the same ticks\n");
    for (int i = 0; i < 700; i++) { // more than a batch, so ticks span batches
      trace.append(i).append(": x = ").append(i).append("\n   y = ").append(i % 7).append('\n');
      jsonl.append("{\"x\": ").append(i).append(", \"y\": ").append(i % 7).append("}\n");
    }
    Path t = file("add.input", trace.toString());
    Path j = file("add.jsonl", jsonl.toString());
    for (String format : new String[] {"text", "jsonl"}) {
      Result fromTrace = cli("", "run", spec.toString(), "--input-file", t.toString(),
          "--format", format);
      Result fromJsonl = cli("", "run", spec.toString(), "--input-file", j.toString(),
          "--format", format);
      assertThat(fromTrace.status()).isZero();
      assertThat(fromJsonl.status()).as(fromJsonl.err()).isZero();
      assertThat(fromJsonl.out()).isEqualTo(fromTrace.out())
          .contains(format.equals("text") ? "z[699] = Int(705)" : "{\"tick\":699,");
    }
  }

  /**
   * A {@code run} over a file of at least {@link Cli#EAGER_CODE_BYTES} generates its monitor's
   * code before the first tick: a smaller file, a monitor whose code is already asked for at
   * creation or never, and {@code live} keep their options.
   */
  @Test
  void onlyARunOverALargeFileGeneratesItsCodeBeforeTheFirstTick() throws IOException {
    DataflowMonitor.Options background = DataflowMonitor.Options.DEFAULT
        .withFusion(DataflowMonitor.Fusion.BACKGROUND);
    Path small = dir.resolve("small.input");
    Files.write(small, new byte[(int) Cli.EAGER_CODE_BYTES - 1]);
    Path large = dir.resolve("large.jsonl");
    Files.write(large, new byte[(int) Cli.EAGER_CODE_BYTES]);
    assertThat(Cli.firstMonitorOptions(small, background)).isSameAs(background);
    assertThat(Cli.firstMonitorOptions(large, background))
        .isEqualTo(background.withFusion(DataflowMonitor.Fusion.EAGER));
    assertThat(Cli.firstMonitorOptions(dir.resolve("missing.input"), background))
        .isSameAs(background);
    for (DataflowMonitor.Fusion kept : new DataflowMonitor.Fusion[] {
        DataflowMonitor.Fusion.OFF, DataflowMonitor.Fusion.EAGER}) {
      DataflowMonitor.Options o = background.withFusion(kept);
      assertThat(Cli.firstMonitorOptions(large, o)).isSameAs(o);
    }
  }

  /**
   * Generated before the first tick, the code gives the ticks, outputs and runtime error (its
   * message and tick) the interpreter gives: a trace and a JSON Lines file past
   * {@link Cli#EAGER_CODE_BYTES}, both output formats, ending in a division by zero.
   */
  @Test
  void aRunOverALargeFileGivesEveryOutputAndTheErrorAtItsTick() throws IOException {
    Path spec = file("div.dsrv", "in x: Int\nin y: Int\nout z: Int\nz = 1000000 / (x - y)\n");
    int n = 60_000;
    StringBuilder trace = new StringBuilder();
    StringBuilder jsonl = new StringBuilder();
    StringBuilder text = new StringBuilder();
    StringBuilder json = new StringBuilder();
    for (int i = 0; i <= n; i++) {
      int x = i < n ? i + 10 : 5;
      int y = i < n ? i % 7 : 5;
      trace.append(i).append(": x = ").append(x).append("\n   y = ").append(y).append('\n');
      jsonl.append("{\"x\": ").append(x).append(", \"y\": ").append(y).append("}\n");
      if (i < n) {
        text.append("z[").append(i).append("] = Int(").append(1000000 / (x - y)).append(")\n");
        json.append("{\"tick\":").append(i).append(",\n");
      }
    }
    Path t = file("div.input", trace.toString());
    Path j = file("div.jsonl", jsonl.toString());
    assertThat(Files.size(t)).isGreaterThanOrEqualTo(Cli.EAGER_CODE_BYTES);
    assertThat(Files.size(j)).isGreaterThanOrEqualTo(Cli.EAGER_CODE_BYTES);
    String error = spec + ":4:1: tick " + n + ": stream 'z': division by zero\n";
    for (Path input : new Path[] {t, j}) {
      Result r = cli("", "run", spec.toString(), "--input-file", input.toString());
      assertThat(r.status()).as(r.err()).isEqualTo(1);
      assertThat(r.out()).isEqualTo(text.toString());
      assertThat(r.err()).isEqualTo(error);
      Result rj = cli("", "run", spec.toString(), "--input-file", input.toString(),
          "--format", "jsonl");
      assertThat(rj.status()).as(rj.err()).isEqualTo(1);
      assertThat(rj.out().lines().map(l -> l.substring(0, l.indexOf(',') + 1)))
          .containsExactlyElementsOf(json.toString().lines().toList());
      assertThat(rj.out()).contains("{\"tick\":" + (n - 1) + ",");
      assertThat(rj.err()).isEqualTo(error);
    }
  }

  @Test
  void runOfABadJsonLinesFileSaysWhereAfterTheOutputsBeforeIt() throws IOException {
    Path spec = file("id.dsrv", "in x: Int\nout z: Int\nz = x\n");
    Path j = file("bad.jsonl", "{\"x\": 1}\n\n{\"x\": 2}\n{\"x\": 3,, }\n{\"x\": 4}\n");
    Result r = cli("", "run", spec.toString(), "--input-file", j.toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.out()).isEqualTo("z[0] = Int(1)\nz[1] = Int(2)\n");
    assertThat(r.err()).startsWith(j + ":4:").contains("malformed JSON line");
  }

  /**
   * Live mode flushes what it evaluated before it waits for more input: the output of a line
   * reaches stdout while the next line has not been written yet (the wait is bounded; the
   * promptness in milliseconds is measured by dataflow-bench/scripts/end-to-end.sh, not here).
   */
  @Test
  void liveShowsEachOutputBeforeTheNextLineArrives() throws Exception {
    Path spec = file("c.dsrv", "in x\nout z\nz = default(z[1], 0) + x\n");
    java.io.PipedOutputStream typing = new java.io.PipedOutputStream();
    java.io.PipedInputStream stdin = new java.io.PipedInputStream(typing, 1 << 16);
    java.util.concurrent.BlockingQueue<String> lines =
        new java.util.concurrent.LinkedBlockingQueue<>();
    java.io.OutputStream screen = new java.io.OutputStream() {
      private final StringBuilder line = new StringBuilder();

      @Override
      public synchronized void write(int b) {
        if (b == '\n') {
          lines.add(line.toString());
          line.setLength(0);
        } else {
          line.append((char) b);
        }
      }
    };
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    java.util.concurrent.CompletableFuture<Integer> status =
        java.util.concurrent.CompletableFuture.supplyAsync(() -> Main.run(
            new String[] {"live", spec.toString()}, stdin, new PrintStream(screen, false,
                StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
    for (int i = 1; i <= 3; i++) {
      typing.write(("{\"x\": " + i + "}\n").getBytes(StandardCharsets.UTF_8));
      typing.flush();
      assertThat(lines.poll(30, java.util.concurrent.TimeUnit.SECONDS))
          .as("the output of line %d before line %d is typed (stderr: %s)", i, i + 1, err)
          .isEqualTo("z[" + (i - 1) + "] = Int(" + (i * (i + 1) / 2) + ")");
    }
    typing.close();
    assertThat(status.get(30, java.util.concurrent.TimeUnit.SECONDS)).isZero();
    assertThat(lines).isEmpty();
  }

  @Test
  void usageErrorsExitTwo() {
    assertThat(cli("", "run").status()).isEqualTo(2);
    assertThat(cli("", "run", "x.dsrv").err()).contains("--input-file");
    assertThat(cli("", "frobnicate").status()).isEqualTo(2);
    assertThat(cli("", "run", "a.dsrv", "--input-file", "b", "--format", "xml").status())
        .isEqualTo(2);
    Result help = cli("", "--help");
    assertThat(help.status()).isZero();
    assertThat(help.out()).contains("usage: dataflow");
  }

  @Test
  void kafkaNeedsItsTopicsAndGroup() {
    Result r = cli("", "kafka", "x.dsrv", "--bootstrap", "localhost:9092");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("--input-topic").endsWith(KAFKA_USAGE);
    Result help = cli("", "kafka", "--help");
    assertThat(help.status()).isZero();
    assertThat(help.out()).startsWith("Usage: dataflow kafka SPEC --bootstrap HOST:PORT")
        .contains("--control-topic=C");
    Result noSpec = cli("", "kafka", dir.resolve("none.dsrv").toString(), "--bootstrap", "h:1",
        "--input-topic", "t", "--output-topic", "o", "--group", "g");
    assertThat(noSpec.status()).isEqualTo(2);
    assertThat(noSpec.err()).contains("cannot read");
  }

  static final String KAFKA_USAGE = "Usage: dataflow kafka SPEC --bootstrap HOST:PORT"
      + " --input-topic T --output-topic O --group G [--key FIELD] [--control-topic C]"
      + " [--instance NAME] [--drivers N]\n";

  @Test
  void missingFilesExitTwo() {
    Result r = cli("", "run", dir.resolve("none.dsrv").toString(), "--input-file",
        dir.resolve("none.input").toString());
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("cannot read");
  }
  static final String RUN_USAGE = "Usage: dataflow run SPEC --input-file TRACE [--format text|jsonl]"
      + " [--no-context-transfer]\n";
  static final String LIVE_USAGE =
      "Usage: dataflow live SPEC [--format text|jsonl] [--no-context-transfer]\n";
  static final String CHECK_USAGE = "Usage: dataflow check SPEC\n";
  static final String TOP_USAGE = "Usage: dataflow <command> [options]\n";

  /** The project version from this module's pom (its own, or its parent's). */
  static String projectVersion() throws Exception {
    Path pom = Path.of(System.getProperty("basedir", ".")).resolve("pom.xml");
    Element project = DocumentBuilderFactory.newInstance().newDocumentBuilder()
        .parse(pom.toFile()).getDocumentElement();
    for (String parent : new String[] {null, "parent"}) {
      Element holder = parent == null ? project : child(project, parent);
      Element version = holder == null ? null : child(holder, "version");
      if (version != null) {
        return version.getTextContent().trim();
      }
    }
    throw new AssertionError("no version in " + pom);
  }

  private static Element child(Element parent, String name) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        return e;
      }
    }
    return null;
  }

  @Test
  void versionPrintsTheProjectVersion() throws Exception {
    String expected = "dataflow " + projectVersion() + "\n";
    for (String option : new String[] {"--version", "-V"}) {
      Result r = cli("", option);
      assertThat(r.status()).as(option).isZero();
      assertThat(r.out()).as(option).isEqualTo(expected);
      assertThat(r.err()).as(option).isEmpty();
    }
  }

  @Test
  void topLevelHelpIsTheOverviewOnStdout() {
    for (String[] args : new String[][] {{"--help"}, {"-h"}, {"help"}}) {
      Result r = cli("", args);
      assertThat(r.status()).as(args[0]).isZero();
      assertThat(r.out()).as(args[0]).isEqualTo(Usage.TEXT);
      assertThat(r.err()).as(args[0]).isEmpty();
    }
  }

  @Test
  void everyCommandHasItsOwnHelpOnStdout() {
    for (String command : new String[] {"run", "live", "check"}) {
      Result help = cli("", command, "--help");
      assertThat(help.status()).as(command).isZero();
      assertThat(help.err()).as(command).isEmpty();
      assertThat(help.out()).as(command).startsWith("Usage: dataflow " + command + " ")
          .contains("SPEC").contains("-h, --help").contains("Exit status: 0 success");
      assertThat(cli("", command, "-h")).as(command).isEqualTo(help);
      assertThat(cli("", "help", command)).as(command).isEqualTo(help);
    }
    assertThat(cli("", "run", "--help").out()).contains("--input-file=TRACE")
        .contains("--format=text|jsonl").contains("--no-context-transfer");
  }

  @Test
  void withoutACommandTheOverviewGoesToStderrWithStatusTwo() {
    Result r = cli("");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo(Usage.TEXT);
  }

  @Test
  void usageErrorsNameTheProblemThenPrintTheUsageLine() {
    String[][] cases = {
        {"unknown command 'frobnicate'", TOP_USAGE, "frobnicate"},
        {"unknown option '--bogus'", TOP_USAGE, "--bogus"},
        {"unknown subcommand 'frobnicate'", TOP_USAGE, "help", "frobnicate"},
        {"run needs a SPEC file", RUN_USAGE, "run"},
        {"run needs a SPEC file", RUN_USAGE, "run", "--input-file", "t.input"},
        {"run needs --input-file TRACE", RUN_USAGE, "run", "x.dsrv"},
        {"--input-file needs a value", RUN_USAGE, "run", "x.dsrv", "--input-file"},
        {"--format needs a value", RUN_USAGE, "run", "x.dsrv", "--input-file", "t", "--format"},
        {"--format must be text or jsonl, not 'xml'", RUN_USAGE,
            "run", "a.dsrv", "--input-file", "b", "--format", "xml"},
        {"--format must be text or jsonl, not 'xml'", RUN_USAGE,
            "run", "a.dsrv", "--input-file", "b", "--format=xml"},
        {"unknown option '--bogus'", RUN_USAGE, "run", "a.dsrv", "--bogus", "--input-file", "b"},
        {"unexpected argument 'b.dsrv'", RUN_USAGE, "run", "a.dsrv", "b.dsrv", "--input-file", "c"},
        {"live needs a SPEC file", LIVE_USAGE, "live"},
        {"live reads stdin; --input-file is for run", LIVE_USAGE,
            "live", "a.dsrv", "--input-file", "b"},
        {"unknown option '-x'", LIVE_USAGE, "live", "a.dsrv", "-x"},
        {"check takes one SPEC file", CHECK_USAGE, "check"},
        {"check takes one SPEC file", CHECK_USAGE, "check", "a.dsrv", "b.dsrv"},
        {"unknown option '--format'", CHECK_USAGE, "check", "a.dsrv", "--format", "text"},
    };
    for (String[] c : cases) {
      String[] args = Arrays.copyOfRange(c, 2, c.length);
      Result r = cli("", args);
      String what = String.join(" ", args);
      assertThat(r.status()).as(what).isEqualTo(2);
      assertThat(r.out()).as(what).isEmpty();
      assertThat(r.err()).as(what).isEqualTo("dataflow: " + c[0] + " (see dataflow --help)\n"
          + c[1]);
    }
  }

  @Test
  void optionsParseAsBeforeWhereverTheyStand() throws IOException {
    Path spec = file("id.dsrv", "in x\nout z\nz = x\n");
    Path input = file("x.input", "0: x = 1\n");
    String jsonl = "{\"tick\":0,\"outputs\":{\"z\":1}}\n";
    Result r = cli("", "run", "--format", "text", "--input-file=" + input, "--format=jsonl",
        spec.toString());
    assertThat(r).isEqualTo(new Result(0, jsonl, ""));
    assertThat(cli("", "run", spec.toString(), "--input-file", input.toString(),
        "--input-file", input.toString(), "--no-context-transfer")).isEqualTo(
            new Result(0, "z[0] = Int(1)\n", ""));
    assertThat(cli("", "check", spec.toString())).isEqualTo(
        new Result(0, spec + ": ok (1 inputs, 1 outputs)\n", ""));
  }

  @Test
  void statusEveryTakesAPositiveDurationAndLeavesTheOutputAlone() throws IOException {
    Path spec = file("se.dsrv", "in x\nout z\nz = x\n");
    Path input = file("se.input", "0: x = 1\n1: x = 2\n");
    Result r = cli("", "run", spec.toString(), "--input-file", input.toString(),
        "--status-every", "1h");
    assertThat(r.status()).isZero();
    assertThat(r.out()).isEqualTo("z[0] = Int(1)\nz[1] = Int(2)\n");
    assertThat(r.err()).isEmpty(); // the run ends long before the first line is due
    for (String bad : new String[] {"0s", "5", "-1s", "1.5s", "soon"}) {
      Result e = cli("", "run", spec.toString(), "--input-file", input.toString(),
          "--status-every", bad);
      assertThat(e.status()).as(bad).isEqualTo(2);
      assertThat(e.out()).isEmpty();
      assertThat(e.err()).as(bad).startsWith("dataflow: --status-every must be a positive "
          + "duration such as 5s or 500ms, not '" + bad + "' (see dataflow --help)\n");
    }
  }

  @Test
  void anUnknownOptionIsNamedEvenWhenARequiredOneIsMissingToo() throws IOException {
    Path spec = file("u.dsrv", "in x\nout z\nz = x\n");
    Result run = cli("", "run", spec.toString(), "--bogus");
    assertThat(run.status()).isEqualTo(2);
    assertThat(run.err()).startsWith("dataflow: unknown option '--bogus' (see dataflow --help)\n"
        + "Usage: dataflow run ");
    Result live = cli("", "live", "--bogus");
    assertThat(live.status()).isEqualTo(2);
    assertThat(live.err()).startsWith("dataflow: unknown option '--bogus' (see dataflow --help)\n"
        + "Usage: dataflow live ");
    // A known option's value is not mistaken for an option.
    Result value = cli("", "run", spec.toString(), "--format", "-x");
    assertThat(value.status()).isEqualTo(2);
    assertThat(value.err()).startsWith("dataflow: --format must be text or jsonl, not '-x'");
  }

  @Test
  void aRunResumedFromItsCheckpointPrintsExactlyTheRestWithTheSameTickNumbers()
      throws IOException {
    Path spec = file("c.dsrv", "in x\nout z\nz = default(z[1], 0) + x\n");
    StringBuilder t = new StringBuilder();
    for (int i = 0; i < 12; i++) {
      t.append(i).append(": x = ").append(i).append('\n');
    }
    Path input = file("c.input", t.toString());
    Path ckpt = dir.resolve("ckpt");
    Result full = cli("", "run", spec.toString(), "--input-file", input.toString(),
        "--checkpoint-dir", ckpt.toString(), "--checkpoint-every", "5");
    assertThat(full.status()).isZero();
    assertThat(full.out().lines()).hasSize(12);
    // A run that stopped after the checkpoint at the end resumes with nothing left to print.
    Result after = cli("", "run", spec.toString(), "--input-file", input.toString(),
        "--resume", ckpt.toString());
    assertThat(after.status()).isZero();
    assertThat(after.out()).isEmpty();
    // An empty directory starts from the beginning, with a warning.
    Result fresh = cli("", "run", spec.toString(), "--input-file", input.toString(),
        "--resume", dir.resolve("none").toString());
    assertThat(fresh.status()).isZero();
    assertThat(fresh.out()).isEqualTo(full.out());
    assertThat(fresh.err()).startsWith("warning: no checkpoint in ");
    Result bad = cli("", "run", spec.toString(), "--input-file", input.toString(),
        "--checkpoint-dir", ckpt.toString(), "--checkpoint-every", "0");
    assertThat(bad.status()).isEqualTo(2);
    assertThat(bad.err()).startsWith("dataflow: --checkpoint-every must be a positive number");
    Result alone = cli("", "run", spec.toString(), "--input-file", input.toString(),
        "--checkpoint-every", "5");
    assertThat(alone.status()).isEqualTo(2);
    assertThat(alone.err()).startsWith("dataflow: --checkpoint-every needs --checkpoint-dir DIR");
  }

  @Test
  void snapshotShowPrintsACheckpointAsJsonAndRefusesABrokenFileWithStatusTwo()
      throws IOException {
    Path spec = file("s.dsrv", "in x\nout z\nz = default(z[1], 0) + x\n");
    Path input = file("s.input", "0: x = 1\n1: x = 2\n");
    Path ckpt = dir.resolve("s-ckpt");
    assertThat(cli("", "run", spec.toString(), "--input-file", input.toString(),
        "--checkpoint-dir", ckpt.toString()).status()).isZero();
    Path file;
    try (java.util.stream.Stream<Path> files = Files.list(ckpt)) {
      file = files.findFirst().orElseThrow();
    }
    Result show = cli("", "snapshot", "show", file.toString());
    assertThat(show.status()).isZero();
    assertThat(show.out()).contains("\"checkpoint\" : 1").contains("\"trace\" : 2")
        .contains("\"nextTick\" : 2").contains("{\n      \"Int\" : 3\n    }");
    byte[] b = Files.readAllBytes(file);
    b[b.length - 10] ^= 1;
    Files.write(file, b);
    Result bad = cli("", "snapshot", "show", file.toString());
    assertThat(bad.status()).isEqualTo(2);
    assertThat(bad.out()).isEmpty();
    assertThat(bad.err()).startsWith(file + ": at byte offset ").contains("checksum mismatch");
  }
}
