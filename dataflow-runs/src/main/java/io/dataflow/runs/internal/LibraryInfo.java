package io.dataflow.runs.internal;

import io.dataflow.runs.Invocation;
import io.dataflow.runs.Provenance;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.util.Properties;

/** The provenance of this process: host, process id and library version. */
public final class LibraryInfo {
  private static final String VERSION = readVersion();
  private static volatile String host;

  private LibraryInfo() {}

  /** The provenance of an attempt started here by {@code invocation}. */
  public static Provenance provenance(Invocation invocation) {
    return new Provenance(invocation, host(), ProcessHandle.current().pid(), VERSION);
  }

  /** The library's version ({@code unknown} when the build recorded none). */
  public static String version() {
    return VERSION;
  }

  private static String host() {
    String h = host;
    if (h == null) {
      try {
        h = InetAddress.getLocalHost().getHostName();
      } catch (IOException e) {
        h = "unknown";
      }
      host = h;
    }
    return h;
  }

  private static String readVersion() {
    try (InputStream in = LibraryInfo.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        String v = p.getProperty("version", "").trim();
        if (!v.isEmpty() && !v.startsWith("${")) {
          return v;
        }
      }
    } catch (IOException e) {
      // fall through
    }
    return "unknown";
  }
}
