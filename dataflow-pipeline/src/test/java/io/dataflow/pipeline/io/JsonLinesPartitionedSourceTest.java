package io.dataflow.pipeline.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.Value;
import io.dataflow.io.TraceException;
import io.dataflow.pipeline.spi.PartitionedSource;
import io.dataflow.pipeline.spi.SourceRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A JSON Lines file split into partitions by key hash (docs/pipeline.md#sources). */
class JsonLinesPartitionedSourceTest {
  @TempDir
  Path dir;

  final Set<Integer> assigned = new TreeSet<>();
  Map<Integer, Long> committed = Map.of();
  final PartitionedSource.Rebalance rebalance = new PartitionedSource.Rebalance() {
    @Override
    public Map<Integer, Long> assigned(Set<Integer> partitions) {
      assigned.addAll(partitions);
      return committed;
    }

    @Override
    public void revoked(Set<Integer> partitions) {
      assigned.removeAll(partitions);
    }
  };

  Path file(String text) throws Exception {
    Path p = dir.resolve("in.jsonl");
    Files.writeString(p, text);
    return p;
  }

  static List<SourceRecord> drain(PartitionedSource s) throws Exception {
    List<SourceRecord> out = new ArrayList<>();
    for (int i = 0; i < 100 && !s.isExhausted(); i++) {
      out.addAll(s.poll(2));
    }
    return out;
  }

  /**
   * Catches: the key field passed as an input, offsets that depend on the read order instead
   * of the file, integer keys read as strings.
   */
  @Test
  void recordsGoToTheirKeysPartitionWithStableOffsets() throws Exception {
    Path f = file("{\"id\": \"a\", \"x\": 1}\n// a comment\n{\"id\": 2, \"x\": 2}\n"
        + "{\"id\": \"a\", \"x\": 3}\n\n{\"id\": \"b\", \"x\": 4}\n");
    JsonLinesPartitionedSource s = new JsonLinesPartitionedSource(f, "id", 3,
        JsonLinesPartitionedSource.OnBadRecord.FAIL, w -> {});
    s.open(rebalance);
    assertThat(assigned).containsExactly(0, 1, 2);
    List<SourceRecord> all = drain(s);
    assertThat(all).hasSize(4);
    for (SourceRecord r : all) {
      assertThat(r.partition()).isEqualTo(Math.floorMod(r.key().hashCode(), 3));
      assertThat(r.tick().asMap()).containsOnlyKeys("x");
    }
    assertThat(all.stream().map(SourceRecord::key)).contains(2L, "a", "b");
    List<SourceRecord> a = all.stream().filter(r -> r.key().equals("a")).toList();
    assertThat(a.get(1).offset()).isEqualTo(a.get(0).offset() + 1);
    assertThat(a.get(1).tick().asMap().get("x")).isEqualTo(Value.of(3));
    assertThat(s.isEnded(0)).isTrue();
  }

  /** Catches: a resumed read that repeats committed records or skips uncommitted ones. */
  @Test
  void openingAtPositionsSkipsWhatWasCommitted() throws Exception {
    Path f = file("{\"id\": \"a\", \"x\": 1}\n{\"id\": \"a\", \"x\": 2}\n{\"id\": \"a\", \"x\": 3}\n");
    int p = Math.floorMod("a".hashCode(), 2);
    JsonLinesPartitionedSource s = new JsonLinesPartitionedSource(f, "id", 2,
        JsonLinesPartitionedSource.OnBadRecord.FAIL, w -> {});
    committed = Map.of(p, 2L);
    s.open(rebalance);
    List<SourceRecord> all = drain(s);
    assertThat(all).singleElement().satisfies(r -> {
      assertThat(r.offset()).isEqualTo(2);
      assertThat(r.tick().asMap().get("x")).isEqualTo(Value.of(3));
    });
  }

  /** Catches: a paused partition whose records are returned, or lost on resume. */
  @Test
  void aPausedPartitionKeepsItsRecordsUntilResumed() throws Exception {
    Path f = file("{\"id\": 0, \"x\": 1}\n{\"id\": 1, \"x\": 2}\n{\"id\": 0, \"x\": 3}\n");
    JsonLinesPartitionedSource s = new JsonLinesPartitionedSource(f, "id", 2,
        JsonLinesPartitionedSource.OnBadRecord.FAIL, w -> {});
    s.open(rebalance);
    s.pause(Set.of(0));
    List<SourceRecord> first = s.poll(10);
    assertThat(first).extracting(SourceRecord::key).containsExactly(1L);
    assertThat(s.isExhausted()).isFalse();
    s.resume(Set.of(0));
    assertThat(s.poll(10)).extracting(SourceRecord::offset).containsExactly(0L, 1L);
    assertThat(s.isExhausted()).isTrue();
  }

  /**
   * Catches: a bad line that swallows the good records read before it in the same poll, and
   * messages without the line.
   */
  @Test
  void aBadLineFailsAfterTheRecordsBeforeIt() throws Exception {
    Path f = file("{\"id\": \"a\", \"x\": 1}\n{\"id\": {\"n\": 1}, \"x\": 2}\n");
    JsonLinesPartitionedSource s = new JsonLinesPartitionedSource(f, "id", 1,
        JsonLinesPartitionedSource.OnBadRecord.FAIL, w -> {});
    s.open(rebalance);
    assertThat(s.poll(10)).hasSize(1);
    assertThatThrownBy(() -> s.poll(10)).isInstanceOf(TraceException.class)
        .hasMessageContaining("in.jsonl:2").hasMessageContaining("must be a string or an integer");
  }

  /** Catches: skipped lines that are silent, or that stop the source. */
  @Test
  void skippedLinesAreCountedAndWarned() throws Exception {
    Path f = file("not json\n{\"x\": 2}\n{\"id\": \"a\", \"x\": 3}\n");
    List<String> warnings = new ArrayList<>();
    JsonLinesPartitionedSource s = new JsonLinesPartitionedSource(f, "id", 1,
        JsonLinesPartitionedSource.OnBadRecord.SKIP, warnings::add);
    s.open(rebalance);
    assertThat(drain(s)).hasSize(1);
    assertThat(s.skipped()).isEqualTo(2);
    assertThat(warnings).hasSize(2);
    assertThat(warnings.get(0)).contains("in.jsonl:1");
    assertThat(warnings.get(1)).contains("no key field 'id'");
  }
}
