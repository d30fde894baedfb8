package io.dataflow.runs;

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
 * dataflow-runs as a user's named module sees it (the testkit's {@code ModulePathTest} cannot:
 * the testkit does not depend on this module): a module requiring only
 * {@code io.dataflow.runs} compiles against the descriptors and runs a durable run on the module
 * path, Flyway finding the migrations inside the module and H2 found by its driver.
 */
class RunsModulePathTest {
  /** The module's own classes and what it needs at run time (PostgreSQL's driver included). */
  private static final List<String> MODULES = List.of("dataflow-core", "dataflow-monitor",
      "dataflow-io", "dataflow-runs" + File.separator + "target" + File.separator + "classes",
      "jctools-core", "slf4j-api", "jackson-core", "jackson-databind", "jackson-annotations",
      "/org/ow2/asm/asm/", "/com/h2database/h2/", "/org/postgresql/postgresql/",
      "checker-qual", "flyway-core", "flyway-database-postgresql", "commons-text",
      "commons-lang3");

  @TempDir
  Path dir;

  @Test
  void aNamedModuleRequiringTheRunsModuleRunsADurableRun() throws Exception {
    String modulePath = java.util.Arrays.stream(
            System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> MODULES.stream().anyMatch(e::contains))
        .collect(Collectors.joining(File.pathSeparator));
    Path src = dir.resolve("src/demo");
    Files.createDirectories(src.resolve("demo"));
    Files.writeString(src.resolve("module-info.java"),
        "module demo { requires io.dataflow.runs; }\n");
    Files.writeString(src.resolve("demo/Main.java"), String.join("\n",
        "package demo;",
        "import io.dataflow.runs.*;",
        "public class Main {",
        "  public static void main(String[] args) {",
        "    try (DurableRuns runs = DurableRuns.open(\"jdbc:h2:mem:demo\")) {",
        "      RunResult r = runs.start(RunRequest.builder()",
        "          .specification(\"s.dsrv\", \"in x\\nout z\\nz = default(z[1], 0) + x\")",
        "          .input(RunInput.trace(\"t\", \"0: x = 1\\n1: x = 2\\n\"))",
        "          .idempotencyKey(\"k\").build());",
        "      System.out.println(r.run().status() + \" \" + r.run().rowCount());",
        "    }",
        "  }",
        "}", ""));
    Path classes = dir.resolve("classes");
    Path bin = Path.of(System.getProperty("java.home"), "bin");
    assertThat(run(List.of(bin.resolve("javac").toString(), "-d", classes.toString(),
        "--module-path", modulePath, src.resolve("module-info.java").toString(),
        src.resolve("demo/Main.java").toString()))).as("javac").isEmpty();
    assertThat(run(List.of(bin.resolve("java").toString(), "--module-path",
        classes + File.pathSeparator + modulePath, "-m", "demo/demo.Main")))
        .isEqualTo("SUCCEEDED 2\n");
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
