package io.dataflow.io;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dataflow.core.SourceLocation;
import io.dataflow.core.Value;
import io.dataflow.io.internal.Json5;
import io.dataflow.io.internal.JsonValues;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The byte scanner of JSON Lines ticks claims a line only when Jackson (the general path) reads
 * it as a tick with exactly the same values in the same order; over generated lines mixing the
 * usual flat objects with JSON5 conveniences, nested values, escapes and mistakes. The mutation
 * it catches: a scanner that accepts what Jackson rejects or reads a value otherwise.
 */
class JsonLineScannerTest {
  private static final String[] NAMES = {"\"x\"", "\"y\"", "\"_a1\"", "\"\"", "\"$reconfigure\"",
      "\"é\"", "x", "'x'", "\"a b\"", "\"a\\u0041\""};
  private static final String[] VALUES = {"1", "-3", "0", "-0", "01", "+4", "123456789012345678",
      "1234567890123456789", "99999999999999999999", "1.5", "-2.25", "1e5", "1E+2", "1.5e-3",
      "1.", ".5", "1.5.3", "1e", "true", "false", "null", "nul", "truex", "\"abc\"", "\"\"",
      "\"a\\\"b\"", "\"a\\nb\"", "\"ünï\"", "\"tab\there\"", "'single'", "[1, 2]", "{\"k\": 1}",
      "{\"$float\": \"NaN\"}", "NaN", "Infinity", "\"\u007f\"", "1 2", ""};
  private static final String[] SPACES = {"", " ", "  ", "\t", "\u00a0"};

  @Test
  void claimsOnlyLinesJacksonReadsAlike() {
    // A fixed seed, as the testkit's Seeds: -Ddataflow.seed=N runs another.
    long seed = Long.getLong("dataflow.seed", 20261202L);
    System.out.println("JsonLineScannerTest seed " + seed);
    Random rnd = new Random(seed);
    JsonLineScanner scanner = new JsonLineScanner();
    int claimed = 0;
    for (int n = 0; n < 5000; n++) {
      String line = line(rnd);
      byte[] b = line.getBytes(StandardCharsets.UTF_8);
      int kind = scanner.scan(b, 0, b.length);
      String what = "seed " + seed + ": " + line;
      if (kind == JsonLineScanner.BLANK) {
        String t = line.strip();
        assertThat(t.isEmpty() || t.startsWith("//")).as(what).isTrue();
      } else if (kind == JsonLineScanner.TICK) {
        claimed++;
        assertThat(entries(scanner.pending().toMap())).as(what).isEqualTo(jackson(line));
      }
    }
    assertThat(claimed).as("lines the scanner read").isGreaterThan(500);
  }

  /**
   * {@link JsonLineScanner#scanLine} claims exactly the lines {@link JsonLineScanner#scan} reads
   * as ticks, with the same values, and ends each at its terminator ({@code \n}, {@code \r},
   * {@code \r\n}) or at the end of the bytes, whatever follows it. The mutations it catches: a
   * line taken as ending before its terminator, or read past it into the next line.
   */
  @Test
  void scanLineReadsEachLineAsScanDoesAndEndsItAtItsTerminator() {
    long seed = Long.getLong("dataflow.seed", 20261202L);
    Random rnd = new Random(seed + 2);
    JsonLineScanner whole = new JsonLineScanner();
    JsonLineScanner once = new JsonLineScanner();
    String[] ends = {"\n", "\r", "\r\n", ""};
    String[] next = {"{\"x\": 1}\n", "", " 2}\n", "}", "\n", ", \"y\": 3}"};
    int claimed = 0;
    for (int n = 0; n < 5000; n++) {
      String line = line(rnd);
      byte[] b = line.getBytes(StandardCharsets.UTF_8);
      String end = pick(rnd, ends);
      String rest = end.isEmpty() ? "" : pick(rnd, next);
      byte[] buf = (" " + line + end + rest).getBytes(StandardCharsets.UTF_8);
      String what = "seed " + seed + ": " + line + " then " + (end + rest).replace("\r", "\\r")
          .replace("\n", "\\n");
      boolean tick = whole.scan(b, 0, b.length) == JsonLineScanner.TICK;
      once.pending().clear(); // as the source does after each tick
      int found = once.scanLine(buf, 1, buf.length);
      if (tick) {
        claimed++;
        assertThat(found).as(what).isEqualTo(1 + b.length);
        assertThat(entries(once.pending().toMap())).as(what)
            .isEqualTo(entries(whole.pending().toMap()));
      } else {
        assertThat(found).as(what).isEqualTo(-1);
        assertThat(once.pending().toMap()).as(what).isEmpty();
      }
    }
    assertThat(claimed).as("lines the scanner read").isGreaterThan(500);
  }

  static String line(Random rnd) {
    if (rnd.nextInt(20) == 0) {
      return rnd.nextBoolean() ? "  " : "// c";
    }
    StringBuilder sb = new StringBuilder(rnd.nextInt(10) == 0 ? " " : "");
    sb.append(rnd.nextInt(30) == 0 ? "[" : "{").append(pick(rnd, SPACES));
    int fields = rnd.nextInt(4);
    for (int i = 0; i < fields; i++) {
      if (i > 0) {
        sb.append(pick(rnd, SPACES)).append(',').append(pick(rnd, SPACES));
      }
      sb.append(rnd.nextInt(6) == 0 ? pick(rnd, NAMES) : rnd.nextBoolean() ? "\"x\"" : "\"y\"")
          .append(pick(rnd, SPACES)).append(':').append(pick(rnd, SPACES))
          .append(rnd.nextInt(3) == 0 ? pick(rnd, VALUES)
              : Integer.toString(rnd.nextInt(2000) - 1000));
    }
    if (rnd.nextInt(15) == 0) {
      sb.append(',');
    }
    sb.append(pick(rnd, SPACES)).append(rnd.nextInt(30) == 0 ? "" : "}");
    if (rnd.nextInt(15) == 0) {
      sb.append(pick(rnd, new String[] {" // c", "}", " {}", "x", "\t"}));
    }
    return sb.toString();
  }

  private static String pick(Random rnd, String[] from) {
    return from[rnd.nextInt(from.length)];
  }

  /** The values Jackson's path reads from a tick line, in order. */
  private static List<String> jackson(String line) {
    JsonNode node;
    try {
      node = Json5.parseObject(line);
    } catch (Json5.SyntaxError e) {
      throw new AssertionError("the scanner read a line Jackson rejects: " + e.getMessage());
    }
    assertThat(node.size() == 1 && node.has("$reconfigure")).isFalse();
    return entries(JsonValues.tickValues(node, null, new SourceLocation("t", 1, 1)));
  }

  private static List<String> entries(Map<String, Value> values) {
    List<String> out = new ArrayList<>();
    values.forEach((k, v) -> out.add(k + "=" + v + "/" + v.kind()));
    return out;
  }
}
