package io.dataflow.testkit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

/**
 * The layering of the monitor module ({@code dataflow-monitor}), as rules that fail the build
 * when broken. The API package {@code io.dataflow.monitor} sits on three internal packages:
 * {@code codegen} (the code generator) uses {@code eval} (the evaluator), which uses
 * {@code lang} (the front end), which uses no other package of the monitor. The API uses all
 * three; nothing outside the monitor uses any of them.
 */
class MonitorLayeringTest {
  private static final String API = "io.dataflow.monitor";
  private static final String LANG = "io.dataflow.monitor.lang..";
  private static final String EVAL = "io.dataflow.monitor.eval..";
  private static final String CODEGEN = "io.dataflow.monitor.codegen..";

  private static final JavaClasses MONITOR = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.dataflow.monitor");

  /** Every module on this class path, for the rule about who uses the internals. */
  private static final JavaClasses LIBRARY = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.dataflow");

  @Test
  void theFrontEndDependsOnNoOtherPackageOfTheMonitor() {
    ArchRule rule = noClasses().that().resideInAPackage(LANG)
        .should().dependOnClassesThat().resideInAnyPackage(API, EVAL, CODEGEN);
    rule.check(MONITOR);
  }

  @Test
  void theEvaluatorDoesNotDependOnTheCodeGenerator() {
    // Generated code for dynamic bodies comes in through eval.BodyCompiler, which codegen
    // implements and the API hands to the evaluator.
    ArchRule rule = noClasses().that().resideInAPackage(EVAL)
        .should().dependOnClassesThat().resideInAPackage(CODEGEN);
    rule.check(MONITOR);
  }

  @Test
  void theInternalsDoNotDependOnTheApi() {
    ArchRule rule = noClasses().that().resideInAnyPackage(LANG, EVAL, CODEGEN)
        .should().dependOnClassesThat().resideInAPackage(API);
    rule.check(MONITOR);
  }

  @Test
  void theInternalsAreUsedOnlyInsideTheMonitor() {
    ArchRule rule = noClasses().that().resideOutsideOfPackage("io.dataflow.monitor..")
        .should().dependOnClassesThat().resideInAnyPackage(LANG, EVAL, CODEGEN);
    rule.check(LIBRARY);
  }

  @Test
  void theInternalPackagesFormNoCycle() {
    slices().matching("io.dataflow.monitor.(*)..").should().beFreeOfCycles().check(MONITOR);
  }

  // That no public signature of the API names an internal type is ArchitectureTest's rule,
  // for every module's API at once.
}
