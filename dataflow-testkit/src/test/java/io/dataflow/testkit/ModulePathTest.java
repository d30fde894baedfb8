package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The library as a user's named module sees it: a module that requires only
 * {@code io.dataflow.reconfig} compiles against the descriptors and builds and runs a runtime
 * on the module path (the rest of the build runs on the class path).
 */
class ModulePathTest {
  private static final List<String> LIBRARY = List.of("dataflow-core", "dataflow-monitor",
      "dataflow-io", "dataflow-reconfig", "dataflow-pipeline", "jctools-core", "slf4j-api",
      "jackson-core", "jackson-databind", "jackson-annotations",
      // The monitor's code generator (asm-util is optional and left out).
      "/org/ow2/asm/asm/");

  @TempDir
  Path dir;

  @Test
  void aNamedModuleRequiringTheReconfigurationModuleBuildsAndRunsARuntime() throws Exception {
    String out = compileAndRun("io.dataflow.reconfig", String.join("\n",
        "import io.dataflow.core.*;",
        "import io.dataflow.io.Sinks;",
        "import io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder;",
        "public class Main {",
        "  public static void main(String[] args) {",
        "    DataflowRuntime runtime = ReconfigurableDataflowRuntimeBuilder.create()",
        "        .specification(\"counter.dsrv\", \"in x\\nout z\\nz = default(z[1], 0) + x\")",
        "        .destination(\"stdout\", Sinks.text(System.out)).build();",
        "    runtime.offer(Tick.of(\"x\", Value.of(2)));",
        "    runtime.offer(Tick.of(\"x\", Value.of(3)));",
        "    runtime.endOfInput();",
        "    System.out.println(runtime.runInCallerThread().outcome());",
        "  }",
        "}", ""));
    assertThat(out).as("output of the module")
        .isEqualTo("z[0] = Int(2)\nz[1] = Int(5)\nCOMPLETED\n");
  }

  /**
   * Catches: a pipeline module whose descriptor misses a package, a qualified export or a
   * requirement (JCTools' Unsafe, the optional Micrometer) that only the module path notices.
   */
  @Test
  void aNamedModuleRequiringThePipelineModuleBuildsAndRunsAPipeline() throws Exception {
    String out = compileAndRun("io.dataflow.pipeline", String.join("\n",
        "import io.dataflow.core.*;",
        "import io.dataflow.pipeline.*;",
        "import io.dataflow.pipeline.io.*;",
        "public class Main {",
        "  public static void main(String[] args) throws Exception {",
        "    DataflowPipeline p = DataflowPipeline.builder()",
        "        .specification(\"n.dsrv\", \"in x\\nout n\\nn = default(n[1], 0) + 1\")",
        "        .source(InMemoryPartitionedSource.builder(1).add(\"a\", Tick.of(\"x\",",
        "            Value.of(1))).add(\"a\", Tick.of(\"x\", Value.of(2))).build())",
        "        .sink(KeyedSinks.text(System.out)).options(o -> o.withDrivers(1)).build();",
        "    System.out.println(p.run().run().outcome());",
        "  }",
        "}", ""));
    assertThat(out).as("output of the module")
        .isEqualTo("a: n[0] = Int(1)\na: n[1] = Int(2)\nCOMPLETED\n");
  }

  /** Compiles {@code demo.Main} in a module requiring {@code module}, runs it, its stdout. */
  private String compileAndRun(String module, String mainBody) throws Exception {
    String modulePath = java.util.Arrays.stream(
            System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> LIBRARY.stream().anyMatch(e::contains))
        .collect(Collectors.joining(File.pathSeparator));
    Path src = dir.resolve("src/demo");
    Files.createDirectories(src.resolve("demo"));
    Files.writeString(src.resolve("module-info.java"),
        "module demo { requires " + module + "; }\n");
    Files.writeString(src.resolve("demo/Main.java"), "package demo;\n" + mainBody);
    Path classes = dir.resolve("classes");
    Path bin = Path.of(System.getProperty("java.home"), "bin");
    assertThat(run(List.of(bin.resolve("javac").toString(), "-d", classes.toString(),
        "--module-path", modulePath, src.resolve("module-info.java").toString(),
        src.resolve("demo/Main.java").toString()))).as("javac of a module requiring "
        + module).isEmpty();
    return run(List.of(bin.resolve("java").toString(), "--module-path",
        classes + File.pathSeparator + modulePath, "-m", "demo/demo.Main"));
  }

  /** Runs a command (bounded) and returns its stdout; fails on a non-zero exit. */
  private String run(List<String> command) throws IOException, InterruptedException {
    Path err = Files.createTempFile(dir, "stderr", ".txt");
    Path out = Files.createTempFile(dir, "stdout", ".txt");
    Process p = new ProcessBuilder(command).redirectOutput(out.toFile())
        .redirectError(err.toFile()).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("%s finished", command.get(0)).isTrue();
    assertThat(p.exitValue()).as("exit status of %s: %s", command.get(0),
        Files.readString(err)).isZero();
    return Files.readString(out, StandardCharsets.UTF_8);
  }
}
