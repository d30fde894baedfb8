package io.dataflow.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.Value;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The layout of trace files (docs/io.md#trace-files): ticks, continuations, comments, gaps. */
class TraceReaderTest {

  @Test
  void readsTheLanguageExample() {
    TraceRun run = TraceRun.of("0: x = 1\n   y = 2\n1: x = 3\n// comment\n3: y = \"text\"\n");
    assertThat(run.error).isNull();
    assertThat(run.ticks())
        .containsExactly("0: x=Int(1), y=Int(2)", "1: x=Int(3)", "2:", "3: y=Str(\"text\")");
  }

  @Test
  void addsIndentedContinuationLinesToTheTickAbove() {
    TraceRun run = TraceRun.of("0: a = 1\n  b = 2\n\tc = 3\n        d = 4\n1:\n  e = 5\n");
    assertThat(run.ticks())
        .containsExactly("0: a=Int(1), b=Int(2), c=Int(3), d=Int(4)", "1: e=Int(5)");
  }

  @Test
  void skipsFullLineCommentsAndBlankLinesAnywhere() {
    TraceRun run =
        TraceRun.of(
            "// header\n\n   \n0: x = 1\n  // indented comment\n\n  y = 2\n"
                + "\t\n// between\n1: x = 2\n\n");
    assertThat(run.ticks()).containsExactly("0: x=Int(1), y=Int(2)", "1: x=Int(2)");
  }

  @Test
  void allowsACommentAfterAValueOrATickNumber() {
    TraceRun run =
        TraceRun.of(
            "0: x = 1 // one\n   y = \"a // b\"// not in the string\n"
                + "1: // nothing yet\n   x = [1, 2] //list\n");
    assertThat(run.ticks())
        .containsExactly("0: x=Int(1), y=Str(\"a // b\")", "1: x=List([Int(1), Int(2)])");
  }

  @Test
  void fillsAGapWithEmptyTicks() {
    TraceRun run = TraceRun.of("1: x = 1\n4: x = 4\n");
    assertThat(run.ticks()).containsExactly("0:", "1: x=Int(1)", "2:", "3:", "4: x=Int(4)");
    TraceReader.Tick gap = (TraceReader.Tick) run.items.get(2);
    assertThat(gap.number()).isEqualTo(2);
    assertThat(gap.values()).isEmpty();
    assertThat(gap.line()).as("a gap tick has no line").isZero();
  }

  @Test
  void beginsWithTwoEmptyTicksWhenTheFileStartsAtTickTwo() {
    TraceRun run = TraceRun.of("2: x = 1\n");
    assertThat(run.ticks()).containsExactly("0:", "1:", "2: x=Int(1)");
  }

  @Test
  void returnsATickWithoutAssignments() {
    assertThat(TraceRun.of("0:\n1:   \n2: x = 1\n").ticks())
        .containsExactly("0:", "1:", "2: x=Int(1)");
  }

  @Test
  void needsNoSpacesAroundColonAndEqualsSign() {
    assertThat(TraceRun.of("0:x=1\n  y=\"a\"\n").ticks())
        .containsExactly("0: x=Int(1), y=Str(\"a\")");
  }

  @Test
  void acceptsSpaceBeforeTheColonOfATick() {
    assertThat(TraceRun.of("0 : x = 1\n1\t: y = 2\n").ticks())
        .containsExactly("0: x=Int(1)", "1: y=Int(2)");
  }

  @Test
  void letsTheLastAssignmentOfANameInATickWinKeepingItsFirstPosition() {
    TraceRun run = TraceRun.of("0: x = 1\n   y = 2\n   x = 3\n1: x = 4\n   x = \"last\"\n");
    assertThat(run.ticks()).containsExactly("0: x=Int(3), y=Int(2)", "1: x=Str(\"last\")");
  }

  @Test
  void recordsTheLineEachTickStartsOn() {
    TraceRun run = TraceRun.of("// c\n0: x = 1\n   y = 2\n\n5: x = 2\n");
    assertThat(((TraceReader.Tick) run.items.get(0)).line()).isEqualTo(2);
    assertThat(((TraceReader.Tick) run.items.get(5)).line()).isEqualTo(5);
  }

  @Test
  void returnsImmutableValueMaps() {
    TraceReader.Tick t = (TraceReader.Tick) TraceRun.of("0: x = 1\n").items.get(0);
    assertThatThrownBy(() -> t.values().put("y", Value.of(1)))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void readsAnEmptyOrCommentOnlyFileAsNoTicks() {
    assertThat(TraceRun.of("").items).isEmpty();
    assertThat(TraceRun.of("// nothing\n\n").items).isEmpty();
  }

  @Test
  void readsTheLastTickWithoutATrailingNewline() {
    assertThat(TraceRun.of("0: x = 1\n1: x = 2").ticks())
        .containsExactly("0: x=Int(1)", "1: x=Int(2)");
  }

  @Test
  void acceptsCrlfLineEndings() {
    TraceRun run = TraceRun.of("0: x = 1\r\n   y = \"a\"\r\n// c\r\n\r\n2: x = 2 // c\r\n");
    assertThat(run.error).isNull();
    assertThat(run.ticks()).containsExactly("0: x=Int(1), y=Str(\"a\")", "1:", "2: x=Int(2)");
  }

  @Test
  void skipsAUtf8ByteOrderMark(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("bom.input");
    byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    byte[] body = "0: x = \"\u00e9\"\n1: x = 2\n".getBytes(StandardCharsets.UTF_8);
    byte[] all = new byte[bom.length + body.length];
    System.arraycopy(bom, 0, all, 0, bom.length);
    System.arraycopy(body, 0, all, bom.length, body.length);
    Files.write(file, all);
    try (TraceReader reader = TraceReader.open(file)) {
      TraceReader.Tick first = (TraceReader.Tick) reader.next();
      assertThat(first.values()).containsExactly(java.util.Map.entry("x", Value.of("\u00e9")));
      assertThat(((TraceReader.Tick) reader.next()).number()).isEqualTo(1);
      assertThat(reader.next()).isNull();
    }
  }

  @Test
  void skipsAByteOrderMarkBeforeACommentOrABlankFirstLine() {
    assertThat(TraceRun.of("\uFEFF// c\n0: x = 1\n").ticks()).containsExactly("0: x=Int(1)");
    assertThat(TraceRun.of("\uFEFF\n0: x = 1\n").ticks()).containsExactly("0: x=Int(1)");
  }

  @Test
  void countsColumnsAfterTheByteOrderMark() {
    assertThat(TraceRun.of("\uFEFF0: x = ?\n").error)
        .hasMessage("trace.input:1:8: unexpected character '?'");
  }

  @Test
  void reportsAFailingReaderAsUncheckedIoException() {
    TraceReader reader =
        new TraceReader(
            "t",
            new java.io.Reader() {
              @Override
              public int read(char[] buf, int off, int len) throws IOException {
                throw new IOException("disk gone");
              }

              @Override
              public void close() {}
            });
    assertThatThrownBy(reader::next)
        .isInstanceOf(java.io.UncheckedIOException.class)
        .hasMessageContaining("disk gone");
  }

  @Test
  void namesTheFileInLocations(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("named.input");
    Files.writeString(file, "0: x = ?\n");
    try (TraceReader reader = TraceReader.open(file)) {
      assertThatThrownBy(reader::next)
          .isInstanceOf(TraceException.class)
          .hasMessage(file + ":1:8: unexpected character '?'");
    }
  }

  @Test
  void returnsNullAgainAfterTheEnd() {
    TraceReader reader = new TraceReader("t", new StringReader("0: x = 1\n"));
    assertThat(reader.next()).isNotNull();
    assertThat(reader.next()).isNull();
    assertThat(reader.next()).isNull();
  }

  @Test
  void streamsTicksOfAHugeGapWithoutMaterialisingThem() {
    TraceReader reader = new TraceReader("t", new StringReader("4611686018427387904: x = 1\n"));
    for (long i = 0; i < 3; i++) {
      TraceReader.Tick t = (TraceReader.Tick) reader.next();
      assertThat(t.number()).isEqualTo(i);
      assertThat(t.values()).isEmpty();
    }
  }

  @Test
  void readsLinesOnlyAsFarAsNeeded() {
    // The second line is bad; the first tick is complete only once the second line is read,
    // but the error must wait until that tick was returned.
    TraceReader reader = new TraceReader("t", new StringReader("0: x = 1\n1: x = ?\n"));
    assertThat(((TraceReader.Tick) reader.next()).number()).isZero();
    assertThatThrownBy(reader::next).isInstanceOf(TraceException.class);
    assertThat(reader.next()).isNull();
  }
}
