package io.dataflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The run the build makes the class-data-sharing archive from succeeds on what the pom gives it. */
class ArchiveTrainingTest {
  private static final Path ROOT = Path.of(System.getProperty("basedir", ".")).resolve("..");

  @Test
  void everyCommandOfTheTrainingSucceedsOnTheCounterExample() {
    assertThat(ArchiveTraining.train(ROOT.resolve("docs/examples/counter.dsrv").toString(),
        ROOT.resolve("docs/examples/counter.input").toString())).isEqualTo(Cli.OK);
  }

  @Test
  void aFailingCommandFailsTheTraining() {
    assertThat(ArchiveTraining.train("no-such.dsrv", "no-such.input")).isEqualTo(Cli.FAILED);
  }
}
