package io.dataflow.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The report reads JMH's JSON and judges the targets of issues 7 and 21. */
class ReportTest {
  private static String result(String benchmark, String params, double ns, double bytes) {
    return "{\"benchmark\": \"io.dataflow.bench." + benchmark + "\", \"mode\": \"avgt\","
        + " \"params\": {" + params + "},"
        + " \"primaryMetric\": {\"score\": " + ns + ", \"scoreError\": \"NaN\","
        + " \"scoreUnit\": \"ns/op\", \"rawData\": [[1.0, 2.0]]},"
        + " \"secondaryMetrics\": {\"gc.alloc.rate.norm\": {\"score\": " + bytes
        + ", \"scoreUnit\": \"B/op\"}, \"gc.count\": {\"score\": \"NaN\"}}}";
  }

  private static final String JSON = "[\n"
      + result("BaselineBench.baseline", "\"workload\": \"simple_add\"", 2.0, 0.00001) + ",\n"
      + result("MonitorBench.monitor", "\"workload\": \"simple_add\"", 5.0, 0.0001) + ",\n"
      + result("MonitorBench.monitor", "\"workload\": \"dynamic\"", 20.0, 88.0) + ",\n"
      + result("TypedMonitorBench.typed", "\"workload\": \"simple_add\"", 7.0, 0) + ",\n"
      + result("MonitorBench.monitor", "\"workload\": \"counter\"", 9.0, 0) + ",\n"
      + result("TypedMonitorBench.typed", "\"workload\": \"counter\"", 8.0, 0) + ",\n"
      + result("BaselineBench.baseline", "\"workload\": \"counter\"", 3.0, 0) + ",\n"
      + result("MonitorBench.monitor", "\"workload\": \"threshold\"", 5.0, 0) + ",\n"
      + result("TypedMonitorBench.typed", "\"workload\": \"threshold\"", 4.0, 12.0) + ",\n"
      + result("BaselineBench.baseline", "\"workload\": \"threshold\"", 2.0, 0) + ",\n"
      + result("RowFloorBench.row", "\"workload\": \"simple_add\"", 3.0, 0) + ",\n"
      + result("ThreadedRuntimeBench.threaded", "\"workload\": \"simple_add\"", 250.0, 1.5)
      + ",\n"
      + result("CutoverBench.compileAndMonitor", "\"streams\": \"100\"", 2.5e6, 5e5) + "\n"
      + "]";

  @Test
  void printsOneLinePerWorkloadAndPathInTableOrder() {
    List<String[]> table = Report.read(List.of(JSON)).table();
    assertThat(table).extracting(l -> String.join(" ", l)).containsExactly(
        "simple_add monitor 5.00 2.00 2.50 0.000",
        "simple_add typed 7.00 2.00 3.50 0.000",
        "simple_add threaded 250.00 2.00 125.00 1.500",
        "simple_add row 3.00 2.00 1.50 0.000",
        "simple_add baseline 2.00 2.00 1.00 0.000",
        "counter monitor 9.00 3.00 3.00 0.000",
        "counter typed 8.00 3.00 2.67 0.000",
        "counter baseline 3.00 3.00 1.00 0.000",
        "threshold monitor 5.00 2.00 2.50 0.000",
        "threshold typed 4.00 2.00 2.00 12.000",
        "threshold baseline 2.00 2.00 1.00 0.000",
        "dynamic monitor 20.00 - - 88.000",
        "cutover_100 monitor+compile 2500000 - - 500000.000");
  }

  @Test
  void judgesTargetsAndSaysWhatWasNotRun() {
    List<String[]> targets = Report.read(List.of(JSON)).targets();
    assertThat(targets).extracting(l -> l[0] + " " + l[1]).contains(
        "MET simple_add monitor API <= 3x baseline, 0 B/tick",
        "MET counter monitor API <= 3x baseline, 0 B/tick",
        "MET threshold monitor API <= 3x baseline, 0 B/tick",
        "NOT RUN window3 monitor API <= 4x baseline, 0 B/tick",
        "MISSED dynamic monitor <= 3x simple_add monitor",
        "MISSED simple_add threaded >= 5000000 ticks/s",
        "MISSED cutover_100 monitor+compile < 1 ms");
    assertThat(targets.get(0)[2]).isEqualTo("2.50x (5.00 vs 2.00 ns) through monitor, "
        + "0.000 B/tick; typed: 3.50x; the row contract alone: 1.50x");
    assertThat(targets.get(1)[2]).as("judged on the faster entry point").isEqualTo(
        "2.67x (8.00 vs 3.00 ns) through typed, 0.000 B/tick; monitor: 3.00x");
    assertThat(targets.get(2)[2]).as("the faster path allocates: the other one meets it")
        .isEqualTo("2.50x (5.00 vs 2.00 ns) through monitor, 0.000 B/tick; typed: 2.00x");
    assertThat(Report.read(List.of(JSON)).throughput()).extracting(l -> l[2])
        .containsExactly("4000000");
  }

  private static String handoff(String method, String sink, double ticksPerSecond,
      double bytes) {
    return "{\"benchmark\": \"io.dataflow.bench.HandoffBench." + method + "\","
        + " \"mode\": \"thrpt\", \"params\": {\"sink\": \"" + sink + "\"},"
        + " \"primaryMetric\": {\"score\": " + ticksPerSecond + ", \"scoreError\": "
        + ticksPerSecond / 10 + ", \"scoreUnit\": \"ops/s\", \"rawData\": [[1.0]]},"
        + " \"secondaryMetrics\": {\"gc.alloc.rate.norm\": {\"score\": " + bytes
        + ", \"scoreUnit\": \"B/op\"}}}";
  }

  @Test
  void readsTheHandOffInTicksPerSecondAndJudgesItsTargets() {
    String json = "[" + handoff("offerOne", "view", 12.5e6, 24.0) + ","
        + handoff("submitBatch", "view", 40e6, 0.1) + ","
        + handoff("submitBatch", "boxed", 1e6, 430.0) + "]";
    Report r = Report.read(List.of(json));
    assertThat(r.table()).extracting(l -> String.join(" ", l)).containsExactly(
        "simple_add offerOne 80.00 - - 24.000",
        "simple_add submitBatch 25.00 - - 0.100",
        "simple_add submitBatch-boxed 1000 - - 430.000");
    assertThat(r.throughput()).extracting(l -> l[1] + " " + l[2]).containsExactly(
        "offerOne 12500000", "submitBatch 40000000", "submitBatch-boxed 1000000");
    assertThat(r.targets()).extracting(l -> l[0] + " " + l[1]).contains(
        "MET handoff offerOne >= 10000000 ticks/s",
        "NOT RUN handoff offerFour >= 5000000 ticks/s",
        "MET handoff submitBatch >= 30000000 ticks/s, < 1 B/tick");
    String boxedOnly = "[" + handoff("submitBatch", "boxed", 40e6, 430.0) + "]";
    assertThat(Report.read(List.of(boxedOnly)).targets()).extracting(l -> l[0] + " " + l[1])
        .as("judged on the view sink only").contains(
            "NOT RUN handoff submitBatch >= 30000000 ticks/s, < 1 B/tick");
    String allocating = "[" + handoff("submitBatch", "view", 40e6, 3.0) + "]";
    assertThat(Report.read(List.of(allocating)).targets()).extracting(l -> l[0] + " " + l[1])
        .contains("MISSED handoff submitBatch >= 30000000 ticks/s, < 1 B/tick");
  }

  @Test
  void keepsTheFastestOfRepeatedResults() {
    String slower = "[" + result("MonitorBench.monitor", "\"workload\": \"simple_add\"", 9.0, 0)
        + "]";
    List<String[]> table = Report.read(List.of(slower, JSON, slower)).table();
    assertThat(table.get(0)).containsExactly("simple_add", "monitor", "5.00", "2.00", "2.50",
        "0.000");
  }

  @Test
  void readsEscapesAndNonFiniteNumbers() {
    Object v = Json.parse("{\"a\": [1, -2.5e3, \"x\\\"\\u0041\", true, null], \"b\": \"NaN\"}");
    assertThat(v.toString()).isEqualTo("{a=[1.0, -2500.0, x\"A, true, null], b=NaN}");
    assertThat(Json.number("Infinity")).isInfinite();
  }
}
