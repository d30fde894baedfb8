package io.dataflow.runs;

import io.dataflow.runs.internal.Digests;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Publishes to a directory: one subdirectory per idempotency key,
 * {@code publication-<sha256(key), 32 hex>}, holding {@code rows.txt} (the rendered rows) and
 * the idempotency marker {@code publication.properties} (key, output digest, publication
 * digest, row count, run). The subdirectory is written under a temporary name and renamed into
 * place in one atomic step, so a reader (and {@link #inspect}) sees all of it or nothing.
 *
 * <p>Thread-safety: safe from any thread and process; two publications under one key race on
 * the rename, and the loser answers with the winner's references.
 */
public final class DirectoryTarget implements PublicationTarget {
  static final String MARKER = "publication.properties";
  static final String ROWS = "rows.txt";

  private final Path dir;

  private DirectoryTarget(Path dir) {
    this.dir = dir;
  }

  /** A target publishing into {@code dir} (created on the first publication). */
  public static DirectoryTarget of(Path dir) {
    return new DirectoryTarget(Objects.requireNonNull(dir, "dir").toAbsolutePath().normalize());
  }

  /** The directory. */
  public Path directory() {
    return dir;
  }

  @Override
  public String description() {
    return "dir:" + dir;
  }

  @Override
  public Set<Capability> capabilities() {
    return EnumSet.of(Capability.PUBLICATION, Capability.INSPECTION);
  }

  /** Where the publication of {@code idempotencyKey} lives. */
  public Path publicationDirectory(String idempotencyKey) {
    return dir.resolve("publication-" + Digests.sha256Hex(idempotencyKey).substring(0, 32));
  }

  @Override
  public PublicationResponse publish(Publication p) throws IOException {
    Path target = publicationDirectory(p.idempotencyKey());
    if (Files.isDirectory(target)) {
      return existing(target, p.idempotencyKey(), p.outputDigest());
    }
    Files.createDirectories(dir);
    Path tmp = dir.resolve(".tmp-" + target.getFileName() + "-" + UUID.randomUUID());
    Files.createDirectory(tmp);
    try {
      write(tmp.resolve(ROWS), p.rendered());
      Properties marker = new Properties();
      marker.setProperty("idempotency-key", p.idempotencyKey());
      marker.setProperty("output-digest", p.outputDigest());
      marker.setProperty("publication-digest", p.publicationDigest());
      marker.setProperty("source-digest", p.sourceDigest());
      marker.setProperty("row-count", Long.toString(p.rowCount()));
      marker.setProperty("run-id", p.runId());
      StringBuilderWriter w = new StringBuilderWriter();
      marker.store(w, "dataflow publication");
      write(tmp.resolve(MARKER), w.toString());
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException e) {
        if (!Files.isDirectory(target)) {
          throw e;
        }
        // Another dispatch under the same key renamed first: answer with its publication.
        return existing(target, p.idempotencyKey(), p.outputDigest());
      }
      forceDirectory(dir);
    } finally {
      deleteQuietly(tmp);
    }
    return response(target);
  }

  @Override
  public Optional<PublicationResponse> inspect(String idempotencyKey, String outputDigest)
      throws IOException {
    Path target = publicationDirectory(idempotencyKey);
    if (!Files.isRegularFile(target.resolve(MARKER))) {
      return Optional.empty();
    }
    Properties marker = marker(target);
    if (!idempotencyKey.equals(marker.getProperty("idempotency-key"))
        || !outputDigest.equals(marker.getProperty("output-digest"))) {
      return Optional.empty();
    }
    return Optional.of(response(target));
  }

  private PublicationResponse existing(Path target, String key, String digest)
      throws IOException {
    Properties marker = marker(target);
    if (!key.equals(marker.getProperty("idempotency-key"))) {
      throw new PublicationRejectedException(target + " holds the publication of another key");
    }
    if (!digest.equals(marker.getProperty("output-digest"))) {
      throw new PublicationRejectedException("key '" + key + "' was already published to "
          + target + " with output digest " + marker.getProperty("output-digest")
          + ", not " + digest);
    }
    return response(target);
  }

  private PublicationResponse response(Path target) {
    return new PublicationResponse(target.resolve(MARKER).toString(), description(),
        target.resolve(ROWS).toString());
  }

  private static Properties marker(Path target) throws IOException {
    Properties marker = new Properties();
    try (Reader r = Files.newBufferedReader(target.resolve(MARKER), StandardCharsets.UTF_8)) {
      marker.load(r);
    }
    return marker;
  }

  private static void write(Path file, String text) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE);
        Writer w = java.nio.channels.Channels.newWriter(ch, StandardCharsets.UTF_8)) {
      w.write(text);
      w.flush();
      ch.force(true);
    }
  }

  /** Makes the rename durable where the platform allows syncing a directory. */
  private static void forceDirectory(Path d) {
    try (FileChannel ch = FileChannel.open(d, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // Not every platform can sync a directory; the rename itself is still atomic.
    }
  }

  private static void deleteQuietly(Path tmp) {
    if (!Files.exists(tmp)) {
      return;
    }
    try (Stream<Path> s = Files.walk(tmp)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // a leftover temporary directory is named .tmp-*, never mistaken for a publication
    }
  }

  @Override
  public String toString() {
    return description();
  }

  /** A writer into a string, for {@link Properties#store}. */
  private static final class StringBuilderWriter extends java.io.StringWriter {}
}
