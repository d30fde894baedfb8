package io.dataflow.monitor;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dataflow.core.MonitorException;
import io.dataflow.core.Value;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Small helpers shared by the language tests: compile a spec, run it over input rows and
 * collect the outputs as text lines ({@code z[0] = Int(3)}, docs/language.md#text-output).
 *
 * <p>Inputs are written compactly: {@code ticks("x=1 y=10 | y=20 | | x=4")} is four ticks, an
 * empty tick being one where every input is NoVal. Values: integers, floats (with {@code .} or
 * an exponent), {@code "strings"} (no escapes), {@code true}, {@code false}, {@code ()} and
 * {@code deferred} (which a trace file cannot express but the API can).
 */
final class Specs {
  private Specs() {}

  static DataflowProgram compile(String spec) {
    return DataflowProgram.compile("spec.dsrv", spec);
  }

  static DataflowMonitor monitor(String spec) {
    return DataflowMonitor.create(compile(spec));
  }

  static DataflowMonitor monitor(String spec, TypingMode mode) {
    return DataflowMonitor.create(DataflowProgram.compile("spec.dsrv", spec, mode));
  }

  /** Runs {@code spec} over the ticks and returns every emitted value as a text line. */
  static List<String> run(String spec, String ticks) {
    return run(monitor(spec), parseTicks(ticks));
  }

  static List<String> run(String spec, List<Map<String, Value>> rows) {
    return run(monitor(spec), rows);
  }

  static List<String> run(DataflowMonitor m, String ticks) {
    return run(m, parseTicks(ticks));
  }

  static List<String> run(DataflowMonitor m, List<Map<String, Value>> rows) {
    List<String> lines = new ArrayList<>();
    for (Map<String, Value> row : rows) {
      long tick = m.nextTick();
      m.evaluate(row).forEach((name, v) -> lines.add(name + "[" + tick + "] = " + v));
    }
    return lines;
  }

  /**
   * Runs a spec with one output and returns its value per tick, {@code -} for NoVal:
   * {@code "Int(11) Int(21) - Int(44)"}.
   */
  static String series(String spec, String ticks) {
    return series(monitor(spec), ticks);
  }

  static String series(DataflowMonitor m, String ticks) {
    if (m.outputs().width() != 1) {
      throw new IllegalArgumentException("series needs exactly one output");
    }
    List<String> values = new ArrayList<>();
    for (Map<String, Value> row : parseTicks(ticks)) {
      Map<String, Value> out = m.evaluate(row);
      values.add(out.isEmpty() ? "-" : out.values().iterator().next().toString());
    }
    return String.join(" ", values);
  }

  /** The value of a spec's single output at tick 0 with no inputs. */
  static String valueOf(String spec) {
    return series(spec, "");
  }

  /** The compile error of a spec that must not compile. */
  static SpecException compileError(String spec) {
    return compileError(spec, TypingMode.GRADUAL);
  }

  static SpecException compileError(String spec, TypingMode mode) {
    try {
      DataflowProgram.compile("spec.dsrv", spec, mode);
    } catch (SpecException e) {
      return e;
    }
    throw new AssertionError("expected a compile error for:\n" + spec);
  }

  /** Where and what: {@code 3:8 expected an expression, found end of input}. */
  static String where(SpecException e) {
    return e.location().line() + ":" + e.location().column() + " " + e.reason();
  }

  /** Runs the ticks and returns the runtime error they must raise. */
  static MonitorException runtimeError(DataflowMonitor m, String ticks) {
    List<Map<String, Value>> rows = parseTicks(ticks);
    for (Map<String, Value> row : rows) {
      try {
        m.evaluate(row);
      } catch (MonitorException e) {
        return e;
      }
    }
    throw new AssertionError("expected a runtime error");
  }

  static MonitorException runtimeError(String spec, String ticks) {
    return runtimeError(monitor(spec), ticks);
  }

  /** {@code tick 1: stream 'z': division by zero}, checked against the exception's parts. */
  static String describe(MonitorException e) {
    String text = "tick " + e.tick() + ": stream '" + e.stream() + "': " + e.reason();
    if (!text.equals(e.getMessage())) {
      throw new AssertionError("message " + e.getMessage() + " does not match its parts");
    }
    return text;
  }

  static void assertThrowsAgain(DataflowMonitor m, MonitorException first) {
    assertThatThrownBy(() -> m.evaluate(Map.of()))
        .isInstanceOf(MonitorException.class)
        .hasMessage(first.getMessage());
  }

  /** One row from alternating names and Java values (Long/Integer, Double, String, ...). */
  static Map<String, Value> row(Object... namesAndValues) {
    Map<String, Value> row = new LinkedHashMap<>();
    for (int i = 0; i < namesAndValues.length; i += 2) {
      Object v = namesAndValues[i + 1];
      if (v != null) {
        row.put((String) namesAndValues[i], value(v));
      }
    }
    return row;
  }

  @SafeVarargs
  static List<Map<String, Value>> rows(Map<String, Value>... rows) {
    return Arrays.asList(rows);
  }

  static Value value(Object v) {
    if (v instanceof Value value) {
      return value;
    }
    if (v instanceof Integer i) {
      return Value.of(i.longValue());
    }
    if (v instanceof Long l) {
      return Value.of(l);
    }
    if (v instanceof Double d) {
      return Value.of(d);
    }
    if (v instanceof String s) {
      return Value.of(s);
    }
    if (v instanceof Boolean b) {
      return Value.of(b);
    }
    throw new IllegalArgumentException("no value for " + v);
  }

  /** Parses the compact tick notation described in the class comment. */
  static List<Map<String, Value>> parseTicks(String ticks) {
    List<Map<String, Value>> rows = new ArrayList<>();
    for (String tick : ticks.split("\\|", -1)) {
      Map<String, Value> row = new LinkedHashMap<>();
      String rest = tick.trim();
      while (!rest.isEmpty()) {
        int eq = rest.indexOf('=');
        String name = rest.substring(0, eq).trim();
        rest = rest.substring(eq + 1).trim();
        int end = rest.startsWith("\"") ? rest.indexOf('"', 1) + 1 : endOfWord(rest);
        row.put(name, parseValue(rest.substring(0, end)));
        rest = rest.substring(end).trim();
      }
      rows.add(row);
    }
    return rows;
  }

  private static int endOfWord(String s) {
    int i = s.indexOf(' ');
    return i < 0 ? s.length() : i;
  }

  private static Value parseValue(String text) {
    switch (text) {
      case "true":
        return Value.TRUE;
      case "false":
        return Value.FALSE;
      case "()":
        return Value.UNIT;
      case "deferred":
        return Value.DEFERRED;
      default:
        break;
    }
    if (text.startsWith("\"")) {
      return Value.of(text.substring(1, text.length() - 1));
    }
    if (text.contains(".") || text.contains("e")) {
      return Value.of(Double.parseDouble(text));
    }
    return Value.of(Long.parseLong(text));
  }
}
