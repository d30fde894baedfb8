package io.dataflow.testkit;

import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The shared conformance suite and the project's own golden cases, byte for byte, through the
 * library paths: the bare monitor, the runtime stepped in the test's thread, and the runtime on
 * its own thread. (The CLI path is in the CLI module.)
 */
class ConformanceTest {
  static Path projectCases() {
    return ProjectFiles.root().resolve("conformance");
  }

  @TestFactory
  Stream<DynamicTest> sharedSuiteThroughTheMonitor() {
    return GoldenTraces.tests(GoldenTraces.conformanceDir(), GoldenTraces::runWithMonitor);
  }

  @TestFactory
  Stream<DynamicTest> sharedSuiteThroughTheSteppedRuntime() {
    return GoldenTraces.tests(GoldenTraces.conformanceDir(), GoldenTraces::runStepped);
  }

  @TestFactory
  Stream<DynamicTest> sharedSuiteThroughTheThreadedRuntime() {
    return GoldenTraces.tests(GoldenTraces.conformanceDir(), GoldenTraces::runThreaded);
  }

  @TestFactory
  Stream<DynamicTest> projectCasesThroughTheMonitor() {
    return GoldenTraces.tests(projectCases(), GoldenTraces::runWithMonitor);
  }

  @TestFactory
  Stream<DynamicTest> projectCasesThroughTheSteppedRuntime() {
    return GoldenTraces.tests(projectCases(), GoldenTraces::runStepped);
  }
}
