package io.dataflow.pipeline.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.pipeline.spi.LaneCheckpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commits in a directory: atomic, merged per partition, damaged files set aside. */
class FileCheckpointerTest {
  @TempDir
  Path dir;

  static LaneCheckpoint lane(int p, long position, String state) {
    return new LaneCheckpoint(p, position, "in x\nout y\ny = x", state.getBytes());
  }

  /** Catches: a commit that forgets the partitions it does not name, or loses the state. */
  @Test
  void commitsMergeByPartitionAndSurviveANewCheckpointer() throws Exception {
    FileCheckpointer c = new FileCheckpointer(dir, 3);
    assertThat(c.load()).isEmpty();
    c.commit(Map.of(0, lane(0, 5, "a"), 1, lane(1, 7, "b")));
    c.commit(Map.of(1, lane(1, 9, "c")));
    Map<Integer, LaneCheckpoint> back = new FileCheckpointer(dir, 3).load();
    assertThat(back).containsOnlyKeys(0, 1);
    assertThat(back.get(0).position()).isEqualTo(5);
    assertThat(new String(back.get(0).state())).isEqualTo("a");
    assertThat(back.get(1).position()).isEqualTo(9);
    assertThat(new String(back.get(1).state())).isEqualTo("c");
    assertThat(back.get(1).specification()).isEqualTo("in x\nout y\ny = x");
  }

  /** Catches: a damaged newest file that is read, deleted, or that hides the older one. */
  @Test
  void aDamagedNewestCommitIsSetAsideAndTheOlderOneIsUsed() throws Exception {
    FileCheckpointer c = new FileCheckpointer(dir, 3);
    c.commit(Map.of(0, lane(0, 5, "a")));
    c.commit(Map.of(0, lane(0, 8, "b")));
    Path newest;
    try (Stream<Path> files = Files.list(dir)) {
      newest = files.filter(f -> f.toString().endsWith(".ckpt")).sorted().reduce((a, b) -> b)
          .orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(newest);
    bytes[bytes.length / 2] ^= 0x5a;
    Files.write(newest, bytes);
    Map<Integer, LaneCheckpoint> back = new FileCheckpointer(dir, 3).load();
    assertThat(back.get(0).position()).isEqualTo(5);
    try (Stream<Path> files = Files.list(dir)) {
      List<String> names = files.map(f -> f.getFileName().toString()).toList();
      assertThat(names).anySatisfy(n -> assertThat(n).contains(".unreadable"));
    }
  }

  /** Catches: keeping every commit forever. */
  @Test
  void onlyTheNewestCommitsAreKept() throws Exception {
    FileCheckpointer c = new FileCheckpointer(dir, 2);
    for (int i = 0; i < 5; i++) {
      c.commit(Map.of(0, lane(0, i, "s" + i)));
    }
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.filter(f -> f.toString().endsWith(".ckpt")).count()).isEqualTo(2);
    }
    assertThat(new FileCheckpointer(dir, 2).load().get(0).position()).isEqualTo(4);
  }

  /** Catches: set-aside that deletes, or that is read again. */
  @Test
  void settingAsideKeepsTheFileButNoLoadReadsIt() throws Exception {
    FileCheckpointer c = new FileCheckpointer(dir, 3);
    assertThat(c.setAside("nothing yet")).isFalse();
    c.commit(Map.of(0, lane(0, 5, "a")));
    assertThat(c.setAside("INTERNAL failure")).isTrue();
    assertThat(new FileCheckpointer(dir, 3).load()).isEmpty();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .anySatisfy(n -> assertThat(n).contains(".set-aside"));
    }
  }
}
