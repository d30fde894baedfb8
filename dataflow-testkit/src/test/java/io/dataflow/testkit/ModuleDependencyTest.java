package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The module arrows (docs/architecture/README.md) only point down: each module's compile
 * dependencies on other modules, and the packages its main sources import, are exactly the allowed
 * ones.
 */
class ModuleDependencyTest {
  private static final Map<String, Set<String>> ALLOWED = new LinkedHashMap<>();

  static {
    ALLOWED.put("dataflow-core", Set.of());
    ALLOWED.put("dataflow-monitor", Set.of("dataflow-core"));
    ALLOWED.put("dataflow-io", Set.of("dataflow-core"));
    ALLOWED.put("dataflow-reconfig", Set.of("dataflow-core", "dataflow-monitor", "dataflow-io"));
    ALLOWED.put("dataflow-pipeline",
        Set.of("dataflow-core", "dataflow-monitor", "dataflow-io", "dataflow-reconfig"));
    ALLOWED.put("dataflow-testkit", Set.of("dataflow-core", "dataflow-monitor", "dataflow-io",
        "dataflow-reconfig", "dataflow-pipeline"));
    ALLOWED.put("dataflow-mqtt",
        Set.of("dataflow-core", "dataflow-monitor", "dataflow-io", "dataflow-reconfig"));
    ALLOWED.put("dataflow-kafka", Set.of("dataflow-core", "dataflow-monitor", "dataflow-io",
        "dataflow-reconfig", "dataflow-pipeline"));
    ALLOWED.put("dataflow-runs", Set.of("dataflow-core", "dataflow-monitor", "dataflow-io"));
    ALLOWED.put("dataflow-cli", Set.of("dataflow-core", "dataflow-monitor", "dataflow-io",
        "dataflow-reconfig", "dataflow-pipeline", "dataflow-mqtt", "dataflow-kafka",
        "dataflow-runs"));
    ALLOWED.put("dataflow-bench", Set.of("dataflow-core", "dataflow-monitor", "dataflow-io",
        "dataflow-reconfig", "dataflow-pipeline", "dataflow-testkit"));
  }

  private static final Pattern DEPENDENCY = Pattern.compile(
      "<dependency>\\s*<groupId>io\\.dataflow</groupId>\\s*<artifactId>(dataflow-[a-z]+)"
          + "</artifactId>(\\s*<scope>([a-z]+)</scope>)?");

  @Test
  void compileDependenciesBetweenModulesFollowTheDesign() throws IOException {
    Path root = ProjectFiles.root();
    for (Map.Entry<String, Set<String>> e : ALLOWED.entrySet()) {
      String pom = Files.readString(root.resolve(e.getKey()).resolve("pom.xml"));
      Set<String> deps = new TreeSet<>();
      Matcher m = DEPENDENCY.matcher(pom);
      while (m.find()) {
        if (!"test".equals(m.group(3))) {
          deps.add(m.group(1));
        }
      }
      assertThat(deps).as("compile dependencies of %s", e.getKey())
          .isEqualTo(new TreeSet<>(e.getValue()));
    }
  }

  @Test
  void mainSourcesImportOnlyModulesTheyDependOn() throws IOException {
    Path root = ProjectFiles.root();
    Pattern imports = Pattern.compile("import (static )?io\\.dataflow\\.([a-z]+)\\.");
    for (Map.Entry<String, Set<String>> e : ALLOWED.entrySet()) {
      Set<String> allowed = new TreeSet<>();
      allowed.add(e.getKey().substring("dataflow-".length()));
      e.getValue().forEach(d -> allowed.add(d.substring("dataflow-".length())));
      Path src = root.resolve(e.getKey()).resolve("src/main/java");
      if (!Files.isDirectory(src)) {
        continue;
      }
      try (Stream<Path> files = Files.walk(src)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
          Matcher m = imports.matcher(Files.readString(f));
          while (m.find()) {
            assertThat(allowed).as("%s imports io.dataflow.%s", root.relativize(f), m.group(2))
                .contains(m.group(2));
          }
        }
      }
    }
  }

  /**
   * The command line is an application of the library's API: no main source of dataflow-cli
   * names an internal package (it runs on the class path, where nothing else would stop it).
   */
  @Test
  void theCommandLineUsesNoInternalPackage() throws IOException {
    Path root = ProjectFiles.root();
    Pattern internal = Pattern.compile("io\\.dataflow\\.[a-z.]*\\binternal\\b");
    try (Stream<Path> files = Files.walk(root.resolve("dataflow-cli/src/main/java"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
        assertThat(Files.readString(f)).as("%s", root.relativize(f))
            .doesNotContainPattern(internal);
      }
    }
  }
}
