package io.dataflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dataflow run --key}: the keyed pipeline from the command line (docs/cli.md). */
class KeyedRunTest {
  @TempDir
  Path dir;

  static final String SUM = "in x: Int\nout s: Int\ns = default(s[1], 0) + x\n";

  Path write(String name, String text) throws Exception {
    Path p = dir.resolve(name);
    Files.writeString(p, text);
    return p;
  }

  static List<String> linesOf(String text, String key) {
    return Arrays.stream(text.split("\n")).filter(l -> l.startsWith(key)).toList();
  }

  /** Catches: keys sharing state, ticks counted across keys, key rendering with quotes. */
  @Test
  void eachKeyHasItsOwnMonitorAndTickCount() throws Exception {
    Path spec = write("sum.dsrv", SUM);
    Path input = write("in.jsonl", "{\"robot\": \"r1\", \"x\": 1}\n{\"robot\": \"r2\", \"x\": 10}\n"
        + "{\"robot\": 7, \"x\": 100}\n{\"robot\": \"r1\", \"x\": 2}\n{\"robot\": \"r2\", \"x\": 20}\n");
    CliTest.Result r = CliTest.cli("", "run", spec.toString(), "--input-file", input.toString(),
        "--key", "robot", "--partitions", "3", "--drivers", "2");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(linesOf(r.out(), "r1:")).containsExactly("r1: s[0] = Int(1)", "r1: s[1] = Int(3)");
    assertThat(linesOf(r.out(), "r2:")).containsExactly("r2: s[0] = Int(10)",
        "r2: s[1] = Int(30)");
    assertThat(linesOf(r.out(), "7:")).containsExactly("7: s[0] = Int(100)");
    assertThat(r.out().split("\n")).hasSize(5);
  }

  /** Catches: a JSON rendering that quotes integer keys or drops the tick. */
  @Test
  void jsonLinesCarryKeyTickAndValues() throws Exception {
    Path spec = write("sum.dsrv", SUM);
    Path input = write("in.jsonl", "{\"id\": 5, \"x\": 1}\n{\"id\": \"a\", \"x\": 2}\n");
    CliTest.Result r = CliTest.cli("", "run", spec.toString(), "--input-file", input.toString(),
        "--key", "id", "--format", "jsonl", "--partitions", "1");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo("{\"key\":5,\"tick\":0,\"s\":1}\n"
        + "{\"key\":\"a\",\"tick\":0,\"s\":2}\n");
  }

  /** Catches: a bad record that hides the earlier output, or exits 0 or 2. */
  @Test
  void aRecordWithoutTheKeyFailsAfterTheEarlierOutput() throws Exception {
    Path spec = write("sum.dsrv", SUM);
    Path input = write("in.jsonl", "{\"robot\": \"r1\", \"x\": 1}\n{\"x\": 2}\n"
        + "{\"robot\": \"r1\", \"x\": 4}\n");
    CliTest.Result r = CliTest.cli("", "run", spec.toString(), "--input-file", input.toString(),
        "--key", "robot");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.out()).isEqualTo("r1: s[0] = Int(1)\n");
    assertThat(r.err()).contains("in.jsonl:2:1: the record has no key field 'robot'");
  }

  /** Catches: skip mode that stops, or that skips silently. */
  @Test
  void skippedBadRecordsAreCountedWarnings() throws Exception {
    Path spec = write("sum.dsrv", SUM);
    Path input = write("in.jsonl", "{\"robot\": \"r1\", \"x\": 1}\n{\"robot\": [1], \"x\": 2}\n"
        + "{\"robot\": \"r1\", \"x\": 4}\n");
    CliTest.Result r = CliTest.cli("", "run", spec.toString(), "--input-file", input.toString(),
        "--key", "robot", "--on-bad-record", "skip");
    assertThat(r.status()).as(r.err()).isZero();
    assertThat(r.out()).isEqualTo("r1: s[0] = Int(1)\nr1: s[1] = Int(5)\n");
    assertThat(r.err()).contains("warning: skipped bad record").contains("in.jsonl:2:1")
        .contains("1 skipped so far");
  }

  /** Catches: keyed options accepted without --key, or bad numbers accepted. */
  @Test
  void keyedOptionsAreCheckedAsUsageErrors() throws Exception {
    Path spec = write("sum.dsrv", SUM);
    Path input = write("in.jsonl", "{\"robot\": \"r1\", \"x\": 1}\n");
    CliTest.Result r = CliTest.cli("", "run", spec.toString(), "--input-file", input.toString(),
        "--partitions", "2");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("--partitions needs --key FIELD");
    r = CliTest.cli("", "run", spec.toString(), "--input-file", input.toString(), "--key", "robot",
        "--drivers", "0");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("--drivers must be a positive number, not '0'");
    r = CliTest.cli("", "run", spec.toString(), "--input-file", input.toString(), "--key", "robot",
        "--on-bad-record", "drop");
    assertThat(r.status()).isEqualTo(2);
    assertThat(r.err()).contains("--on-bad-record must be fail or skip, not 'drop'");
  }

  /** Catches: a runtime error in one key's tick that is not reported or exits 0. */
  @Test
  void aRuntimeErrorEndsTheRunWithStatusOneNamingTheKey() throws Exception {
    Path spec = write("div.dsrv", "in x: Int\nout q: Int\nq = 10 / x\n");
    Path input = write("in.jsonl", "{\"k\": \"a\", \"x\": 2}\n{\"k\": \"b\", \"x\": 0}\n");
    CliTest.Result r = CliTest.cli("", "run", spec.toString(), "--input-file", input.toString(),
        "--key", "k", "--partitions", "1");
    assertThat(r.status()).isEqualTo(1);
    assertThat(r.err()).contains("key b").contains("offset 1");
  }
}
