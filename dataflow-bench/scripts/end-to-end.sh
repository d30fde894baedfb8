#!/usr/bin/env bash
# End-to-end throughput and peak memory of bin/dataflow (issue 21): `run` over a trace file and
# over a JSON Lines file, `live` from stdin, each with text and JSON Lines output to /dev/null.
#
# The specification is simple_add (`z = x + y`, two Int inputs per tick). For every case the
# script times a run over TICKS ticks and one over 10 ticks (hyperfine when installed, else a
# loop; the median of RUNS runs) and reports
#
#   ticks/s = TICKS / (median time of the TICKS run - median time of the 10-tick run)
#
# so that JVM start-up, class loading and compiling the specification do not count, the same
# rate over CPU time (user + system of every thread, JIT and GC included: on a machine whose
# cores other processes share, wall time measures the neighbours too, CPU time much less), and
# the peak resident set size of the TICKS run (/usr/bin/time -v). One line per case:
#
#   case ticks run_s ten_s M_ticks_per_s run_cpu_s M_ticks_per_cpu_s peak_rss_MB
#
# Then the promptness of `live` (needs python3): one JSON line every 20 ms into a running
# `bin/dataflow live`, and the time from writing each line to reading its output line:
#
#   live-latency  lines  median_ms  p95_ms  max_ms
#
# Usage: dataflow-bench/scripts/end-to-end.sh [--ticks N] [--runs N] [--cases LIST] [--build]
#   --ticks N     ticks of the long runs (default 2000000)
#   --runs N      timed runs per command (default 5, after one warm-up run)
#   --cases LIST  comma-separated subset of: run-trace-text, run-trace-jsonl, run-jsonl-text,
#                 run-jsonl-jsonl, live-text, live-jsonl, live-latency (default: all)
#   --build       build the CLI jar first (mvn -o -B -q -DskipTests package -pl dataflow-cli -am)
# Environment: DATAFLOW names the launcher to measure (default: this checkout's bin/dataflow;
#   another checkout's, to compare before and after). DATAFLOW_JAVA_OPTS is passed to it as is (its JVM flags; unset: the
#   launcher's defaults), e.g. DATAFLOW_JAVA_OPTS="-XX:+UseSerialGC -Xshare:auto" for tiered
#   compilation without the C1 cap. The inputs are generated once into
#   dataflow-bench/target/end-to-end/ (about 40 MB for 2 M ticks).
# The machine is shared: compare before and after under the same load (see `uptime`).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
ticks=2000000
runs=5
cases="run-trace-text,run-trace-jsonl,run-jsonl-text,run-jsonl-jsonl,live-text,live-jsonl"
cases+=",live-latency"
build=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --ticks) ticks=$2; shift ;;
    --runs) runs=$2; shift ;;
    --cases) cases=$2; shift ;;
    --build) build=1 ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    *) echo "end-to-end.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
[[ $ticks =~ ^[1-9][0-9]*$ && $runs =~ ^[1-9][0-9]*$ ]] \
  || { echo "end-to-end.sh: --ticks and --runs need positive numbers" >&2; exit 2; }

if [[ $build -eq 1 ]]; then
  (cd "$root" && mvn -o -B -q -DskipTests package -pl dataflow-cli -am) >&2
fi
dataflow="${DATAFLOW:-$root/bin/dataflow}"
work="$root/dataflow-bench/target/end-to-end"
mkdir -p "$work"

# The inputs: the same ticks as a trace file and as JSON Lines.
printf 'in x: Int\nin y: Int\nout z: Int\nz = x + y\n' > "$work/add.dsrv"
generate() {
  local n=$1
  [[ -f "$work/add-$n.input" && -f "$work/add-$n.jsonl" ]] && return
  awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "%d: x = %d\n   y = %d\n", i, i % 100000, (i * 7) % 1000 }' \
    > "$work/add-$n.input"
  awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) printf "{\"x\": %d, \"y\": %d}\n", i % 100000, (i * 7) % 1000 }' \
    > "$work/add-$n.jsonl"
}
generate "$ticks"
generate 10

# The command line of a case over n ticks (output goes to /dev/null).
command_of() {
  local c=$1 n=$2 spec="$work/add.dsrv"
  case "$c" in
    run-trace-text) echo "$dataflow run $spec --input-file $work/add-$n.input" ;;
    run-trace-jsonl) echo "$dataflow run $spec --input-file $work/add-$n.input --format jsonl" ;;
    run-jsonl-text) echo "$dataflow run $spec --input-file $work/add-$n.jsonl" ;;
    run-jsonl-jsonl) echo "$dataflow run $spec --input-file $work/add-$n.jsonl --format jsonl" ;;
    live-text) echo "$dataflow live $spec < $work/add-$n.jsonl" ;;
    live-jsonl) echo "$dataflow live $spec --format jsonl < $work/add-$n.jsonl" ;;
    *) echo "end-to-end.sh: unknown case '$c'" >&2; exit 2 ;;
  esac
}

# The median wall time and the mean CPU time (user + system, all threads) in seconds of a
# command, on one line.
measure() {
  local cmd=$1
  if command -v hyperfine >/dev/null; then
    hyperfine --warmup 1 --runs "$runs" --style none --export-json "$work/h.json" "$cmd" \
      >/dev/null 2>&1 || { echo "end-to-end.sh: failed: $cmd" >&2; bash -c "$cmd" >/dev/null; exit 1; }
    local median user system
    median=$(sed -n 's/.*"median": *\([0-9.e+-]*\).*/\1/p' "$work/h.json" | head -1)
    user=$(sed -n 's/.*"user": *\([0-9.e+-]*\).*/\1/p' "$work/h.json" | head -1)
    system=$(sed -n 's/.*"system": *\([0-9.e+-]*\).*/\1/p' "$work/h.json" | head -1)
    awk -v m="$median" -v u="$user" -v s="$system" 'BEGIN { printf "%.4f %.4f\n", m, u + s }'
  else
    local i
    bash -c "$cmd" >/dev/null
    for ((i = 0; i < runs; i++)); do
      /usr/bin/time -f "%e %U %S" -o "$work/t.$i" bash -c "$cmd" >/dev/null
    done
    cat "$work"/t.* | awk '{ w[NR] = $1; c += $2 + $3 } END {
      n = asort(w); printf "%.4f %.4f\n", w[int((n + 1) / 2)], c / NR }'
    rm -f "$work"/t.*
  fi
}

peak_mb() {
  /usr/bin/time -v bash -c "exec $1" 2>&1 >/dev/null \
    | sed -n 's/.*Maximum resident set size (kbytes): *//p' | awk '{ printf "%.0f", $1 / 1024 }'
}

echo "# $(date -u +%FT%TZ) $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg);" \
  "DATAFLOW_JAVA_OPTS=${DATAFLOW_JAVA_OPTS:-<launcher default>}"
header() {
  printf '%-16s %8s %7s %6s %13s %9s %15s %11s\n' case ticks run_s ten_s M_ticks_per_s \
    run_cpu_s M_ticks_per_cpu_s peak_rss_MB
}
# The promptness of live: the output of each line, one line every 20 ms.
live_latency() {
  command -v python3 >/dev/null || { echo "live-latency: needs python3; skipped"; return; }
  python3 - "$dataflow" "$work/add.dsrv" <<'PY'
import statistics, subprocess, sys, time
p = subprocess.Popen([sys.argv[1], "live", sys.argv[2]], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE, bufsize=0)
def ask(i):
    t = time.perf_counter()
    p.stdin.write(b'{"x": %d, "y": 1}\n' % i)
    line = p.stdout.readline()
    assert line.startswith(b"z[%d] = Int(%d)" % (i, i + 1)), line
    return (time.perf_counter() - t) * 1000
for i in range(20):          # start-up and warm-up, not counted
    ask(i)
lat = []
for i in range(20, 220):
    time.sleep(0.02)         # the input pauses
    lat.append(ask(i))
p.stdin.close()
p.wait(timeout=30)
lat.sort()
print("%-16s %8d %9.2f %7.2f %7.2f" % ("live-latency", len(lat), statistics.median(lat),
                                     lat[int(len(lat) * 0.95)], lat[-1]))
PY
}

IFS=, read -r -a selected <<< "$cases"
for c in "${selected[@]}"; do
  if [[ $c == live-latency ]]; then
    printf '%-16s %8s %9s %7s %7s\n' case lines median_ms p95_ms max_ms
    live_latency
    continue
  fi
  [[ -n ${headed:-} ]] || { header; headed=1; }
  read -r long long_cpu < <(measure "$(command_of "$c" "$ticks")")
  read -r short short_cpu < <(measure "$(command_of "$c" 10)")
  rate=$(awk -v n="$ticks" -v l="$long" -v s="$short" 'BEGIN { printf "%.2f", n / (l - s) / 1e6 }')
  cpu_rate=$(awk -v n="$ticks" -v l="$long_cpu" -v s="$short_cpu" \
    'BEGIN { printf "%.2f", n / (l - s) / 1e6 }')
  rss=$(peak_mb "$(command_of "$c" "$ticks")")
  printf '%-16s %8d %7.3f %6.3f %13s %9.3f %15s %11s\n' "$c" "$ticks" "$long" "$short" "$rate" \
    "$long_cpu" "$cpu_rate" "$rss"
done
