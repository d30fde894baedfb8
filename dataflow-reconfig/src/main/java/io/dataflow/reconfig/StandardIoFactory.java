package io.dataflow.reconfig;

import io.dataflow.core.spi.OutputWriter;
import io.dataflow.core.spi.Source;
import io.dataflow.io.JsonLinesSource;
import io.dataflow.io.Sinks;
import io.dataflow.io.TraceFileSource;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.Set;

/**
 * The built-in I/O types a request may name.
 *
 * <table>
 *   <caption>Types</caption>
 *   <tr><th>kind</th><th>type</th><th>parameters</th></tr>
 *   <tr><td>source</td><td>{@code trace-file}</td><td>{@code path}</td></tr>
 *   <tr><td>source</td><td>{@code jsonl-file}</td><td>{@code path}</td></tr>
 *   <tr><td>destination</td><td>{@code text-file}</td><td>{@code path}</td></tr>
 *   <tr><td>destination</td><td>{@code jsonl-file}</td><td>{@code path}</td></tr>
 *   <tr><td>destination</td><td>{@code stdout-text}</td><td>-</td></tr>
 *   <tr><td>destination</td><td>{@code stdout-jsonl}</td><td>-</td></tr>
 *   <tr><td>destination</td><td>{@code null}</td><td>-</td></tr>
 * </table>
 */
public final class StandardIoFactory implements IoFactory {
  private static final Set<String> SOURCES = Set.of("trace-file", "jsonl-file");
  private static final Set<String> DESTINATIONS =
      Set.of("text-file", "jsonl-file", "stdout-text", "stdout-jsonl", "null");
  private final OutputStream stdout;

  /** A factory writing the {@code stdout-*} destinations to {@code stdout}. */
  public StandardIoFactory(OutputStream stdout) {
    this.stdout = stdout;
  }

  @Override
  public void validateSource(IoSpec spec) {
    if (!SOURCES.contains(spec.type())) {
      throw new IllegalArgumentException("unknown source type '" + spec.type() + "' (known: "
          + String.join(", ", new java.util.TreeSet<>(SOURCES)) + ")");
    }
    spec.require("path");
  }

  @Override
  public Source createSource(String name, IoSpec spec) {
    validateSource(spec);
    Path path = Path.of(spec.require("path"));
    return spec.type().equals("trace-file") ? TraceFileSource.open(name, path)
        : JsonLinesSource.file(name, path);
  }

  @Override
  public void validateDestination(IoSpec spec) {
    if (!DESTINATIONS.contains(spec.type())) {
      throw new IllegalArgumentException("unknown destination type '" + spec.type()
          + "' (known: " + String.join(", ", new java.util.TreeSet<>(DESTINATIONS)) + ")");
    }
    if (spec.type().endsWith("-file")) {
      spec.require("path");
    }
  }

  @Override
  public OutputWriter createDestination(String name, IoSpec spec) throws Exception {
    validateDestination(spec);
    switch (spec.type()) {
      case "text-file":
        return Sinks.textFile(Path.of(spec.require("path")));
      case "jsonl-file":
        return Sinks.jsonLinesFile(Path.of(spec.require("path")));
      case "stdout-text":
        return Sinks.text(stdout);
      case "stdout-jsonl":
        return Sinks.jsonLines(stdout);
      default:
        return Sinks.nullSink();
    }
  }
}
