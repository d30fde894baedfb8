package io.dataflow.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Locates the project root (the directory of the parent pom) from a module's tests. */
final class ProjectFiles {
  private ProjectFiles() {}

  static Path root() {
    for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
      Path pom = d.resolve("pom.xml");
      try {
        if (Files.exists(pom) && Files.readString(pom).contains(
            "<artifactId>dataflow-parent</artifactId>\n  <version>")) {
          return d;
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    throw new IllegalStateException("cannot find the project root");
  }
}
