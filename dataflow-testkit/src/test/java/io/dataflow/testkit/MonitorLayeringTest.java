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

  @Test
  void noPublicSignatureOfTheApiNamesAnInternalType() {
    classes().that().resideInAPackage(API).and().arePublic()
        .should(exposeNoInternalType()).check(MONITOR);
  }

  /**
   * Public and protected members: no parameter, return, field or thrown type (nor an array of
   * one) is in a subpackage of the API package.
   */
  private static ArchCondition<JavaClass> exposeNoInternalType() {
    return new ArchCondition<>("expose no type of the monitor's internal packages") {
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
            if (t.getBaseComponentType().getPackageName().startsWith(API + ".")) {
              events.add(SimpleConditionEvent.violated(m, m.getFullName() + " exposes "
                  + t.getName()));
            }
          }
        }
      }
    };
  }
}
