#!/usr/bin/env bash
# Builds dataflow-bench and runs the JMH suite of issue 7 with the gc profiler, then prints one
# line per workload and path:
#
#   workload path ns_per_tick baseline_ns ratio bytes_per_tick
#
# followed by the threaded runtime's and the hand-off's throughput (ticks/s) and the targets
# (MET / MISSED) of issues 7 and 21.
#
# Usage: dataflow-bench/run.sh [--quick] [--repeat N] [--no-build] [--markdown] [-- JMH_OPTS...]
#   --quick     a subset in about 3 minutes on 2 cores: monitor and baseline for every
#               workload, the typed handles for simple_add, batches in columns for the six
#               workloads with ratio targets, the stepped and threaded runtime
#               for simple_add, cutover with 100 streams, the hand-off (HandoffBench: 1 and
#               4 producers of single ticks, batches of 256) into the view sink; 1 fork,
#               2 x 1 s warm-up (5 x 1 s for cutover), 3 x 1 s measurement
#   (default)   every workload on every path (also monitor-mixed: the monitor after all
#               workloads ran in the JVM; and the batch floor of simple_add, see
#               BatchFloorBench), cutover with 10 and 100 streams, the hand-off into the
#               view sink and the boxed callback; 1 fork,
#               3 x 2 s warm-up (5 x 2 s for cutover), 5 x 2 s measurement (about 26 min)
#   --repeat N  run the selection N times and report the fastest result of each benchmark
#               (on a shared machine the slower runs measure the neighbours; N times longer)
#   --no-build  use the existing target/benchmarks.jar
#   --markdown  also print the report as Markdown tables (for docs/performance.md)
# Environment: JAVA runs the benchmarks (default: java on the PATH; the build always uses
# Maven's JDK); MVN_FLAGS adds Maven flags (e.g. -o).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
java_bin="${JAVA:-java}"
mode=full
build=1
markdown=0
repeat=1
jmh_extra=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --quick) mode=quick ;;
    --repeat)
      [[ $# -ge 2 && $2 =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --repeat needs N >= 1" >&2; exit 2; }
      repeat=$2; shift ;;
    --no-build) build=0 ;;
    --markdown) markdown=1 ;;
    --) shift; jmh_extra=("$@"); break ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done

start=$SECONDS
if [[ $build -eq 1 ]]; then
  echo "building dataflow-bench ..." >&2
  # shellcheck disable=SC2086
  (cd "$root" && mvn -B -q -DskipTests ${MVN_FLAGS:-} package -pl dataflow-bench -am) >&2
fi
jar="$here/target/benchmarks.jar"
[[ -f "$jar" ]] || { echo "run.sh: $jar is missing; build first" >&2; exit 1; }

out="$here/target/jmh"
rm -rf "$out"
mkdir -p "$out"

# One JMH run per entry: "selection and params;timing". The compile path behind a cutover
# needs a longer warm-up than the tick path before the JIT has settled.
if [[ $mode == quick ]]; then
  runs=(
    "io.dataflow.bench.(MonitorBench|BaselineBench).*;-f 1 -wi 2 -w 1s -i 3 -r 1s"
    "io.dataflow.bench.TypedMonitorBench.typed -p workload=simple_add;-f 1 -wi 2 -w 1s -i 3 -r 1s"
    "io.dataflow.bench.ColumnsMonitorBench.columns -p workload=simple_add,counter,threshold,window3,arith,chain32;-f 1 -wi 2 -w 1s -i 3 -r 1s"
    "io.dataflow.bench.(SteppedRuntimeBench.stepped|ThreadedRuntimeBench.threaded)\$ -p workload=simple_add;-f 1 -wi 2 -w 1s -i 3 -r 1s"
    "io.dataflow.bench.CutoverBench.* -p streams=100;-f 1 -wi 5 -w 1s -i 3 -r 1s"
    "io.dataflow.bench.HandoffBench.* -p sink=view;-f 1 -wi 2 -w 1s -i 3 -r 1s"
  )
else
  runs=(
    "io.dataflow.bench.(MonitorBench|TypedMonitorBench|ColumnsMonitorBench|MixedMonitorBench|BaselineBench|RowFloorBench|BatchFloorBench|SteppedRuntimeBench|ThreadedRuntimeBench).*;-f 1 -wi 3 -w 2s -i 5 -r 2s"
    "io.dataflow.bench.CutoverBench.*;-f 1 -wi 5 -w 2s -i 5 -r 2s"
    "io.dataflow.bench.HandoffBench.*;-f 1 -wi 3 -w 2s -i 5 -r 2s"
  )
fi

"$java_bin" -version 2>&1 | head -1 >&2
results=()
total=$((repeat * ${#runs[@]}))
n=0
for ((r = 1; r <= repeat; r++)); do
  for run in "${runs[@]}"; do
    n=$((n + 1))
    read -r -a selection <<< "${run%%;*}" # split on spaces, no globbing
    read -r -a timing <<< "${run#*;}"
    json="$out/$mode-$n.json"
    results+=("$json")
    echo "jmh run $n/$total: ${run%%;*} (${run#*;})" >&2
    "$java_bin" -jar "$jar" "${selection[@]}" "${timing[@]}" -foe true -prof gc \
        -rf json -rff "$json" "${jmh_extra[@]}" > "$out/$mode-$n.log" 2>&1 &
    jmh=$!
    # Progress: one line per benchmark fork, from the log.
    tail -n +1 -f --pid=$jmh "$out/$mode-$n.log" 2>/dev/null \
        | grep --line-buffered -E '^# (Benchmark|Parameters):' >&2 || true
    if ! wait $jmh; then
      echo "run.sh: JMH failed, see $out/$mode-$n.log" >&2
      tail -n 30 "$out/$mode-$n.log" >&2
      exit 1
    fi
  done
done

echo >&2
"$java_bin" -cp "$jar" io.dataflow.bench.Report "${results[@]}"
if [[ $markdown -eq 1 ]]; then
  echo
  "$java_bin" -cp "$jar" io.dataflow.bench.Report --markdown "${results[@]}"
fi
echo >&2
echo "mode $mode, repeat $repeat, $((SECONDS - start)) s; JMH logs and JSON in $out" >&2
