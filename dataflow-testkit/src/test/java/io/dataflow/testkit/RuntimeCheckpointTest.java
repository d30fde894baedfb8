package io.dataflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.DataflowRuntime;
import io.dataflow.core.ExecutionPolicy;
import io.dataflow.core.ExitReport;
import io.dataflow.core.snapshot.RuntimeCheckpoint;
import io.dataflow.io.OutputRow;
import io.dataflow.io.Sinks;
import io.dataflow.io.TraceFileSource;
import io.dataflow.reconfig.ReconfigurableDataflowRuntimeBuilder;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runtime checkpoints: written between items every N ticks, and a run resumed from any of them
 * prints exactly what the uninterrupted run printed after it, with the same tick numbers.
 */
class RuntimeCheckpointTest {
  private static final String COUNTER = "in x\nout z\nz = default(z[1], 0) + x";

  @TempDir
  Path dir;

  /** Thirty ticks; at tick 12 a request makes the counter add twice its input. */
  private static String trace() {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 30; i++) {
      b.append(i).append(": x = ").append(i % 7).append('\n');
      if (i == 12) {
        b.append("@reconfigure {specification: \"in x\\nout z\\nz = default(z[1], 0) + 2 * x\"}\n");
      }
    }
    return b.toString();
  }

  /** The same thirty ticks and request, one item per batch (a checkpoint can fall anywhere). */
  private static io.dataflow.core.spi.Source items() {
    List<Object> items = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      items.add(io.dataflow.core.Tick.of("x", io.dataflow.core.Value.of(i % 7)));
      if (i == 12) {
        items.add(io.dataflow.reconfig.ReconfigurationRequest.of(
            "in x\nout z\nz = default(z[1], 0) + 2 * x"));
      }
    }
    return io.dataflow.io.InMemorySource.ofItems("trace", items);
  }

  private record Run(List<OutputRow> rows, ExitReport report, List<String> warnings) {}

  private static Run run(String spec, Path checkpoints, Path resume) {
    return run(spec, checkpoints, resume, RuntimeCheckpointTest::items);
  }

  private static Run run(String spec, Path checkpoints, Path resume,
      java.util.function.Supplier<io.dataflow.core.spi.Source> source) {
    return run(spec, checkpoints, resume, source, null);
  }

  private static Run run(String spec, Path checkpoints, Path resume,
      java.util.function.Supplier<io.dataflow.core.spi.Source> source,
      io.dataflow.core.spi.OutputWriter extra) {
    Sinks.Collecting out = Sinks.collecting();
    List<String> warnings = new ArrayList<>();
    ReconfigurableDataflowRuntimeBuilder b = ReconfigurableDataflowRuntimeBuilder.create()
        .specification("counter.dsrv", spec)
        .source(source.get())
        .destination("out", out)
        .acknowledgements(ack -> { })
        .warnings(warnings::add)
        .options(o -> o.withPolicy(ExecutionPolicy.SYNCHRONOUS).withCheckpointEveryTicks(4)
            .withCheckpointKeep(100));
    if (extra != null) {
      b.destination("extra", extra);
    }
    if (checkpoints != null) {
      b.checkpoints(checkpoints);
    }
    if (resume != null) {
      b.resumeFrom(resume);
    }
    DataflowRuntime runtime = b.build();
    ExitReport r = runtime.runInCallerThread();
    return new Run(out.rows(), r, warnings);
  }

  @Test
  void aRunResumedFromAnyCheckpointPrintsWhatTheUninterruptedRunPrintedAfterIt()
      throws IOException {
    everyCheckpointResumesExactly(RuntimeCheckpointTest::items, "items");
  }

  @Test
  void checkpointsFallInsideATraceFilesBatchesAndResumeExactly() throws IOException {
    // A trace file delivers its ticks in batches; positions count single ticks.
    everyCheckpointResumesExactly(
        () -> TraceFileSource.of("trace", new StringReader(trace()), "t.input"), "trace");
  }

  private void everyCheckpointResumesExactly(
      java.util.function.Supplier<io.dataflow.core.spi.Source> source, String name)
      throws IOException {
    Path all = dir.resolve(name);
    Run full = run(COUNTER, all, null, source);
    assertThat(full.report().isCompleted()).isTrue();
    List<Path> files = checkpointFiles(all);
    // After every 4 ticks (between two items), and once at the end.
    assertThat(files).hasSize(8);
    for (Path f : files) {
      RuntimeCheckpoint c = RuntimeCheckpoint.fromBytes(Files.readAllBytes(f));
      long next = c.snapshot().nextTick();
      Path one = dir.resolve(name + "-one-" + f.getFileName());
      Files.createDirectories(one);
      Files.copy(f, one.resolve(f.getFileName()));
      Run resumed = run(COUNTER, null, one, source);
      assertThat(resumed.report().isCompleted()).as("resume from %s", f).isTrue();
      List<OutputRow> expected = full.rows().stream().filter(r -> r.tick() >= next).toList();
      assertThat(resumed.rows()).as("resume from %s (next tick %d)", f, next)
          .containsExactlyElementsOf(expected);
      assertThat(resumed.warnings()).isEmpty();
      // Past the request, the resumed run runs the replacement it had accepted.
      if (next > 13) {
        assertThat(c.specification()).contains("2 * x");
      }
    }
  }

  @Test
  void aCheckpointOfAnotherSpecificationMovesItsStateByTheTransferRulesAndSaysSo()
      throws IOException {
    Path ckpt = dir.resolve("c");
    run(COUNTER, ckpt, null);
    String other = "in x\nout z\nout seen\nz = default(z[1], 0) + x\nseen = x > 3";
    Run resumed = run(other, null, ckpt);
    assertThat(resumed.warnings()).singleElement().asString()
        .contains("was taken with another specification").contains("kept [");
  }

  @Test
  void anEmptyCheckpointDirectoryStartsFromTheBeginningWithAWarning() {
    Run full = run(COUNTER, null, null);
    Run resumed = run(COUNTER, null, dir.resolve("empty"));
    assertThat(resumed.rows()).containsExactlyElementsOf(full.rows());
    assertThat(resumed.warnings()).containsExactly("no checkpoint in " + dir.resolve("empty")
        + "; starting from the beginning");
  }

  @Test
  void anUnreadableNewestCheckpointIsSetAsideAndTheOlderOneResumes() throws IOException {
    Path ckpt = dir.resolve("c");
    run(COUNTER, ckpt, null);
    List<Path> files = checkpointFiles(ckpt);
    Path newest = files.get(files.size() - 1);
    byte[] b = Files.readAllBytes(newest);
    b[b.length / 2] ^= 0x55;
    Files.write(newest, b);
    Run resumed = run(COUNTER, null, ckpt);
    assertThat(resumed.warnings()).singleElement().asString().contains("could not be read")
        .contains("checksum mismatch");
    assertThat(Path.of(newest + ".unreadable")).exists();
    assertThat(resumed.report().isCompleted()).isTrue();
  }

  @Test
  void aTraceFileResumesAfterTheTicksItsCheckpointCounted() throws IOException {
    java.util.function.Supplier<io.dataflow.core.spi.Source> file =
        () -> TraceFileSource.of("trace", new StringReader(trace()), "t.input");
    Path all = dir.resolve("trace");
    Run full = run(COUNTER, all, null, file);
    List<Path> files = checkpointFiles(all);
    assertThat(files).isNotEmpty();
    RuntimeCheckpoint first = RuntimeCheckpoint.fromBytes(Files.readAllBytes(files.get(0)));
    Path one = dir.resolve("first");
    Files.createDirectories(one);
    Files.copy(files.get(0), one.resolve(files.get(0).getFileName()));
    Run resumed = run(COUNTER, null, one, file);
    long next = first.snapshot().nextTick();
    assertThat(next).isPositive();
    assertThat(resumed.rows()).containsExactlyElementsOf(
        full.rows().stream().filter(r -> r.tick() >= next).toList());
  }

  @Test
  void aResumedRunCountsThisInvocationsTicksAndTheTotalOnce() throws IOException {
    Path all = dir.resolve("all");
    Run full = run(COUNTER, all, null);
    assertThat(full.report().ticksIn()).isEqualTo(30);
    assertThat(full.report().ticksTotal()).isEqualTo(30);
    assertThat(full.report().checkpoint()).isEqualTo(ExitReport.CheckpointOutcome.KEPT);
    Path f = all.resolve("checkpoint-00000000000000000004.ckpt");
    long next = RuntimeCheckpoint.fromBytes(Files.readAllBytes(f)).snapshot().nextTick();
    Path one = dir.resolve("one");
    Files.createDirectories(one);
    Files.copy(f, one.resolve(f.getFileName()));
    Run resumed = run(COUNTER, null, one);
    assertThat(resumed.report().ticksIn()).isEqualTo(30 - next);
    assertThat(resumed.report().ticksTotal()).isEqualTo(30);
    assertThat(resumed.report().checkpoint()).isEqualTo(ExitReport.CheckpointOutcome.NONE);
  }

  @Test
  void aFailureThatDoesNotKeepTheCheckpointResumableSetsItAsideWithTheReason()
      throws IOException {
    Path ckpt = dir.resolve("c");
    // A source that finds its own input inconsistent and says a restart cannot trust the
    // state built from it (an error may state its own reason).
    class Inconsistent extends RuntimeException implements io.dataflow.core.FatalReason.Explained {
      Inconsistent() {
        super("offsets went backwards");
      }

      @Override
      public io.dataflow.core.FatalReason fatalReason(String component) {
        return new io.dataflow.core.FatalReason(io.dataflow.core.FatalReason.Kind.INTERNAL,
            component, getMessage(), "Do not resume from the state built on this input.", false);
      }
    }
    java.util.function.Supplier<io.dataflow.core.spi.Source> failing = () ->
        new io.dataflow.core.spi.Source() {
          final io.dataflow.core.spi.Source items = items();
          int polls;

          @Override
          public String name() {
            return items.name();
          }

          int delivered;

          @Override
          public void open(io.dataflow.core.spi.SourceContext context) throws Exception {
            // Lets ten items through, then refuses (the items stay with the source).
            items.open((io.dataflow.core.spi.SourceContext) java.lang.reflect.Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {io.dataflow.core.spi.SourceContext.class}, (proxy, m, args) -> {
                  if (m.getName().startsWith("offer") && delivered >= 10) {
                    return false;
                  }
                  if (m.getName().startsWith("offer")) {
                    delivered++;
                  }
                  return m.invoke(context, args);
                }));
          }

          @Override
          public int poll(long nowNanos) {
            if (delivered >= 10 && ++polls > 3) {
              throw new Inconsistent();
            }
            return items.poll(nowNanos);
          }

          @Override
          public void close() throws Exception {
            items.close();
          }
        };
    Run r = run(COUNTER, ckpt, null, failing);
    assertThat(r.report().fatal().kind()).isEqualTo(io.dataflow.core.FatalReason.Kind.INTERNAL);
    assertThat(r.report().fatal().resumable()).isFalse();
    assertThat(r.report().checkpoint()).isEqualTo(ExitReport.CheckpointOutcome.SET_ASIDE);
    Path aside = ckpt.resolve("checkpoint-00000000000000000002.ckpt.set-aside");
    assertThat(aside).exists();
    assertThat(Path.of(aside + ".why")).content().contains("offsets went backwards");
    assertThat(r.report().warnings()).anyMatch(w -> w.contains("set aside"));
    // A restart does not resume from it: the one before it, if any, or the beginning.
    Run resumed = run(COUNTER, null, ckpt);
    assertThat(resumed.report().ticksTotal() - resumed.report().ticksIn())
        .isLessThan(r.report().ticksTotal());
  }

  @Test
  void aCheckpointThatReadsButDoesNotRestoreIsSetAsideAndTheOlderOneResumes()
      throws IOException {
    Path ckpt = dir.resolve("c");
    run(COUNTER, ckpt, null);
    List<Path> files = checkpointFiles(ckpt);
    Path newest = files.get(files.size() - 1);
    RuntimeCheckpoint c = RuntimeCheckpoint.fromBytes(Files.readAllBytes(newest));
    // Well-formed, but its specification no longer compiles.
    Files.write(newest, new RuntimeCheckpoint(c.sequence(), c.positions(), c.baseKey(),
        c.specificationName(), "in x\nout z\nz = nope", c.snapshot()).toBytes());
    Run resumed = run(COUNTER, null, ckpt);
    assertThat(resumed.warnings()).singleElement().asString().contains("could not be read")
        .contains("unknown stream 'nope'");
    assertThat(Path.of(newest + ".unreadable")).exists();
    assertThat(resumed.report().isCompleted()).isTrue();
    RuntimeCheckpoint older = RuntimeCheckpoint.fromBytes(
        Files.readAllBytes(files.get(files.size() - 2)));
    assertThat(resumed.report().ticksTotal() - resumed.report().ticksIn())
        .isEqualTo(older.snapshot().nextTick());
  }

  @Test
  void resumingFromAMissingDirectoryDoesNotCreateIt() {
    Path missing = dir.resolve("missing");
    Run resumed = run(COUNTER, null, missing);
    assertThat(resumed.warnings()).containsExactly("no checkpoint in " + missing
        + "; starting from the beginning");
    assertThat(missing).doesNotExist();
  }

  @Test
  void resumingWithTheSpecificationInForceRestoresExactlyWithoutAWarning() throws IOException {
    Path ckpt = dir.resolve("c");
    Run full = run(COUNTER, ckpt, null);
    // The request at tick 12 put this one in force; the newest checkpoint is of it.
    Run resumed = run("in x\nout z\nz = default(z[1], 0) + 2 * x", null, ckpt);
    assertThat(resumed.warnings()).isEmpty();
    assertThat(resumed.report().ticksTotal()).isEqualTo(full.report().ticksTotal());
  }

  /** The checkpoint files of a directory, oldest first. */
  private static List<Path> checkpointFiles(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(f -> f.toString().endsWith(".ckpt")).sorted().toList();
    }
  }
}
