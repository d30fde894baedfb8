package io.dataflow.runs;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The module's layering (the testkit's {@code ArchitectureTest} does not see this module): the
 * API names no internal type in a public signature, core's internals are used only by this
 * module's internals, and the module uses no runtime machinery of io or reconfig.
 */
class RunsArchitectureTest {
  private static final JavaClasses RUNS = new ClassFileImporter()
      .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
      .importPackages("io.dataflow.runs");

  @Test
  void noPublicSignatureOfTheApiNamesAnInternalType() {
    classes().that().resideInAPackage("io.dataflow.runs").and().arePublic()
        .should(new ArchCondition<>("expose no internal type in a public signature") {
          @Override
          public void check(JavaClass c, ConditionEvents events) {
            List<JavaMember> members = new ArrayList<>();
            members.addAll(c.getMethods());
            members.addAll(c.getConstructors());
            members.addAll(c.getFields());
            for (JavaMember m : members) {
              if (!m.getModifiers().contains(JavaModifier.PUBLIC)) {
                continue;
              }
              List<JavaClass> types = new ArrayList<>();
              if (m instanceof JavaCodeUnit u) {
                types.add(u.getRawReturnType());
                types.addAll(u.getRawParameterTypes());
              } else if (m instanceof com.tngtech.archunit.core.domain.JavaField f) {
                types.add(f.getRawType());
              }
              for (JavaClass t : types) {
                String pkg = t.getBaseComponentType().getPackageName();
                if (pkg.contains(".internal") || pkg.startsWith("io.dataflow.monitor.")) {
                  events.add(SimpleConditionEvent.violated(m, m.getFullName() + " exposes "
                      + t.getName()));
                }
              }
            }
          }
        }).check(RUNS);
  }

  @Test
  void coreInternalsAreUsedOnlyByTheInternals() {
    noClasses().that().resideInAPackage("io.dataflow.runs")
        .should().dependOnClassesThat().resideInAPackage("io.dataflow.core.internal..")
        .check(RUNS);
  }

  @Test
  void noRuntimeMachineryOfIoOrReconfiguration() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("io.dataflow.io.internal..",
        "io.dataflow.reconfig..", "io.dataflow.pipeline..").check(RUNS);
  }
}
