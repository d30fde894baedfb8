package io.dataflow.testkit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The layering of the public API and the internals, as rules that fail the build when broken.
 * Each module has API packages (what a user calls), maybe an {@code spi} package (what an
 * integration implements) and {@code internal} packages that its {@code module-info} exports
 * only to the sibling modules named here.
 */
class ArchitectureTest {
  private static final JavaClasses LIBRARY = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.dataflow");

  /** The packages a user sees. */
  static final String[] API = {"io.dataflow.core", "io.dataflow.core.spi", "io.dataflow.monitor",
      "io.dataflow.io", "io.dataflow.reconfig", "io.dataflow.pipeline", "io.dataflow.pipeline.spi",
      "io.dataflow.pipeline.io", "io.dataflow.pipeline.micrometer", "io.dataflow.kafka",
      "io.dataflow.runs", "io.dataflow.testkit"};

  @Test
  void coreApiAndSpiDoNotDependOnCoreInternals() {
    ArchRule rule = noClasses().that().resideInAnyPackage("io.dataflow.core", "io.dataflow.core.spi")
        .should().dependOnClassesThat().resideInAPackage("io.dataflow.core.internal");
    rule.check(LIBRARY);
  }

  @Test
  void coreDependsOnNoOtherModule() {
    ArchRule rule = noClasses().that().resideInAPackage("io.dataflow.core..")
        .should().dependOnClassesThat().resideInAnyPackage("io.dataflow.monitor..",
            "io.dataflow.io..", "io.dataflow.reconfig..", "io.dataflow.pipeline..",
            "io.dataflow.testkit..");
    rule.check(LIBRARY);
  }

  @Test
  void coreInternalsAreUsedOnlyByTheModulesThatAssembleOrStepARuntime() {
    ArchRule rule = classes().that().resideInAPackage("io.dataflow.core.internal..")
        .should().onlyBeAccessed().byAnyPackage("io.dataflow.core.internal..",
            "io.dataflow.io.internal..", "io.dataflow.reconfig..", "io.dataflow.pipeline..",
            "io.dataflow.testkit..", "io.dataflow.runs.internal..");
    rule.check(LIBRARY);
  }

  @Test
  void ioInternalsAreUsedOnlyByIoTheReconfigurationAndPipelineModulesAndTheTestkit() {
    ArchRule rule = classes().that().resideInAPackage("io.dataflow.io.internal..")
        .should().onlyBeAccessed().byAnyPackage("io.dataflow.io..", "io.dataflow.reconfig..",
            "io.dataflow.pipeline..", "io.dataflow.testkit..");
    rule.check(LIBRARY);
  }

  @Test
  void reconfigurationInternalsAreUsedOnlyByTheReconfigurationModuleAndThePipelinesPlanning() {
    ArchRule rule = classes().that().resideInAPackage("io.dataflow.reconfig.internal..")
        .should().onlyBeAccessed().byAnyPackage("io.dataflow.reconfig..",
            "io.dataflow.pipeline.internal..");
    rule.check(LIBRARY);
  }

  @Test
  void pipelineInternalsAreUsedOnlyByThePipelineTheTestkitAndKafka() {
    // dataflow-kafka uses one hook, SynchronousRevocation (a revocation inside a rebalance).
    ArchRule rule = classes().that().resideInAPackage("io.dataflow.pipeline.internal..")
        .should().onlyBeAccessed().byAnyPackage("io.dataflow.pipeline..",
            "io.dataflow.testkit..", "io.dataflow.kafka..");
    rule.check(LIBRARY);
  }

  @Test
  void theMonitorsInternalEntryIsUsedOnlyByTheMonitorThePipelineAndTheTestkit() {
    // KeyedColumns: the drivers' columns entry into KeyedMonitor (module-info exports it to
    // the pipeline and the testkit only).
    ArchRule rule = classes().that().resideInAPackage("io.dataflow.monitor.internal..")
        .should().onlyBeAccessed().byAnyPackage("io.dataflow.monitor..",
            "io.dataflow.pipeline.internal..", "io.dataflow.testkit..");
    rule.check(LIBRARY);
  }

  @Test
  void theModulesFormNoCycle() {
    slices().matching("io.dataflow.(*)..").should().beFreeOfCycles().check(LIBRARY);
  }

  @Test
  void noPublicSignatureOfTheApiNamesAnInternalType() {
    classes().that().resideInAnyPackage(API).and().arePublic()
        .should(exposeNoInternalType()).check(LIBRARY);
  }

  /**
   * Whether a package is machinery: a module's {@code internal} packages, and the monitor's
   * front end, evaluator and code generator (the subpackages of its API package).
   */
  static boolean isInternal(String pkg) {
    return pkg.contains(".internal") || pkg.startsWith("io.dataflow.monitor.");
  }

  /**
   * Public and protected members: no parameter, return, field or thrown type (nor an array of
   * one) is internal.
   */
  static ArchCondition<JavaClass> exposeNoInternalType() {
    return new ArchCondition<>("expose no type of an internal package in a public signature") {
      @Override
      public void check(JavaClass c, ConditionEvents events) {
        List<JavaMember> members = new ArrayList<>();
        members.addAll(c.getMethods());
        members.addAll(c.getConstructors());
        members.addAll(c.getFields());
        for (JavaMember m : members) {
          if (!m.getModifiers().contains(JavaModifier.PUBLIC)
              && !m.getModifiers().contains(JavaModifier.PROTECTED)) {
            continue;
          }
          List<JavaClass> types = new ArrayList<>();
          if (m instanceof JavaCodeUnit u) {
            types.add(u.getRawReturnType());
            types.addAll(u.getRawParameterTypes());
            u.getThrowsClause().getTypes().forEach(types::add);
          } else if (m instanceof JavaField f) {
            types.add(f.getRawType());
          }
          for (JavaClass t : types) {
            if (isInternal(t.getBaseComponentType().getPackageName())) {
              events.add(SimpleConditionEvent.violated(m, m.getFullName() + " exposes "
                  + t.getName()));
            }
          }
        }
      }
    };
  }
}
