package io.dataflow.testkit;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The project's conformance cases ({@code conformance/} at the project root), byte for byte,
 * through the library paths: the bare monitor, the runtime stepped in the test's thread, and the
 * runtime on its own thread. (The CLI path is in the CLI module.) The build reads nothing outside
 * the repository; {@code .ci/run} may run further cases through the CLI.
 */
class ConformanceTest {
  static Path projectCases() {
    return ProjectFiles.root().resolve("conformance");
  }

  @TestFactory
  Stream<DynamicTest> casesThroughTheMonitor() {
    return GoldenTraces.tests(projectCases(), GoldenTraces::runWithMonitor);
  }

  @TestFactory
  Stream<DynamicTest> casesThroughTheSteppedRuntime() {
    return GoldenTraces.tests(projectCases(), GoldenTraces::runStepped);
  }

  @TestFactory
  Stream<DynamicTest> casesThroughTheThreadedRuntime() {
    return GoldenTraces.tests(projectCases(), GoldenTraces::runThreaded);
  }
}
