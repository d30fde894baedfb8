package io.dataflow.core.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Atomic checkpoint files: the newest few kept, a crashed write harmless, a bad one set aside. */
class CheckpointStoreTest {
  @TempDir
  Path dir;

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(Path file, byte[] b) {
    return new String(b, StandardCharsets.UTF_8);
  }

  @Test
  void keepsTheNewestCheckpointsAndReadsTheLatest() throws IOException {
    CheckpointStore store = new CheckpointStore(dir.resolve("ckpt"), 3);
    for (long s = 1; s <= 5; s++) {
      store.write(s, bytes("state " + s));
    }
    assertThat(store.sequences()).containsExactly(3L, 4L, 5L);
    Optional<CheckpointStore.Loaded<String>> latest = store.latest(CheckpointStoreTest::text);
    assertThat(latest).isPresent();
    assertThat(latest.get().sequence()).isEqualTo(5);
    assertThat(latest.get().content()).isEqualTo("state 5");
    assertThat(latest.get().setAside()).isEmpty();
  }

  @Test
  void aCrashBetweenWriteAndRenameLeavesThePreviousCheckpointValid() throws IOException {
    CheckpointStore store = new CheckpointStore(dir, 2);
    store.write(7, bytes("complete"));
    // What a crash after writing the temporary file, before the rename, leaves behind.
    Files.write(dir.resolve("checkpoint-00000000000000000008.ckpt.tmp"), bytes("half"));
    assertThat(store.sequences()).containsExactly(7L);
    assertThat(store.latest(CheckpointStoreTest::text).orElseThrow().content())
        .isEqualTo("complete");
    // The next write of that number replaces the leftover, and a store opened later removes
    // leftovers it finds.
    store.write(8, bytes("again"));
    assertThat(store.latest(CheckpointStoreTest::text).orElseThrow().content())
        .isEqualTo("again");
    assertThat(dir.resolve("checkpoint-00000000000000000008.ckpt.tmp")).doesNotExist();
    Files.write(dir.resolve("checkpoint-00000000000000000009.ckpt.tmp"), bytes("half"));
    new CheckpointStore(dir, 2);
    assertThat(dir.resolve("checkpoint-00000000000000000009.ckpt.tmp")).doesNotExist();
  }

  @Test
  void aCheckpointTheReaderRejectsIsSetAsideNeverDeletedAndTheOlderOneIsRead()
      throws IOException {
    CheckpointStore store = new CheckpointStore(dir, 5);
    store.write(1, bytes("good"));
    store.write(2, bytes("corrupt"));
    CheckpointStore.Loaded<String> loaded = store.latest((file, b) -> {
      String s = text(file, b);
      if (s.equals("corrupt")) {
        throw new IOException("checksum mismatch");
      }
      return s;
    }).orElseThrow();
    assertThat(loaded.sequence()).isEqualTo(1);
    assertThat(loaded.content()).isEqualTo("good");
    Path aside = dir.resolve("checkpoint-00000000000000000002.ckpt.unreadable");
    assertThat(loaded.setAside()).containsExactly(
        new CheckpointStore.SetAside(aside, "checksum mismatch"));
    assertThat(aside).hasContent("corrupt");
    assertThat(store.sequences()).containsExactly(1L);
  }

  @Test
  void anEmptyOrMissingDirectoryHasNoCheckpoint() throws IOException {
    assertThat(new CheckpointStore(dir.resolve("new"), 1).latest(CheckpointStoreTest::text))
        .isEmpty();
    assertThat(dir.resolve("new")).isDirectory();
  }

  @Test
  void aCheckpointMustBeNewerThanTheNewestOne() throws IOException {
    CheckpointStore store = new CheckpointStore(dir, 2);
    store.write(5, bytes("five"));
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.write(5, bytes("again")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("checkpoint 5 is not newer than the newest");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.write(3, bytes("old")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(store.latest(CheckpointStoreTest::text).orElseThrow().content()).isEqualTo("five");
  }
}
