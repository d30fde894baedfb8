package io.dataflow.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Row;
import io.dataflow.core.RowLayout;
import io.dataflow.core.Value;
import io.dataflow.core.spi.OutputWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The byte-level writers behind {@link Sinks#text} and {@link Sinks#jsonLines} write byte for
 * byte what the character writers write through a UTF-8 writer, for every kind of value
 * (extreme Ints, Floats to NaN and -0.0, strings with quotes, controls, non-ASCII and a lone
 * surrogate, nested lists and maps, Deferred), names and tick numbers, across buffer refills.
 */
class Utf8WritersTest {
  @Test
  void textAndJsonLinesMatchTheCharacterWriters() throws IOException {
    // A fixed seed, as the testkit's Seeds: -Ddataflow.seed=N runs another.
    long seed = Long.getLong("dataflow.seed", 20261202L);
    System.out.println("Utf8WritersTest seed " + seed);
    Random rnd = new Random(seed);
    RowLayout[] layouts = {RowLayout.of("z"), RowLayout.of("a", "b_2", "ü", "x y", "q\"")};
    for (boolean json : new boolean[] {false, true}) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      ByteArrayOutputStream chars = new ByteArrayOutputStream();
      OutputWriter fast = byteWriter(json, bytes);
      OutputWriter reference = characterWriter(json, chars);
      for (int t = 0; t < 3000; t++) {
        RowLayout layout = layouts[rnd.nextInt(layouts.length)];
        Row row = layout.newRow();
        for (int s = 0; s < layout.width(); s++) {
          if (rnd.nextInt(4) != 0) {
            row.set(s, value(rnd, 0));
          }
        }
        long tick = rnd.nextInt(10) == 0 ? Long.MAX_VALUE - rnd.nextInt(3) : t;
        fast.feed(tick, layout, row);
        reference.feed(tick, layout, row);
        if (rnd.nextInt(50) == 0) {
          fast.flush();
          reference.flush();
        }
      }
      fast.close();
      reference.close();
      assertThat(bytes.toString(StandardCharsets.UTF_8)).as("seed %d, json %s", seed, json)
          .isEqualTo(chars.toString(StandardCharsets.UTF_8));
      assertThat(bytes.toByteArray()).isEqualTo(chars.toByteArray());
    }
  }

  @Test
  void numbersOfEveryLengthMatchTheCharacterWriters() throws IOException {
    // Each side of every power of ten, as tick and as value: the digit count is computed.
    RowLayout layout = RowLayout.of("z");
    for (boolean json : new boolean[] {false, true}) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      ByteArrayOutputStream chars = new ByteArrayOutputStream();
      OutputWriter fast = byteWriter(json, bytes);
      OutputWriter reference = characterWriter(json, chars);
      for (long p = 1; p > 0 && p <= 10_000_000_000L; p *= 10) {
        for (long n : new long[] {p - 1, p, p + 1, -p, -p + 1}) {
          Row row = layout.newRow();
          row.set(0, Value.of(n));
          fast.feed(Math.abs(n), layout, row);
          reference.feed(Math.abs(n), layout, row);
        }
      }
      fast.close();
      reference.close();
      assertThat(bytes.toString(StandardCharsets.UTF_8))
          .isEqualTo(chars.toString(StandardCharsets.UTF_8));
    }
  }

  @Test
  void rowsMatchTheCharacterWritersWhereverTheBufferFills() throws IOException {
    // A row is written with one room check per part (the prefix, each name with its value):
    // rows of names of every length from 1 to 40 and values of every length land each part
    // on every offset of the 64 KiB buffer, so each check meets a full buffer somewhere.
    String[] names = namesOfEveryLength();
    long[] ints = {0, 7, -1, 42_000, Integer.MAX_VALUE, Integer.MAX_VALUE + 1L, -1_000_000_007L,
        Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1};
    Random rnd = new Random(20261203L);
    for (boolean json : new boolean[] {false, true}) {
      CountingStream bytes = new CountingStream();
      ByteArrayOutputStream chars = new ByteArrayOutputStream();
      OutputWriter fast = byteWriter(json, bytes);
      OutputWriter reference = characterWriter(json, chars);
      for (int t = 0; t < 60_000; t++) {
        RowLayout layout = RowLayout.of(names[t % 40], names[(t * 7 + 3) % 40]);
        Row row = layout.newRow();
        for (int s = 0; s < 2; s++) {
          int k = rnd.nextInt(6);
          if (k < 3) {
            row.setInt(s, ints[rnd.nextInt(ints.length)]);
          } else if (k == 3) {
            row.setBool(s, rnd.nextBoolean());
          } else if (k == 4) {
            row.set(s, Value.UNIT);
          } // else NoVal
        }
        long tick = t % 1000 == 999 ? Long.MAX_VALUE - t : t;
        fast.feed(tick, layout, row);
        reference.feed(tick, layout, row);
      }
      assertThat(bytes.flushes).as("the writer flushes only when told to").isZero();
      fast.flush();
      assertThat(bytes.flushes).isEqualTo(1);
      fast.close();
      reference.close();
      assertThat(bytes.toByteArray()).as("json %s", json).isEqualTo(chars.toByteArray());
    }
  }

  @Test
  void namesLongerThanTheBufferMatchTheCharacterWriters() throws IOException {
    // The second name is longer than the buffer: it is replaced between two lines of a row.
    RowLayout layout = RowLayout.of("b", "a".repeat(70_000), "ü".repeat(40_000));
    for (boolean json : new boolean[] {false, true}) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      ByteArrayOutputStream chars = new ByteArrayOutputStream();
      OutputWriter fast = byteWriter(json, bytes);
      OutputWriter reference = characterWriter(json, chars);
      for (int t = 0; t < 20; t++) {
        Row row = layout.newRow();
        row.setInt(0, -t * 1_000_003L);
        row.setBool(1, t % 2 == 0);
        if (t % 3 == 0) {
          row.setInt(2, t);
        } else if (t % 3 == 1) {
          row.set(2, Value.UNIT);
        }
        fast.feed(t, layout, row);
        reference.feed(t, layout, row);
      }
      fast.close();
      reference.close();
      assertThat(bytes.toByteArray()).as("json %s", json).isEqualTo(chars.toByteArray());
    }
  }

  /** Keeps what is written and counts the flushes. */
  private static final class CountingStream extends ByteArrayOutputStream {
    int flushes;

    @Override
    public void flush() {
      flushes++;
    }
  }

  static Value value(Random rnd, int depth) {
    switch (rnd.nextInt(depth > 1 ? 7 : 9)) {
      case 0:
        return Value.of(pick(rnd, new long[] {0, -1, 7, Integer.MAX_VALUE,
            Integer.MAX_VALUE + 1L, Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1,
            rnd.nextLong(), rnd.nextInt()}));
      case 1:
        return Value.of(pick(rnd, new double[] {0.0, -0.0, 1.5, -2.25, 1e20, 1e-7,
            Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE,
            rnd.nextDouble() * 1e6}));
      case 2:
        return Value.of(rnd.nextBoolean());
      case 3:
        return Value.UNIT;
      case 4:
      case 5:
        return Value.of(new String[] {"", "plain", "with \"quote\"", "back\\slash", "tab\t",
            "nl\n", "\u0001", "\u007f", "ünï", "日本", "\ud83d\ude00", "lone \ud800",
            "x".repeat(70_000)}[rnd.nextInt(13)]);
      case 6:
        return Value.DEFERRED;
      case 7:
        return new Value.List(List.of(value(rnd, depth + 1), value(rnd, depth + 1)));
      default: {
        TreeMap<String, Value> m = new TreeMap<>(io.dataflow.core.ValueFormat.CODE_POINT_ORDER);
        m.put(rnd.nextBoolean() ? "$k" : "k", value(rnd, depth + 1));
        m.put("ä", value(rnd, depth + 1));
        return new Value.Map(m);
      }
    }
  }

  private static long pick(Random rnd, long[] from) {
    return from[rnd.nextInt(from.length)];
  }

  private static double pick(Random rnd, double[] from) {
    return from[rnd.nextInt(from.length)];
  }

  /** The byte-level writer under test, text or JSON Lines, into {@code out}. */
  static Utf8OutputWriter byteWriter(boolean json, OutputStream out) {
    return (Utf8OutputWriter) (json ? Sinks.jsonLines(out) : Sinks.text(out));
  }

  /** The character writer the byte writers must match, writing UTF-8 into {@code out}. */
  static OutputWriter characterWriter(boolean json, OutputStream out) {
    OutputStreamWriter w = new OutputStreamWriter(out, StandardCharsets.UTF_8);
    return json ? new JsonLinesOutputWriter(w, false) : new TextOutputWriter(w, false);
  }

  /** Names 1 to 40 characters long, so that a row's parts land on every buffer offset. */
  static String[] namesOfEveryLength() {
    String[] names = new String[40];
    for (int i = 0; i < names.length; i++) {
      names[i] = "n".repeat(i) + (char) ('a' + i % 26);
    }
    return names;
  }
}
