package io.dataflow.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns JMH's JSON result ({@code -rf json}, run with {@code -prof gc}) into the table of
 * issue 7, one line per workload and path:
 *
 * <pre>workload path ns_per_tick baseline_ns ratio bytes_per_tick</pre>
 *
 * followed by the threaded runtime's throughput in ticks/s (the runtime benchmark and the
 * hand-off benchmark of issue 21, {@link HandoffBench}, whose throughput results are turned into
 * ns per tick for the table) and the targets, each MET, MISSED or NOT RUN. {@code --markdown} prints the same as Markdown tables (for docs/performance.md).
 * Given several result files that measured the same benchmark, it keeps the fastest result.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.dataflow.bench.Report [--markdown] result.json...}
 */
public final class Report {
  /** Below this many bytes per tick a path counts as allocation-free (JMH's own noise). */
  static final double ZERO_BYTES = 0.01;

  /**
   * One measured benchmark.
   *
   * @param runs how many results were read for this workload and path (the best is kept)
   */
  record Row(String workload, String path, double ns, double error, double bytes, int runs) {}

  private final Map<String, Row> rows = new LinkedHashMap<>();

  /** Paths in table order; cutover rows use the first three. */
  private static final List<String> PATHS = List.of("monitor", "monitor+compile", "typed",
      "columns",
      "monitor-mixed", "stepped", "stepped1", "threaded", "offerOne", "offerFour", "submitBatch",
      "offerOne-boxed", "offerFour-boxed", "submitBatch-boxed", "row", "batchFloor",
      "batchBaseline", "baseline");
  /** The hand-off benchmark's paths (issue 21), reported in ticks/s. */
  private static final List<String> HANDOFF = List.of("offerOne", "offerFour", "submitBatch",
      "offerOne-boxed", "offerFour-boxed", "submitBatch-boxed");

  private Report(List<Row> measured) {
    List<Row> sorted = new ArrayList<>(measured);
    sorted.sort(Comparator.comparingInt((Row r) -> workloadRank(r.workload()))
        .thenComparing(Row::workload)
        .thenComparingInt(r -> PATHS.indexOf(r.path()) < 0 ? PATHS.size()
            : PATHS.indexOf(r.path())));
    for (Row r : sorted) {
      rows.merge(r.workload() + " " + r.path(), r, Report::best);
    }
  }

  /**
   * Of two results of the same benchmark (run.sh --repeat), the faster one: on a shared machine
   * a slower result measures the neighbours, not the code.
   */
  private static Row best(Row a, Row b) {
    Row min = a.ns() <= b.ns() ? a : b;
    return new Row(min.workload(), min.path(), min.ns(), min.error(), min.bytes(),
        a.runs() + b.runs());
  }

  private static int workloadRank(String workload) {
    int i = Workload.NAMES.indexOf(workload);
    return i >= 0 ? i : Workload.NAMES.size();
  }

  /** Reads JMH JSON results (each an array of benchmark results). */
  static Report read(List<String> jsons) {
    List<Row> out = new ArrayList<>();
    for (String json : jsons) {
      for (Object o : (List<?>) Json.parse(json)) {
        out.add(row((Map<?, ?>) o));
      }
    }
    return new Report(out);
  }

  private static Row row(Map<?, ?> b) {
    String benchmark = (String) b.get("benchmark");
    Map<?, ?> params = b.get("params") instanceof Map<?, ?> p ? p : Map.of();
    Map<?, ?> primary = (Map<?, ?>) b.get("primaryMetric");
    String unit = (String) primary.get("scoreUnit");
    String method = benchmark.substring(benchmark.lastIndexOf('.') + 1);
    String cls = benchmark.substring(0, benchmark.lastIndexOf('.'));
    boolean handoff = cls.endsWith("HandoffBench"); // throughput: ticks/s
    if (handoff ? !"ops/s".equals(unit) : !"ns/op".equals(unit)) {
      throw new IllegalArgumentException(benchmark + ": expected " + (handoff ? "ops/s" : "ns/op")
          + ", got " + unit);
    }
    double bytes = Double.NaN;
    if (b.get("secondaryMetrics") instanceof Map<?, ?> secondary) {
      for (Map.Entry<?, ?> e : secondary.entrySet()) {
        if (((String) e.getKey()).endsWith("gc.alloc.rate.norm")) {
          bytes = Json.number(((Map<?, ?>) e.getValue()).get("score"));
        }
      }
    }
    String workload;
    String path;
    if (handoff) {
      // Ticks per second over all producers; the table shows its inverse, ns per tick.
      double tps = Json.number(primary.get("score"));
      double ns = 1e9 / tps;
      Object sink = params.get("sink");
      return new Row("simple_add", "view".equals(sink) ? method : method + "-" + sink, ns,
          ns * Json.number(primary.get("scoreError")) / tps, bytes, 1);
    }
    if (cls.endsWith("CutoverBench")) {
      workload = "cutover_" + params.get("streams");
      path = method.equals("compileAndMonitor") ? "monitor+compile" : method;
    } else {
      workload = (String) params.get("workload");
      path = cls.endsWith("MixedMonitorBench") ? "monitor-mixed" : method;
    }
    return new Row(workload, path, Json.number(primary.get("score")),
        Json.number(primary.get("scoreError")), bytes, 1);
  }

  private Row row(String workload, String path) {
    return rows.get(workload + " " + path);
  }

  private double baselineNs(String workload) {
    Row b = row(workload, "baseline");
    return b == null ? Double.NaN : b.ns();
  }

  /** The table lines: workload, path, ns/tick, baseline ns, ratio, bytes/tick. */
  List<String[]> table() {
    List<String[]> lines = new ArrayList<>();
    for (Row r : rows.values()) {
      double base = baselineNs(r.workload());
      lines.add(new String[] {r.workload(), r.path(), fmt(r.ns()), fmt(base),
          Double.isNaN(base) ? "-" : String.format(Locale.ROOT, "%.2f", r.ns() / base),
          Double.isNaN(r.bytes()) ? "-" : String.format(Locale.ROOT, "%.3f", r.bytes())});
    }
    return lines;
  }

  /** Throughput of the threaded runtime paths: workload and ticks/s. */
  List<String[]> throughput() {
    List<String[]> lines = new ArrayList<>();
    for (Row r : rows.values()) {
      if (r.path().equals("threaded") || HANDOFF.contains(r.path())) {
        lines.add(new String[] {r.workload(), r.path(),
            String.format(Locale.ROOT, "%.0f", 1e9 / r.ns())});
      }
    }
    return lines;
  }

  /** The targets of issue 7: status (MET, MISSED, NOT RUN), target, measured. */
  List<String[]> targets() {
    List<String[]> t = new ArrayList<>();
    for (String w : List.of("simple_add", "counter", "threshold")) {
      ratioTarget(t, w, 3);
    }
    for (String w : List.of("window3", "arith", "chain32")) {
      ratioTarget(t, w, 4);
    }
    Row dyn = row("dynamic", "monitor");
    Row add = row("simple_add", "monitor");
    String target = "dynamic monitor <= 3x simple_add monitor";
    if (dyn == null || add == null) {
      t.add(new String[] {"NOT RUN", target, "-"});
    } else {
      double ratio = dyn.ns() / add.ns();
      t.add(new String[] {ratio <= 3 ? "MET" : "MISSED", target,
          String.format(Locale.ROOT, "%.2fx (%s ns vs %s ns)", ratio, fmt(dyn.ns()),
              fmt(add.ns()))});
    }
    Row thr = row("simple_add", "threaded");
    target = "simple_add threaded >= 5000000 ticks/s";
    if (thr == null) {
      t.add(new String[] {"NOT RUN", target, "-"});
    } else {
      double tps = 1e9 / thr.ns();
      t.add(new String[] {tps >= 5e6 ? "MET" : "MISSED", target,
          String.format(Locale.ROOT, "%.0f ticks/s (%s ns/tick)", tps, fmt(thr.ns()))});
    }
    handoffTarget(t, "offerOne", "one producer offering single ticks", 10e6, false);
    handoffTarget(t, "offerFour", "four producers offering single ticks", 5e6, false);
    handoffTarget(t, "submitBatch", "batches of 256 into the view sink", 30e6, true);
    boolean any = false;
    for (Row r : rows.values()) {
      if (r.workload().equals("cutover_100")) {
        any = true;
        t.add(new String[] {r.ns() < 1e6 ? "MET" : "MISSED",
            "cutover_100 " + r.path() + " < 1 ms",
            String.format(Locale.ROOT, "%.3f ms", r.ns() / 1e6)});
      }
    }
    if (!any) {
      t.add(new String[] {"NOT RUN", "cutover_100 < 1 ms", "-"});
    }
    return t;
  }

  /**
   * A hand-off target of issue 21 (the view sink): at least {@code tps} ticks per second in all;
   * with {@code noRowAllocation}, also less than a byte allocated per tick (a boxed row costs
   * hundreds; what is left is the producer's 24-byte queue item per batch).
   */
  private void handoffTarget(List<String[]> t, String path, String what, double tps,
      boolean noRowAllocation) {
    String target = String.format(Locale.ROOT, "handoff %s >= %.0f ticks/s%s", path, tps,
        noRowAllocation ? ", < 1 B/tick" : "");
    Row r = row("simple_add", path);
    if (r == null) {
      t.add(new String[] {"NOT RUN", target, "-"});
      return;
    }
    double measured = 1e9 / r.ns();
    boolean met = measured >= tps && (!noRowAllocation || r.bytes() < 1);
    t.add(new String[] {met ? "MET" : "MISSED", target, String.format(Locale.ROOT,
        "%.0f ticks/s (%s), %.3f B/tick", measured, what, r.bytes())});
  }

  /** The monitor API's entry points a ratio target is judged on, in table order. */
  private static final List<String> ENTRY_POINTS = List.of("monitor", "typed", "columns");

  /**
   * A ratio target of the monitor API, which has three entry points: rows ({@code monitor}:
   * {@code evaluate(Row, Row)}), typed handles ({@code typed}: {@code step()}) and batches in
   * columns ({@code columns}: {@code evaluate(TickColumns, TickColumns)}, per tick). It is met
   * when one of them meets both conditions (ratio and zero bytes); the measured column names
   * the path judged (one that met it, else the fastest) and shows the others.
   */
  private void ratioTarget(List<String[]> t, String w, int times) {
    List<Row> paths = new ArrayList<>();
    for (String path : ENTRY_POINTS) {
      Row r = row(w, path);
      if (r != null) {
        paths.add(r);
      }
    }
    double base = baselineNs(w);
    String target = w + " monitor API <= " + times + "x baseline, 0 B/tick";
    if (paths.isEmpty() || Double.isNaN(base)) {
      t.add(new String[] {"NOT RUN", target, "-"});
      return;
    }
    Row m = null;
    for (Row r : paths) {
      if (meets(r, base, times) && (m == null || r.ns() < m.ns())) {
        m = r;
      }
    }
    if (m == null) {
      for (Row r : paths) {
        if (m == null || r.ns() < m.ns()) {
          m = r;
        }
      }
    }
    double ratio = m.ns() / base;
    boolean zero = m.bytes() < ZERO_BYTES;
    Row floor = row(w, "row");
    StringBuilder measured = new StringBuilder(String.format(Locale.ROOT,
        "%.2fx (%s vs %s ns) through %s, %.3f B/tick", ratio, fmt(m.ns()), fmt(base),
        m.path(), m.bytes()));
    for (Row other : paths) {
      if (other != m) {
        measured.append(String.format(Locale.ROOT, "; %s: %.2fx", other.path(),
            other.ns() / base));
      }
    }
    if (floor != null) {
      measured.append(String.format(Locale.ROOT, "; the row contract alone: %.2fx",
          floor.ns() / base));
    }
    t.add(new String[] {ratio <= times && zero ? "MET" : "MISSED", target,
        measured.toString()});
  }

  private static boolean meets(Row r, double base, int times) {
    return r.ns() / base <= times && r.bytes() < ZERO_BYTES;
  }

  private static String fmt(double ns) {
    if (Double.isNaN(ns)) {
      return "-";
    }
    return String.format(Locale.ROOT, ns >= 1000 ? "%.0f" : "%.2f", ns);
  }

  void printText(PrintStream out) {
    out.println("# workload path ns_per_tick baseline_ns ratio bytes_per_tick");
    for (String[] l : table()) {
      out.println(String.join(" ", l));
    }
    out.println();
    out.println("# threaded runtime and hand-off throughput");
    for (String[] l : throughput()) {
      out.println(l[0] + " " + l[1] + " " + l[2] + " ticks/s");
    }
    out.println();
    out.println("# targets (issues 7 and 21)");
    for (String[] l : targets()) {
      out.println(String.format(Locale.ROOT, "%-7s %-49s %s", l[0], l[1], l[2]));
    }
  }

  void printMarkdown(PrintStream out) {
    out.println("| workload | path | ns/tick | baseline ns | ratio | bytes/tick |");
    out.println("|---|---|---:|---:|---:|---:|");
    for (String[] l : table()) {
      out.println("| " + String.join(" | ", l) + " |");
    }
    out.println();
    out.println("| threaded runtime | path | ticks/s |");
    out.println("|---|---|---:|");
    for (String[] l : throughput()) {
      out.println("| " + l[0] + " | " + l[1] + " | " + l[2] + " |");
    }
    out.println();
    out.println("| target | status | measured |");
    out.println("|---|---|---|");
    for (String[] l : targets()) {
      out.println("| " + l[1] + " | " + l[0] + " | " + l[2] + " |");
    }
  }

  /** Prints the report of JMH JSON result files. */
  public static void main(String[] args) throws IOException {
    boolean markdown = false;
    List<String> jsons = new ArrayList<>();
    for (String a : args) {
      if (a.equals("--markdown")) {
        markdown = true;
      } else {
        jsons.add(Files.readString(Path.of(a), StandardCharsets.UTF_8));
      }
    }
    if (jsons.isEmpty()) {
      System.err.println("usage: Report [--markdown] RESULT.json...");
      System.exit(2);
    }
    Report r = read(jsons);
    if (markdown) {
      r.printMarkdown(System.out);
    } else {
      r.printText(System.out);
    }
  }
}
