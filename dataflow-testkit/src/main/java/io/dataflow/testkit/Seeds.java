package io.dataflow.testkit;

import io.dataflow.core.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.LongStream;

/**
 * Seeds for generated tests: a {@code @MethodSource} of seeds, and {@link #check} that turns a
 * failure into one that names the seed, how to replay it, and the generated case.
 *
 * <pre>{@code
 * static LongStream seeds() {
 *   return Seeds.seeds(1000);
 * }
 *
 * @ParameterizedTest(name = "seed={0}")
 * @MethodSource("seeds")
 * void monitorAndRuntimeAgree(long seed) {
 *   Seeds.check(seed, c -> {
 *     GeneratedSpec spec = c.note("spec", new SpecGenerator(seed).next());
 *     List<Map<String, Value>> trace = c.trace("trace", new TraceGenerator(seed).next(spec));
 *     ...
 *   });
 * }
 * }</pre>
 *
 * <p>{@code -Ddataflow.seed=N} makes {@link #seeds(int)} return only {@code N}, to replay one
 * failing case; {@code -Ddataflow.seed.base=B} shifts the range to {@code B .. B + n - 1}, to
 * explore other seeds (both reach the tests through Surefire's system properties).
 *
 * <p>Thread-safety: stateless; a {@link Case} belongs to one test thread.
 */
public final class Seeds {
  /** The system property that selects one seed to replay. */
  public static final String SEED_PROPERTY = "dataflow.seed";
  /** The system property that shifts the seed range. */
  public static final String BASE_PROPERTY = "dataflow.seed.base";

  private Seeds() {}

  /**
   * The seeds {@code base .. base + n - 1} (base 0 unless {@value #BASE_PROPERTY} is set), or
   * only the seed {@value #SEED_PROPERTY} names.
   */
  public static LongStream seeds(int n) {
    String one = System.getProperty(SEED_PROPERTY);
    if (one != null && !one.isBlank()) {
      return LongStream.of(Long.parseLong(one.trim()));
    }
    long base = Long.getLong(BASE_PROPERTY, 0L);
    return LongStream.range(base, base + n);
  }

  /** What a generated case records, so a failure can show it. */
  public static final class Case {
    private final List<String[]> notes = new ArrayList<>();
    private final List<Object[]> suppliers = new ArrayList<>();

    private Case() {}

    /** Records a labelled value (shown with {@code toString()} on failure) and returns it. */
    public <T> T note(String label, T value) {
      notes.add(new String[] {label, String.valueOf(value)});
      return value;
    }

    /** Records a value computed only if the case fails. */
    public void noteLazily(String label, Supplier<?> value) {
      notes.add(new String[] {label, null});
      suppliers.add(new Object[] {notes.size() - 1, value});
    }

    /** Records a trace, shown in the trace-file format on failure, and returns it. */
    public List<Map<String, Value>> trace(String label, List<Map<String, Value>> trace) {
      notes.add(new String[] {label, TraceGenerator.render(trace)});
      return trace;
    }

    private String describe() {
      for (Object[] s : suppliers) {
        String text;
        try {
          text = String.valueOf(((Supplier<?>) s[1]).get());
        } catch (RuntimeException e) {
          text = "(cannot describe: " + e + ")";
        }
        notes.get((Integer) s[0])[1] = text;
      }
      StringBuilder sb = new StringBuilder();
      for (String[] n : notes) {
        sb.append("--- ").append(n[0]).append(" ---\n").append(n[1]);
        if (!n[1].endsWith("\n")) {
          sb.append('\n');
        }
      }
      return sb.toString();
    }
  }

  /** The body of a generated case. */
  @FunctionalInterface
  public interface Body {
    /** Runs the case; the {@link Case} collects what to show on failure. */
    void run(Case c) throws Throwable;
  }

  /**
   * Runs {@code body}; any failure is rethrown as an {@link AssertionError} whose message
   * starts with {@code seed=N}, says how to replay it, and shows what the case recorded.
   */
  public static void check(long seed, Body body) {
    Case c = new Case();
    try {
      body.run(c);
    } catch (Throwable t) {
      if (t instanceof VirtualMachineError v && !(t instanceof StackOverflowError)) {
        throw v;
      }
      String message = String.valueOf(t.getMessage()).strip();
      int eol = message.indexOf('\n');
      String first = eol < 0 ? message : message.substring(0, eol) + " ...";
      throw new AssertionError("seed=" + seed + " failed (replay with -D" + SEED_PROPERTY + "="
          + seed + "): " + t.getClass().getSimpleName() + ": " + first + "\n" + c.describe(),
          t);
    }
  }
}
