package io.dataflow.io;

import static org.assertj.core.api.Assertions.assertThat;

import io.dataflow.core.Tick;
import io.dataflow.core.TickBatch;
import io.dataflow.io.internal.TickColumnsBuilder;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trace file read from its bytes (the fast path for the usual lines, {@link TraceReader#open})
 * gives exactly what the character reader gives, item for item and error for error, and so do
 * its columnar batches ({@code nextBatch}): over generated traces mixing the usual lines with
 * every kind of value, white space, line ending, comment, directive and mistake. The mutation it
 * catches: a byte path that accepts a line the general parser rejects, reads a value otherwise,
 * or changes state before it gives up on a line.
 */
class TraceBytePathTest {
  @TempDir
  Path dir;

  private static final String[] NAMES = {"x", "y", "_a", "z9", "long_name", "é", "9x", "x y"};
  private static final String[] VALUES = {"1", "-3", "+4", "0", "-0", "123456789012345678",
      "1234567890123456789", "99999999999999999999", "1.5", "-2.25", "1e5", "1.5e-3", "1E+2",
      "1.", ".5", "1.5.3", "1e", "1x", "true", "false", "truex", "True", "\"abc\"", "\"\"",
      "\"a\\\"b\"", "\"a\\nb\"", "\"tab\there\"", "\"ünï\"", "\"open", "()", "( )", "[1, 2]",
      "List(1)", "{\"k\": 1}", "Map(\"k\": 2)", "inf", "-inf", "NaN", "?", "", "- 1", "--1",
      "\"a\" \"b\"", "1 // c", "1 2", "0x10", "\"\u007f\""};
  private static final String[] SPACES = {"", " ", "  ", "\t", " \t", "\f", "\u00a0"};
  private static final String[] ENDINGS = {"\n", "\n", "\n", "\r\n", "\r"};

  @Test
  void bytePathAndBatchesMatchTheCharacterReader() throws IOException {
    // A fixed seed, as the testkit's Seeds: -Ddataflow.seed=N runs another.
    long seed = Long.getLong("dataflow.seed", 20261202L);
    System.out.println("TraceBytePathTest seed " + seed);
    Random rnd = new Random(seed);
    for (int n = 0; n < 400; n++) {
      String trace = trace(rnd);
      String what = "seed " + seed + ", trace " + n + ":\n" + trace;
      Reading chars = readChars(trace);
      Path file = dir.resolve("t" + n + ".input");
      Files.write(file, trace.getBytes(StandardCharsets.UTF_8));
      Reading bytes = readBytes(file);
      assertThat(bytes.items).as(what).isEqualTo(chars.items);
      assertThat(bytes.error).as(what).isEqualTo(chars.error);
      Reading batches = readBatches(file, 1 + rnd.nextInt(5));
      assertThat(batches.byName).as(what).isEqualTo(chars.byName);
      assertThat(batches.error).as(what).isEqualTo(chars.error);
    }
  }

  @Test
  void usualLinesAndTheirEdgesMatch() throws IOException {
    String trace = "\uFEFF0: x = 1\n   y = 2 // c\n1:x=3\n\t  y\t=\t-4\t\n// comment\n\n"
        + "3: y = \"s p\"\n   x = 2.5e3\n   y = true\r\n5: \r"
        + "@reconfigure {specification: \"in x\"}\n7: x = 9\n   x = 10\n8: z = 1\n";
    Path file = dir.resolve("edges.input");
    Files.writeString(file, trace);
    Reading chars = readChars(trace);
    assertThat(chars.error).isNull();
    assertThat(chars.items).hasSize(10);
    assertThat(readBytes(file).items).isEqualTo(chars.items);
    assertThat(readBatches(file, 256).byName).isEqualTo(chars.byName);
  }

  @Test
  void aLineTheBytePathGivesUpOnPartWayChangesNothing() throws IOException {
    // The usual line is read by one method (tick number, name, value, comment): where it gives
    // up after the tick number or the name, the general path must find the state untouched
    // (the tick above still pending, the last tick number, the names of the tick so far).
    String[] traces = {
        "0: x = 1\n   y = 2\n1: x = 1 2\n",
        "0: x = 1\n   y = 2\n1: \u00e9 = 2\n2: x = 3\n",
        "0: x = 1\n1: x = \"a\\nb\"\n   y = 4\n2: y = 5\n",
        "0: x = 1\n1: x\n",
        "0: x = 1\n1: x = \n",
        "0: x = 1\n1: 9x = 1\n",
        "0: x = 1\n   y = 2\n0: x = 3\n",
        "0: x = 1\n   y = 2\n1: x = 3 junk\n",
        "0: x = 1\n1 : // c\n   x = 2\n2:\n3:// c\n   y = 1 // c\n",
        "0: x = 1\n12345678901234567890: x = 2\n",
        "0: x = 1\n000000000000000002: x = 2\n   y = 3\n0000000000000000003: x = 4\n",
        "x = 1\n0: x = 2\n",
        "0: x = 1\n@reconfigure {specification: \"in x\"}\n   x = 2\n",
        "0: x = 1\n   y = (1, 2)\n   x = 3\n1: y = 4\n",
        "0: x = 1\n   y = 2\n   x = 5 // x again: the last wins, in its first place\n",
        "0: x = 1\n   \"y\" = 2\n",
    };
    for (int n = 0; n < traces.length; n++) {
      String trace = traces[n];
      String what = "trace " + n + ":\n" + trace;
      Reading chars = readChars(trace);
      Path file = dir.resolve("partway" + n + ".input");
      Files.writeString(file, trace);
      Reading bytes = readBytes(file);
      assertThat(bytes.items).as(what).isEqualTo(chars.items);
      assertThat(bytes.error).as(what).isEqualTo(chars.error);
      for (int capacity : new int[] {1, 2, 256}) {
        Reading batches = readBatches(file, capacity);
        assertThat(batches.byName).as(what).isEqualTo(chars.byName);
        assertThat(batches.error).as(what).isEqualTo(chars.error);
      }
    }
    // Some of them are errors, reported with their line and column as before.
    assertThat(readChars(traces[0]).error).isNotNull();
    assertThat(readChars(traces[6]).error).isNotNull();
    assertThat(readChars(traces[2]).error).isNull();
  }

  @Test
  void intValuesReadInTheLineMatch() throws IOException {
    // Where an Int ends (a blank, a comment, the end) and where it is something else: the
    // byte path must give up where the general parser would read another value or reject.
    String[] values = {"0", "-0", "7", "-7", "+7", "123456789012345678", "-123456789012345678",
        "1234567890123456789", "000000000000000000001", "1//c", "1 //c", "1\t// c", "1/2",
        "1 / 2", "-", "- 1", "-x", "1.5", "1.", "1e5", "1E-2", "12a", "1_000", "1\u00e9", "1\"",
        "1 2", "1,", "99999999999999999999", "-9223372036854775808", "9223372036854775807"};
    StringBuilder sb = new StringBuilder();
    for (int n = 0; n < values.length; n++) {
      sb.append(n).append(": x = ").append(values[n]).append('\n');
      sb.append("   y=").append(values[n]).append(n % 2 == 0 ? "\n" : "\r\n");
    }
    for (int n = 0; n < values.length; n++) {
      // One value per trace as well: a bad value fails the trace, hiding those after it.
      String trace = "0: x = " + values[n] + "\n   y = " + values[n] + " // c\n1: x = 1";
      Path file = dir.resolve("int" + n + ".input");
      Files.writeString(file, trace);
      Reading chars = readChars(trace);
      assertThat(readBytes(file)).as(values[n]).isEqualTo(chars);
      assertThat(readBatches(file, 256).byName).as(values[n]).isEqualTo(chars.byName);
      assertThat(readBatches(file, 256).error).as(values[n]).isEqualTo(chars.error);
    }
    Path file = dir.resolve("ints.input");
    Files.writeString(file, sb);
    Reading chars = readChars(sb.toString());
    assertThat(readBytes(file)).isEqualTo(chars);
    assertThat(readBatches(file, 3).byName).isEqualTo(chars.byName);
  }

  @Test
  void longTracesMatchAcrossTheBuffersEnds() throws IOException {
    // Lines the byte path reads, mostly, over several buffers of 64 KiB, so that lines are
    // split at every place by a buffer's end; some traces end with a mistake.
    long seed = Long.getLong("dataflow.seed", 20261202L);
    Random rnd = new Random(seed);
    for (int n = 0; n < 6; n++) {
      StringBuilder sb = new StringBuilder();
      long tick = 0;
      while (sb.length() < 300_000) {
        tick += rnd.nextInt(50) == 0 ? 2 + rnd.nextInt(3) : 1;
        sb.append(tick).append(rnd.nextInt(20) == 0 ? " :\t" : ": ");
        int k = rnd.nextInt(4);
        for (int a = 0; a < k; a++) {
          if (a > 0) {
            sb.append(rnd.nextInt(10) == 0 ? "\t" : "   ");
          }
          sb.append(rnd.nextInt(4) == 0 ? "y" : "x").append(rnd.nextBoolean() ? " = " : "=");
          sb.append(switch (rnd.nextInt(12)) {
            case 0 -> "2.5";
            case 1 -> "true";
            case 2 -> "\"s\"";
            case 3 -> Long.toString(rnd.nextLong() / (1 + rnd.nextInt(1000)));
            default -> Integer.toString(rnd.nextInt(200_000) - 100_000);
          });
          sb.append(rnd.nextInt(30) == 0 ? " // c" : rnd.nextInt(30) == 0 ? " " : "");
          sb.append(rnd.nextInt(100) == 0 ? "\r\n" : "\n");
          if (rnd.nextInt(40) == 0) {
            sb.append(rnd.nextBoolean() ? "\n" : "// a comment\n");
          }
        }
        if (k == 0) {
          sb.append('\n');
        }
      }
      if (n % 2 == 1) {
        sb.append("   x = (bad\n");
      }
      String trace = sb.toString();
      String what = "seed " + seed + ", long trace " + n;
      Reading chars = readChars(trace);
      Path file = dir.resolve("long" + n + ".input");
      Files.write(file, trace.getBytes(StandardCharsets.UTF_8));
      assertThat(readBytes(file).items).as(what).isEqualTo(chars.items);
      Reading batches = readBatches(file, 256);
      assertThat(batches.byName).as(what).isEqualTo(chars.byName);
      assertThat(batches.error).as(what).isEqualTo(chars.error);
    }
  }

  @Test
  void linesSplitByEveryBlocksEndMatch() throws IOException {
    // The usual line finds its own end while it is parsed: with blocks of 16 to 23 bytes, lines
    // reach the end of the bytes read at every place (in the number, the name, the value, the
    // comment, between \r and \n), where the line must be read again after the next block,
    // never taken as ending there.
    long seed = Long.getLong("dataflow.seed", 20261202L);
    Random rnd = new Random(seed + 1);
    String edges = "0: x = 1\n   y = 2 // c\n1:x=3\n\t  y\t=\t-4\t\n// comment\n\n"
        + "3: y = \"s p\"\n   x = 2.5e3\n   y = true\r\n5: \r\n6: x = 12345678\r"
        + "   y = false // a longer comment than a block\r\n7: x = -123456789012345678\n"
        + "   y = \"a string longer than a block\"\n8: x = 1\n   y = 2";
    for (int n = 0; n < 120; n++) {
      String trace = n == 0 ? edges : trace(rnd);
      String what = "seed " + (seed + 1) + ", trace " + n + ":\n" + trace;
      Reading chars = readChars(trace);
      Path file = dir.resolve("blocks" + n + ".input");
      Files.write(file, trace.getBytes(StandardCharsets.UTF_8));
      for (int size = 16; size < 24; size++) {
        Reading bytes = drain(TraceReader.open(file, size));
        assertThat(bytes).as(what + "\nblocks of " + size).isEqualTo(chars);
      }
    }
    assertThat(readChars(edges).error).isNull();
    assertThat(readChars(edges).items).hasSize(9);
  }

  private static String trace(Random rnd) {
    StringBuilder sb = new StringBuilder();
    if (rnd.nextInt(10) == 0) {
      sb.append('\uFEFF');
    }
    long tick = rnd.nextInt(3) - 1;
    int lines = 1 + rnd.nextInt(25);
    for (int i = 0; i < lines; i++) {
      String lead = rnd.nextInt(3) == 0 ? pick(rnd, SPACES) : "";
      switch (rnd.nextInt(12)) {
        case 0:
          sb.append(lead).append("// a comment");
          break;
        case 1:
          sb.append(lead);
          break;
        case 2:
          sb.append(rnd.nextBoolean() ? "@reconfigure {specification: \"in x\\nout z\\nz = x\"}"
              : rnd.nextBoolean() ? "@reconfigure {bad" : "@pause");
          break;
        case 3:
        case 4:
        case 5:
          sb.append(rnd.nextBoolean() ? "   " : lead).append(assignment(rnd));
          break;
        default:
          tick += rnd.nextInt(20) == 0 ? -1 : rnd.nextInt(8) == 0 ? 2 + rnd.nextInt(4) : 1;
          sb.append(lead).append(rnd.nextInt(30) == 0 ? "-" : "").append(Math.max(tick, 0))
              .append(pick(rnd, new String[] {"", " ", "\t"})).append(':')
              .append(pick(rnd, SPACES));
          if (rnd.nextInt(6) != 0) {
            sb.append(assignment(rnd));
          } else if (rnd.nextBoolean()) {
            sb.append("// nothing");
          }
      }
      sb.append(pick(rnd, ENDINGS));
    }
    if (rnd.nextInt(4) == 0) {
      sb.setLength(sb.length() - 1); // no final line ending
    }
    return sb.toString();
  }

  private static String assignment(Random rnd) {
    String name = rnd.nextInt(8) == 0 ? pick(rnd, NAMES) : rnd.nextBoolean() ? "x" : "y";
    String value = rnd.nextInt(3) == 0 ? pick(rnd, VALUES)
        : rnd.nextBoolean() ? Integer.toString(rnd.nextInt(2000) - 1000)
        : pick(rnd, new String[] {"1.5", "true", "\"s\"", "-7"});
    return name + pick(rnd, SPACES) + "=" + pick(rnd, SPACES) + value
        + (rnd.nextInt(8) == 0 ? " // c" : "");
  }

  private static String pick(Random rnd, String[] from) {
    return from[rnd.nextInt(from.length)];
  }

  /**
   * What a reading gave: one string per item (values in the tick's order), the same with each
   * tick's values by name (a batch's columns have their shape's order), and the error's message
   * without the file name (or null).
   */
  record Reading(List<String> items, List<String> byName, String error) {}

  private static Reading readChars(String trace) {
    return drain(new TraceReader("t.input", new StringReader(trace)));
  }

  private static Reading readBytes(Path file) throws IOException {
    return drain(TraceReader.open(file));
  }

  private static Reading drain(TraceReader reader) {
    List<String> items = new ArrayList<>();
    List<String> byName = new ArrayList<>();
    String error = null;
    try {
      for (TraceReader.Item item; (item = reader.next()) != null; ) {
        if (item instanceof TraceReader.Tick t) {
          items.add(t.number() + ":" + t.values());
          byName.add(t.number() + ":" + new java.util.TreeMap<>(t.values()));
        } else {
          TraceReader.Reconfigure r = (TraceReader.Reconfigure) item;
          items.add("request " + r.json() + " at " + r.location().line() + ":"
              + r.location().column());
          byName.add("request " + r.json());
        }
      }
    } catch (TraceException e) {
      error = e.getMessage().replaceFirst("^[^:]*:", "");
    }
    return new Reading(items, byName, error);
  }

  private static Reading readBatches(Path file, int capacity) throws IOException {
    TraceReader reader = TraceReader.open(file);
    TickColumnsBuilder builder = new TickColumnsBuilder(capacity);
    List<String> items = new ArrayList<>();
    String error = null;
    long number = 0;
    try {
      for (Object item; (item = reader.nextBatch(builder)) != null; ) {
        if (item instanceof TickBatch b && (number & 1) == 0) {
          assertThat(b.size()).isBetween(1, capacity);
          for (Tick t : b.ticks()) {
            items.add(number++ + ":" + new java.util.TreeMap<>(t.asMap()));
          }
        } else if (item instanceof TickBatch b) {
          // Read from the columns and handed back as the runtime does: the builder fills them
          // again, and a name a later tick does not assign must read as NoVal there.
          assertThat(b.size()).isBetween(1, capacity);
          io.dataflow.core.TickColumns c = b.columns();
          for (int t = 0; t < b.size(); t++) {
            java.util.Map<String, io.dataflow.core.Value> values = new java.util.TreeMap<>();
            for (int s = 0; s < c.width(); s++) {
              if (c.kind(s, t) != io.dataflow.core.Kind.NOVAL) {
                values.put(b.columnShape().name(s), c.get(s, t));
              }
            }
            items.add(number++ + ":" + values);
          }
          b.evaluated();
        } else {
          items.add("request " + ((TraceReader.Reconfigure) item).json());
        }
      }
    } catch (TraceException e) {
      error = e.getMessage().replaceFirst("^[^:]*:", "");
    }
    return new Reading(items, items, error);
  }
}
