package io.dataflow.pipeline.io;

import io.dataflow.io.TraceException;
import io.dataflow.io.internal.ContentLines;
import io.dataflow.pipeline.spi.PartitionedSource;
import io.dataflow.pipeline.spi.SourceRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * A bounded partitioned source over a JSON Lines file in the JSON Lines tick format
 * (docs/formats.md): one tick per line, plus a key field whose value (a string or an integer)
 * is the monitor key and not an input. A record goes to partition
 * {@code floorMod(key.hashCode(), partitions)}, where its offset is its index; so the
 * partitioning, and the positions a pipeline commits, are the same on every read of the file.
 *
 * <p>A line that is not a JSON object, has no key field, or has a key that is not a string or
 * an integer is a {@link TraceException} naming the file and line (the pipeline fails with
 * component {@code source}), or, with {@link OnBadRecord#SKIP}, a counted warning.
 *
 * <p>Thread-safety: the pipeline's controller thread only.
 */
public final class JsonLinesPartitionedSource implements PartitionedSource {
  /** What a bad line does. */
  public enum OnBadRecord {
    /** The source fails with the line's location (the default). */
    FAIL,
    /** The line is skipped, counted and reported as a warning. */
    SKIP
  }

  /** Records of paused partitions read ahead at most; then reading waits for a resume. */
  private static final int MAX_BUFFERED = 65_536;

  private final Path file;
  private final int partitions;
  private final OnBadRecord onBadRecord;
  private final Consumer<String> warnings;
  private final KeyedJsonLines.Decoder decoder;
  private final List<ArrayDeque<SourceRecord>> buffered = new ArrayList<>();
  private final long[] offsets;
  private final long[] start;
  private final Set<Integer> paused = new TreeSet<>();
  private ContentLines in;
  private int bufferedCount;
  private boolean eof;
  private long skipped;
  /** A bad line found after records of the same poll: thrown at the next poll. */
  private TraceException pending;

  /**
   * A source over {@code file} keyed by {@code keyField}, split into {@code partitions}; bad
   * lines fail, or with {@code SKIP} go to {@code warnings}.
   */
  public JsonLinesPartitionedSource(Path file, String keyField, int partitions,
      OnBadRecord onBadRecord, Consumer<String> warnings) {
    this.file = Objects.requireNonNull(file, "file");
    this.decoder = KeyedJsonLines.decoder(Objects.requireNonNull(keyField, "keyField"));
    if (partitions < 1) {
      throw new IllegalArgumentException("at least one partition, not " + partitions);
    }
    this.partitions = partitions;
    this.onBadRecord = Objects.requireNonNull(onBadRecord, "onBadRecord");
    this.warnings = Objects.requireNonNull(warnings, "warnings");
    this.offsets = new long[partitions];
    this.start = new long[partitions];
    for (int i = 0; i < partitions; i++) {
      buffered.add(new ArrayDeque<>());
    }
  }

  @Override
  public void open(Rebalance rebalance) throws IOException {
    in = new ContentLines(Files.newBufferedReader(file, StandardCharsets.UTF_8));
    Set<Integer> all = new TreeSet<>();
    for (int p = 0; p < partitions; p++) {
      all.add(p);
    }
    Map<Integer, Long> positions = rebalance.assigned(all);
    for (int p = 0; p < partitions; p++) {
      start[p] = positions.getOrDefault(p, 0L);
    }
  }

  @Override
  public List<SourceRecord> poll(int max) throws IOException {
    if (pending != null) {
      TraceException e = pending;
      pending = null;
      eof = true;
      throw e;
    }
    List<SourceRecord> out = new ArrayList<>();
    for (int p = 0; p < partitions && out.size() < max; p++) {
      if (!paused.contains(p)) {
        ArrayDeque<SourceRecord> b = buffered.get(p);
        while (!b.isEmpty() && out.size() < max) {
          out.add(b.pollFirst());
          bufferedCount--;
        }
      }
    }
    while (out.size() < max && !eof && bufferedCount < MAX_BUFFERED) {
      SourceRecord r;
      try {
        r = next();
      } catch (TraceException e) {
        if (out.isEmpty()) {
          throw e;
        }
        pending = e; // the records before the bad line are delivered first
        break;
      }
      if (r == null) {
        break;
      }
      if (paused.contains(r.partition())) {
        buffered.get(r.partition()).addLast(r);
        bufferedCount++;
      } else {
        out.add(r);
      }
    }
    return out;
  }

  /** The next record at or past its partition's start, or null at the end of the file. */
  private SourceRecord next() throws IOException {
    String line;
    while ((line = in.next()) != null) {
      SourceRecord r;
      try {
        r = decode(line);
      } catch (TraceException e) {
        if (onBadRecord == OnBadRecord.FAIL) {
          throw e;
        }
        skipped++;
        warnings.accept("skipped bad record " + e.getMessage() + " (" + skipped
            + " skipped so far)");
        continue;
      }
      if (r.offset() >= start[r.partition()]) {
        return r;
      }
    }
    eof = true;
    in.close();
    return null;
  }

  private SourceRecord decode(String line) {
    KeyedJsonLines.Keyed k = decoder.decode(line, file.toString(), in.lineNo());
    int partition = Math.floorMod(k.key().hashCode(), partitions);
    return new SourceRecord(partition, offsets[partition]++, k.key(), k.tick());
  }

  @Override
  public void pause(Set<Integer> lanes) {
    paused.addAll(lanes);
  }

  @Override
  public void resume(Set<Integer> lanes) {
    paused.removeAll(lanes);
  }

  @Override
  public boolean isEnded(int partition) {
    return eof && buffered.get(partition).isEmpty();
  }

  @Override
  public boolean isExhausted() {
    return eof && bufferedCount == 0;
  }

  /** Bad lines skipped so far. */
  public long skipped() {
    return skipped;
  }

  @Override
  public void close() throws IOException {
    if (in != null) {
      in.close();
    }
  }
}
