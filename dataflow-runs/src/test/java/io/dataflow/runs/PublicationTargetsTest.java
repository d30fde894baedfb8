package io.dataflow.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.io.OutputRow;
import io.dataflow.runs.internal.Digests;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The two targets keep the idempotency contract: one publication per key. */
class PublicationTargetsTest {
  @TempDir
  Path tmp;

  static Publication publication(String key, String rendered) {
    String digest = Digests.sha256Hex(rendered);
    return new Publication("run-1", 1, key, Digests.sha256Hex(key + digest), digest,
        Digests.sha256Hex("src"), List.<OutputRow>of(), rendered);
  }

  @Test
  void directoryTargetPublishesAtomicallyOncePerKeyAndInspectionFindsIt() throws Exception {
    DirectoryTarget target = DirectoryTarget.of(tmp.resolve("out"));
    Publication p = publication("nightly/2026-03-01", "z[0] = Int(1)\n");

    PublicationResponse first = target.publish(p);
    PublicationResponse again = target.publish(p);

    assertThat(again).isEqualTo(first);
    assertThat(Files.readString(Path.of(first.materialization()))).isEqualTo("z[0] = Int(1)\n");
    assertThat(target.inspect(p.idempotencyKey(), p.outputDigest())).contains(first);
    assertThat(target.inspect(p.idempotencyKey(), "0".repeat(64))).isEmpty();
    assertThat(target.inspect("other", p.outputDigest())).isEmpty();
    try (var files = Files.list(tmp.resolve("out"))) {
      assertThat(files.map(f -> f.getFileName().toString()))
          .singleElement().asString().startsWith("publication-");
    }
    assertThatThrownBy(() -> target.publish(publication(p.idempotencyKey(), "z[0] = Int(2)\n")))
        .isInstanceOf(PublicationRejectedException.class).hasMessageContaining("already");
  }

  @Test
  void jdbcTableTargetKeepsTheKeyUniqueAndRecordsNoCredentialInItsDescription()
      throws Exception {
    Properties props = new Properties();
    props.setProperty("user", "publisher");
    props.setProperty("password", "pw-123");
    JdbcTableTarget target = JdbcTableTarget.of("jdbc:h2:mem:pub;DB_CLOSE_DELAY=-1", props,
        "verdicts");
    Publication p = publication("k1", "z[0] = Int(1)\n");

    PublicationResponse first = target.publish(p);
    assertThat(target.publish(p)).isEqualTo(first);
    assertThat(target.inspect("k1", p.outputDigest())).contains(first);
    assertThat(target.inspect("k2", p.outputDigest())).isEmpty();
    assertThatThrownBy(() -> target.publish(publication("k1", "z[0] = Int(2)\n")))
        .isInstanceOf(PublicationRejectedException.class);
    assertThat(target.accessIdentity()).isEqualTo("publisher");
    assertThat(target.description() + first).doesNotContain("pw-123").doesNotContain("publisher");
    assertThatThrownBy(() -> JdbcTableTarget.of("jdbc:h2:mem:x", props, "x; DROP TABLE y"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("table name");
  }
}
