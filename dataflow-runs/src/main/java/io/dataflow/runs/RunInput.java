package io.dataflow.runs;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The finite input of a durable run: a trace (docs/io.md#trace-files) from a file or from text.
 * The ledger records its {@link #description() description} in the canonical request and the
 * digest of its bytes as the source fingerprint.
 *
 * <p>Thread-safety: immutable.
 */
public final class RunInput {
  private final String kind;
  private final String name;
  private final Path path;
  private final byte[] text;

  private RunInput(String kind, String name, Path path, byte[] text) {
    this.kind = kind;
    this.name = name;
    this.path = path;
    this.text = text;
  }

  /** A trace file, read when the attempt evaluates (its path, made absolute, is described). */
  public static RunInput traceFile(Path path) {
    Objects.requireNonNull(path, "path");
    Path absolute = path.toAbsolutePath().normalize();
    return new RunInput("trace-file", absolute.toString(), absolute, null);
  }

  /** A trace given as text; {@code name} names it in messages and in the description. */
  public static RunInput trace(String name, String traceText) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(traceText, "traceText");
    return new RunInput("trace-text", name, null, traceText.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * What the canonical request records about the input: {@code kind} ({@code trace-file} or
   * {@code trace-text}) and {@code name} (the absolute path, or the given name).
   */
  public Map<String, String> description() {
    Map<String, String> d = new LinkedHashMap<>();
    d.put("kind", kind);
    d.put("name", name);
    return d;
  }

  /** The name used in messages: the path or the given name. */
  public String name() {
    return name;
  }

  /**
   * The input's bytes, read now (a file is read whole: the input of a bounded run is finite).
   *
   * @throws IOException when the file cannot be read
   */
  public byte[] read() throws IOException {
    return path != null ? Files.readAllBytes(path) : text.clone();
  }

  @Override
  public String toString() {
    return kind + ":" + name;
  }
}
