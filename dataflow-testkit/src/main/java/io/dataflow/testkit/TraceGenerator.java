package io.dataflow.testkit;

import io.dataflow.core.Value;
import io.dataflow.core.ValueFormat;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Generates random sparse traces for a program's inputs and renders traces in the trace-file
 * format (docs/io.md#trace-files).
 *
 * <pre>{@code
 * TraceGenerator traces = new TraceGenerator(seed);
 * List<Map<String, Value>> trace = traces.next(spec);   // one map per tick, absent = NoVal
 * String file = TraceGenerator.render(trace);            // "0: x0 = 3\n   y1 = true\n2: ..."
 * }</pre>
 *
 * <p>Each trace picks a density, and each input is present in a tick with that probability, so
 * there are empty ticks (gaps in the file) and ticks with one input. Values have the declared
 * type: Ints within {@link #INT_RANGE}, Floats in eighths within 100 (with {@code -0.0} and a
 * few tiny or large magnitudes), short strings with quotes, escapes and characters outside the
 * Basic Multilingual Plane, and Bools.
 *
 * <p>Thread-safety: one thread (it owns a random generator); the static methods are stateless.
 */
public final class TraceGenerator {
  /** Int values lie in {@code [-INT_RANGE, INT_RANGE]}. */
  public static final long INT_RANGE = 100;

  private final SplittableRandom rnd;
  private int minLength = 0;
  private int maxLength = 40;
  private double mistyped;

  /** A generator whose every choice follows from {@code seed}. */
  public TraceGenerator(long seed) {
    this.rnd = new SplittableRandom(seed);
  }

  /** Traces have between {@code min} and {@code max} ticks (default 0 to 40). */
  public TraceGenerator length(int min, int max) {
    if (min < 0 || max < min) {
      throw new IllegalArgumentException("bad length range " + min + ".." + max);
    }
    this.minLength = min;
    this.maxLength = max;
    return this;
  }

  /**
   * The probability that a present value has another type than the input's (default 0): for
   * testing that a typed input rejects it (docs/language.md#runtime-errors).
   */
  public TraceGenerator mistyped(double probability) {
    if (probability < 0 || probability > 1) {
      throw new IllegalArgumentException("mistyped must be a probability: " + probability);
    }
    this.mistyped = probability;
    return this;
  }

  /** A trace for the spec's inputs, no longer than its horizon. */
  public List<Map<String, Value>> next(GeneratedSpec spec) {
    if (maxLength > spec.horizon()) {
      throw new IllegalStateException("traces of up to " + maxLength + " ticks exceed the "
          + "spec's horizon of " + spec.horizon());
    }
    return next(spec.inputTypes());
  }

  /** A trace for inputs of the given types: one map per tick, an absent name is NoVal. */
  public List<Map<String, Value>> next(Map<String, StreamType> inputs) {
    int n = minLength + rnd.nextInt(maxLength - minLength + 1);
    double density = new double[] {0.15, 0.4, 0.6, 0.85, 1.0}[rnd.nextInt(5)];
    boolean oneAtATime = rnd.nextInt(8) == 0;
    List<String> names = new ArrayList<>(inputs.keySet());
    List<Map<String, Value>> trace = new ArrayList<>(n);
    for (int t = 0; t < n; t++) {
      Map<String, Value> row = new LinkedHashMap<>();
      if (oneAtATime && !names.isEmpty()) {
        if (rnd.nextDouble() < density) {
          String name = names.get(rnd.nextInt(names.size()));
          row.put(name, present(inputs.get(name)));
        }
      } else {
        for (String name : names) {
          if (rnd.nextDouble() < density) {
            row.put(name, present(inputs.get(name)));
          }
        }
      }
      trace.add(Collections.unmodifiableMap(row));
    }
    return Collections.unmodifiableList(trace);
  }

  private Value present(StreamType type) {
    if (mistyped > 0 && rnd.nextDouble() < mistyped) {
      StreamType[] all = StreamType.values();
      StreamType other = all[(type.ordinal() + 1 + rnd.nextInt(all.length - 1)) % all.length];
      return value(other);
    }
    return value(type);
  }

  /** A random value of the given type. */
  public Value value(StreamType type) {
    switch (type) {
      case INT: {
        int r = rnd.nextInt(20);
        long v = r < 12 ? rnd.nextInt(-10, 11) : r < 19 ? rnd.nextLong(-INT_RANGE, INT_RANGE + 1)
            : 0;
        return Value.of(v);
      }
      case FLOAT: {
        int r = rnd.nextInt(40);
        if (r == 0) {
          return Value.of(-0.0);
        }
        if (r == 1) {
          return Value.of(new double[] {0.1, 1e-5, 12345.678, 2.5e-7}[rnd.nextInt(4)]);
        }
        return Value.of(rnd.nextInt(-800, 801) / 8.0);
      }
      case BOOL:
        return Value.of(rnd.nextBoolean());
      default:
        return Value.of(ExprGen.randomString(rnd));
    }
  }

  // ---------------------------------------------------------------- rendering

  /** The trace as a trace file: empty ticks become gaps (an empty last tick is {@code N:}). */
  public static String render(List<Map<String, Value>> trace) {
    return render(trace, Map.of());
  }

  /**
   * The trace as a trace file with {@code @reconfigure} lines: {@code requestsBefore} maps a
   * tick index to the JSON5 texts (one line each) delivered before that tick; the index may be
   * the trace's length (after the last tick). The tick just before a request is written even
   * when it is empty, so the gap ticks before a request are not read after it.
   */
  public static String render(List<Map<String, Value>> trace,
      Map<Integer, List<String>> requestsBefore) {
    StringBuilder sb = new StringBuilder();
    for (int t = 0; t <= trace.size(); t++) {
      List<String> requests = requestsBefore.getOrDefault(t, List.of());
      for (String json : requests) {
        if (json.indexOf('\n') >= 0) {
          throw new IllegalArgumentException("a request must fit on one line: " + json);
        }
        sb.append("@reconfigure ").append(json).append('\n');
      }
      if (t == trace.size()) {
        break;
      }
      Map<String, Value> row = trace.get(t);
      boolean last = t == trace.size() - 1;
      boolean beforeRequest = !requestsBefore.getOrDefault(t + 1, List.of()).isEmpty();
      if (row.isEmpty()) {
        if (last || beforeRequest) {
          sb.append(t).append(":\n");
        }
        continue;
      }
      String prefix = t + ": ";
      Iterator<Map.Entry<String, Value>> it = row.entrySet().iterator();
      while (it.hasNext()) {
        Map.Entry<String, Value> e = it.next();
        sb.append(prefix).append(e.getKey()).append(" = ").append(valueText(e.getValue()))
            .append('\n');
        prefix = " ".repeat(Long.toString(t).length() + 2);
      }
    }
    return sb.toString();
  }

  /**
   * The trace as a trace file in a seeded, varied layout that reads back to the same ticks:
   * comment lines and trailing comments, blank lines, a tick line alone with its assignments on
   * the following lines, tabs, no spaces around {@code =}, an earlier assignment of a name that
   * a later one in the same tick overrides, and floats spelled with an exponent or a trailing
   * zero. Requests are placed as in {@link #render(List, Map)}.
   */
  public String renderVaried(List<Map<String, Value>> trace,
      Map<Integer, List<String>> requestsBefore) {
    StringBuilder sb = new StringBuilder();
    if (rnd.nextInt(3) == 0) {
      sb.append("// a generated trace\n");
    }
    for (int t = 0; t <= trace.size(); t++) {
      for (String json : requestsBefore.getOrDefault(t, List.of())) {
        sb.append("@reconfigure ").append(json).append('\n');
      }
      if (t == trace.size()) {
        break;
      }
      Map<String, Value> row = trace.get(t);
      boolean last = t == trace.size() - 1;
      boolean beforeRequest = !requestsBefore.getOrDefault(t + 1, List.of()).isEmpty();
      if (row.isEmpty() && !last && !beforeRequest && rnd.nextInt(4) != 0) {
        continue; // a gap; otherwise an explicit empty tick
      }
      if (rnd.nextInt(8) == 0) {
        sb.append(rnd.nextBoolean() ? "\n" : "// tick " + t + "\n");
      }
      String indent = rnd.nextInt(4) == 0 ? "\t" : " ".repeat(1 + rnd.nextInt(4));
      boolean alone = row.isEmpty() || rnd.nextInt(4) == 0;
      sb.append(t).append(rnd.nextInt(5) == 0 ? " :" : ":");
      if (alone) {
        sb.append(rnd.nextInt(4) == 0 ? "  // nothing yet" : "").append('\n');
      }
      boolean firstLine = !alone;
      for (Map.Entry<String, Value> e : row.entrySet()) {
        if (rnd.nextInt(10) == 0) {
          // Overridden below: the last assignment of a name in a tick wins.
          sb.append(firstLine ? " " : indent).append(e.getKey()).append(" = ")
              .append(valueText(value(StreamType.INT))).append('\n');
          firstLine = false;
        }
        sb.append(firstLine ? " " : indent).append(e.getKey())
            .append(rnd.nextInt(6) == 0 ? "=" : " = ").append(variedText(e.getValue()));
        if (rnd.nextInt(8) == 0) {
          sb.append(" // note");
        }
        sb.append('\n');
        firstLine = false;
      }
    }
    return sb.toString();
  }

  private String variedText(Value v) {
    String plain = valueText(v);
    if (v instanceof Value.Float f && Double.isFinite(f.value()) && f.value() != 0
        && !plain.contains("e") && rnd.nextInt(3) == 0) {
      // The same decimal value, so the same double: 12.25 as 12.250 or 1.225e1.
      return rnd.nextBoolean() ? plain + "0"
          : new java.math.BigDecimal(plain).movePointLeft(1).toPlainString() + "e1";
    }
    return plain;
  }

  /** A value in trace-file syntax ({@code 3}, {@code -0.5}, {@code "a\"b"}, {@code [1, 2]}). */
  public static String valueText(Value v) {
    if (v instanceof Value.Int i) {
      return Long.toString(i.value());
    }
    if (v instanceof Value.Float f) {
      return ValueFormat.formatFloat(f.value());
    }
    if (v instanceof Value.Str s) {
      return ExprGen.specQuote(s.value(), null);
    }
    if (v instanceof Value.Bool b) {
      return Boolean.toString(b.value());
    }
    if (v instanceof Value.List l) {
      StringBuilder sb = new StringBuilder("[");
      for (int i = 0; i < l.elements().size(); i++) {
        sb.append(i == 0 ? "" : ", ").append(valueText(l.elements().get(i)));
      }
      return sb.append(']').toString();
    }
    if (v instanceof Value.Map m) {
      StringBuilder sb = new StringBuilder("{");
      boolean first = true;
      for (Map.Entry<String, Value> e : m.entries().entrySet()) {
        sb.append(first ? "" : ", ").append(ExprGen.specQuote(e.getKey(), null)).append(": ")
            .append(valueText(e.getValue()));
        first = false;
      }
      return sb.append('}').toString();
    }
    if (v == Value.UNIT) {
      return "()";
    }
    throw new IllegalArgumentException("a trace file cannot express " + v);
  }
}
