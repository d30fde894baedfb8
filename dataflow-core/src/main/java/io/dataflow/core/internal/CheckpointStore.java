package io.dataflow.core.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A directory of numbered checkpoint files, written atomically, keeping the newest few.
 *
 * <p>A write goes to a temporary file in the same directory, is forced to disk, then renamed
 * over its final name (an atomic move) and the directory is forced, so a crash at any point
 * leaves either the previous checkpoints or the new one complete, never half a file under a
 * checkpoint's name. Reading picks the newest checkpoint that the caller's reader accepts; one
 * it rejects is set aside under a new name ({@code .unreadable}), never deleted, and the next
 * older one is tried. Leftover temporary files of a crashed write are ignored.
 *
 * <p>Thread-safety: one writer (the owner thread); not for concurrent use.
 */
public final class CheckpointStore {
  private static final Pattern NAME = Pattern.compile("checkpoint-(\\d{20})\\.ckpt");
  /** A larger file is not read into memory: it is set aside like any unreadable one. */
  private static final long MAX_FILE_BYTES = 1L << 30;

  /** Reads a checkpoint's bytes; throws to reject it. */
  @FunctionalInterface
  public interface Reader<T> {
    /** The checkpoint's content, or an exception saying why it cannot be used. */
    T read(Path file, byte[] bytes) throws Exception;
  }

  /**
   * A checkpoint read back.
   *
   * @param sequence its number (increasing with every write)
   * @param file where it is
   * @param content what the reader made of it
   * @param setAside newer checkpoints the reader rejected, renamed aside (empty when none)
   */
  public record Loaded<T>(long sequence, Path file, T content, List<SetAside> setAside) {}

  /**
   * A checkpoint the reader rejected.
   *
   * @param file where it was moved (kept for inspection, never read again)
   * @param reason why the reader rejected it
   */
  public record SetAside(Path file, String reason) {}

  private final Path dir;
  private final int keep;

  /**
   * A store in {@code dir} (created when missing) keeping the newest {@code keep} checkpoints.
   *
   * @throws IOException when the directory cannot be created
   */
  public CheckpointStore(Path dir, int keep) throws IOException {
    if (keep < 1) {
      throw new IllegalArgumentException("keep at least one checkpoint: " + keep);
    }
    this.dir = Objects.requireNonNull(dir, "dir");
    this.keep = keep;
    Files.createDirectories(dir);
    // A crashed write leaves a temporary file; it never became a checkpoint.
    try (DirectoryStream<Path> tmp = Files.newDirectoryStream(dir, "checkpoint-*.ckpt.tmp")) {
      for (Path f : tmp) {
        Files.deleteIfExists(f);
      }
    }
  }

  /** The directory. */
  public Path directory() {
    return dir;
  }

  /**
   * Writes checkpoint {@code sequence} (newer than every checkpoint in the directory)
   * atomically and deletes checkpoints beyond the newest {@code keep}.
   *
   * @throws IOException when it cannot be written; the previous checkpoints are then intact
   */
  public Path write(long sequence, byte[] content) throws IOException {
    List<Long> before = sequences();
    if (sequence < 0 || (!before.isEmpty() && sequence <= before.get(before.size() - 1))) {
      throw new IllegalArgumentException("checkpoint " + sequence + " is not newer than the "
          + "newest in " + dir + (before.isEmpty() ? "" : " (" + before.get(before.size() - 1)
          + ")"));
    }
    Path target = dir.resolve(String.format("checkpoint-%020d.ckpt", sequence));
    Path tmp = dir.resolve(target.getFileName() + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE,
        StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      ByteBuffer buf = ByteBuffer.wrap(content);
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      ch.force(true);
    }
    try {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.deleteIfExists(tmp);
      throw new IOException(dir + " does not support atomic renames; checkpoints need them", e);
    }
    forceDirectory();
    List<Long> all = sequences();
    for (int i = 0; i < all.size() - keep; i++) {
      Files.deleteIfExists(fileOf(all.get(i)));
    }
    return target;
  }

  /**
   * The newest checkpoint that {@code reader} accepts, or empty when there is none (an empty or
   * missing directory). Rejected newer checkpoints are renamed aside, not deleted.
   *
   * @throws IOException when the directory cannot be listed or a file cannot be read
   */
  public <T> Optional<Loaded<T>> latest(Reader<T> reader) throws IOException {
    List<Long> all = sequences();
    List<SetAside> aside = new ArrayList<>();
    for (int i = all.size() - 1; i >= 0; i--) {
      Path file = fileOf(all.get(i));
      try {
        if (Files.size(file) > MAX_FILE_BYTES) {
          throw new IOException(Files.size(file) + " bytes is more than a checkpoint may hold");
        }
        byte[] bytes = Files.readAllBytes(file);
        return Optional.of(new Loaded<>(all.get(i), file, reader.read(file, bytes),
            List.copyOf(aside)));
      } catch (Exception rejected) {
        aside.add(new SetAside(setAside(file), rejected.getMessage() == null
            ? rejected.getClass().getSimpleName() : rejected.getMessage()));
      }
    }
    return Optional.empty();
  }

  /**
   * Renames checkpoint {@code sequence} aside ({@code .set-aside}), so no restart reads it, and
   * records why beside it ({@code .why}); never deletes it.
   *
   * @return where it went
   */
  public Path setAside(long sequence, String why) throws IOException {
    Path file = fileOf(sequence);
    Path aside = file.resolveSibling(file.getFileName() + ".set-aside");
    for (int n = 1; Files.exists(aside); n++) {
      aside = file.resolveSibling(file.getFileName() + ".set-aside-" + n);
    }
    Files.move(file, aside, StandardCopyOption.ATOMIC_MOVE);
    Files.writeString(aside.resolveSibling(aside.getFileName() + ".why"), why + "\n");
    forceDirectory();
    return aside;
  }

  /** The sequence numbers of the complete checkpoints, oldest first. */
  public List<Long> sequences() throws IOException {
    List<Long> out = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return out;
    }
    try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "checkpoint-*.ckpt")) {
      for (Path f : files) {
        Matcher m = NAME.matcher(f.getFileName().toString());
        if (m.matches()) {
          out.add(Long.parseLong(m.group(1)));
        }
      }
    }
    out.sort(null);
    return out;
  }

  private Path fileOf(long sequence) {
    return dir.resolve(String.format("checkpoint-%020d.ckpt", sequence));
  }

  /** Renames a rejected checkpoint so that it is kept for inspection but never read again. */
  private Path setAside(Path file) throws IOException {
    Path aside = file.resolveSibling(file.getFileName() + ".unreadable");
    for (int n = 1; Files.exists(aside); n++) {
      aside = file.resolveSibling(file.getFileName() + ".unreadable-" + n);
    }
    Files.move(file, aside, StandardCopyOption.ATOMIC_MOVE);
    forceDirectory();
    return aside;
  }

  /** Makes the rename durable (best effort where a directory cannot be opened). */
  private void forceDirectory() {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // Some platforms cannot open a directory; the rename itself is still atomic there.
    }
  }
}
