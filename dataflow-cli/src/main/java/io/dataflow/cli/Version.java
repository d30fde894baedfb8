package io.dataflow.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/**
 * What {@code dataflow --version} prints: {@code dataflow 0.1.0-SNAPSHOT}. The version is the
 * Maven project version, filtered into {@code io/dataflow/cli/version.properties} at build time
 * (so it is the same in {@code target/classes} and in the shaded jar); the jar manifest's
 * {@code Implementation-Version} is the fallback.
 */
final class Version implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {"dataflow " + version()};
  }

  /** The project version, or {@code unknown} when the build recorded none. */
  static String version() {
    try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        String v = p.getProperty("version", "").trim();
        if (!v.isEmpty() && !v.startsWith("${")) {
          return v;
        }
      }
    } catch (IOException e) {
      // fall back to the manifest
    }
    String v = Version.class.getPackage().getImplementationVersion();
    return v == null ? "unknown" : v;
  }
}
