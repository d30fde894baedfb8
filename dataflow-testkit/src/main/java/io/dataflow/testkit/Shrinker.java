package io.dataflow.testkit;

import io.dataflow.core.Value;
import io.dataflow.testkit.GeneratedSpec.Role;
import io.dataflow.testkit.GeneratedSpec.Stream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Shrinks a failing generated case while a predicate still fails: a trace by dropping runs of
 * ticks, single assignments, and simplifying values; a spec by dropping computed streams and
 * replacing expressions by literals.
 *
 * <pre>{@code
 * List<Map<String, Value>> minimal =
 *     Shrinker.shrinkTrace(trace, t -> !monitorLines(spec, t).equals(steppedLines(spec, t)));
 * }</pre>
 *
 * <p>The predicate answers "does this candidate still fail?"; it must not throw (catch the
 * failure and return true or false). Shrinking is greedy and bounded by {@link #MAX_TESTS}
 * predicate calls.
 *
 * <p>Thread-safety: stateless.
 */
public final class Shrinker {
  /** The most predicate calls one shrink makes. */
  public static final int MAX_TESTS = 20_000;

  private Shrinker() {}

  /** A smallest trace found that still fails; {@code trace} itself must fail. */
  public static List<Map<String, Value>> shrinkTrace(List<Map<String, Value>> trace,
      Predicate<List<Map<String, Value>>> fails) {
    if (!fails.test(trace)) {
      throw new IllegalArgumentException("the trace to shrink does not fail");
    }
    int[] budget = {MAX_TESTS};
    Predicate<List<Map<String, Value>>> bounded = t -> budget[0]-- > 0 && fails.test(t);
    List<Map<String, Value>> current = new ArrayList<>(trace);
    boolean changed = true;
    while (changed && budget[0] > 0) {
      changed = false;
      for (int size = Math.max(1, current.size() / 2); size >= 1; size /= 2) {
        int start = 0;
        while (start + size <= current.size()) {
          List<Map<String, Value>> candidate = new ArrayList<>(current.subList(0, start));
          candidate.addAll(current.subList(start + size, current.size()));
          if (bounded.test(candidate)) {
            current = candidate;
            changed = true;
          } else {
            start += size;
          }
        }
      }
      for (int t = 0; t < current.size(); t++) {
        for (String name : List.copyOf(current.get(t).keySet())) {
          for (boolean drop : new boolean[] {true, false}) {
            Map<String, Value> row = new LinkedHashMap<>(current.get(t));
            Value simpler = simplest(row.get(name));
            if (drop) {
              row.remove(name);
            } else if (simpler == null || simpler.equals(row.get(name))) {
              continue;
            } else {
              row.put(name, simpler);
            }
            List<Map<String, Value>> candidate = new ArrayList<>(current);
            candidate.set(t, Collections.unmodifiableMap(row));
            if (bounded.test(candidate)) {
              current = candidate;
              changed = true;
              break;
            }
          }
        }
      }
    }
    return Collections.unmodifiableList(current);
  }

  /**
   * A smaller spec that still fails; {@code spec} itself must fail. Computed streams no other
   * stream reads are dropped (one output always stays), then expressions are replaced by a
   * literal of their type.
   */
  public static GeneratedSpec shrinkSpec(GeneratedSpec spec, Predicate<GeneratedSpec> fails) {
    if (!fails.test(spec)) {
      throw new IllegalArgumentException("the spec to shrink does not fail");
    }
    int budget = MAX_TESTS;
    GeneratedSpec current = spec;
    boolean changed = true;
    while (changed && budget > 0) {
      changed = false;
      for (Stream s : current.computed()) {
        if (isRead(current, s) || (s.role() == Role.OUT && current.outputs().size() == 1)) {
          continue;
        }
        List<Stream> fewer = new ArrayList<>(current.computed());
        fewer.remove(s);
        GeneratedSpec candidate = current.withComputed(fewer, current.annotatedNames());
        budget--;
        if (fails.test(candidate)) {
          current = candidate;
          changed = true;
          break;
        }
      }
      if (changed) {
        continue;
      }
      for (int i = 0; i < current.computed().size() && budget > 0; i++) {
        Stream s = current.computed().get(i);
        String literal = literal(s.type());
        if (s.expression().equals(literal)) {
          continue;
        }
        List<Stream> simpler = new ArrayList<>(current.computed());
        simpler.set(i, new Stream(s.name(), s.role(), s.type(), literal, 0, Set.of()));
        GeneratedSpec candidate = current.withComputed(simpler, current.annotatedNames());
        budget--;
        if (fails.test(candidate)) {
          current = candidate;
          changed = true;
        }
      }
    }
    return current;
  }

  private static boolean isRead(GeneratedSpec spec, Stream s) {
    for (Stream other : spec.computed()) {
      if (other != s && other.refs().contains(s.name())) {
        return true;
      }
    }
    return false;
  }

  private static String literal(StreamType t) {
    switch (t) {
      case INT:
        return "0";
      case FLOAT:
        return "0.0";
      case BOOL:
        return "false";
      default:
        return "\"\"";
    }
  }

  /** The simplest value of the same type, or null for a type without one. */
  private static Value simplest(Value v) {
    if (v instanceof Value.Int) {
      return Value.of(0L);
    }
    if (v instanceof Value.Float) {
      return Value.of(0.0);
    }
    if (v instanceof Value.Bool) {
      return Value.FALSE;
    }
    if (v instanceof Value.Str) {
      return Value.of("");
    }
    return null;
  }
}
