#!/usr/bin/env bash
# Start-up and long runs of bin/dataflow (issue 21, docs/performance.md#start-up-issue-21).
#
#   1. `bin/dataflow run` of the five-tick counter example, wall time and peak memory: as the
#      launcher runs it, without its class-data-sharing archive (DATAFLOW_CDS=off), and with
#      the old flags (C1 only: -XX:TieredStopAtLevel=1).
#   2. `run` of a 2 M-tick trace of z = x + y (text output to /dev/null), full tiered
#      compilation against C1 only, as ticks/s = 2 M / (time of 2 M ticks - time of 10 ticks).
#
# Usage: dataflow-bench/startup.sh [--runs N] [--long-runs N] [--no-long]
#   --runs N       start-up runs per variant (20), after 3 warm-up runs
#   --long-runs N  runs per variant of the 2 M-tick trace (3)
#   --no-long      start-up only
# Needs the CLI built (mvn -B -DskipTests package), GNU date, and /usr/bin/time for the peak
# memory. Prints min and median wall time of N runs (each through bash -c and /usr/bin/time,
# a few ms more than the command alone). The variants run in turn, round after round, so that
# a busy neighbour slows them alike (hyperfine runs one variant after the other).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
runs=20
long_runs=3
long=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --runs) runs=$2; shift ;;
    --long-runs) long_runs=$2; shift ;;
    --no-long) long=0 ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "startup.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
cd "$root"
ls dataflow-cli/target/dataflow-cli-*-all.jar > /dev/null 2>&1 \
  || { echo "startup.sh: build the CLI first: mvn -B -DskipTests package" >&2; exit 1; }
c1="DATAFLOW_JAVA_OPTS='-XX:+UseSerialGC -XX:TieredStopAtLevel=1'"

now_ms() { date +%s%3N; }

# Runs each command (a shell line) in turn, $1 rounds, and prints min and median wall time and
# the largest peak RSS (from /usr/bin/time when it exists).
measure() {
  local rounds=$1; shift
  local n=$# i cmd t0 t1 rss
  local -a times rsses
  local rss_file
  rss_file="$(mktemp)"
  for ((i = 0; i < n; i++)); do times[i]=""; rsses[i]=0; done
  for ((r = 0; r < rounds; r++)); do
    i=0
    for cmd in "$@"; do
      t0=$(now_ms)
      if [[ -x /usr/bin/time ]]; then
        /usr/bin/time -f '%M' -o "$rss_file" bash -c "$cmd" > /dev/null 2>&1
        rss=$(tail -1 "$rss_file")
      else
        bash -c "$cmd" > /dev/null 2>&1
        rss=0
      fi
      t1=$(now_ms)
      times[i]+="$((t1 - t0)) "
      ((rss > rsses[i])) && rsses[i]=$rss
      i=$((i + 1))
    done
  done
  rm -f "$rss_file"
  i=0
  for cmd in "$@"; do
    # shellcheck disable=SC2086
    printf '%s\n' ${times[i]} | sort -n | awk -v cmd="$cmd" -v rss="${rsses[i]}" \
      '{ t[NR] = $1 } END { printf "min %5d ms  median %5d ms  peak %4d MB  %s\n", t[1], t[int((NR + 1) / 2)], rss / 1024, cmd }'
    i=$((i + 1))
  done
}

example="run docs/examples/counter.dsrv --input-file docs/examples/counter.input"
echo "== start-up: $example"
measure 3 "bin/dataflow $example" > /dev/null
measure "$runs" "bin/dataflow $example" "DATAFLOW_CDS=off bin/dataflow $example" \
  "$c1 bin/dataflow $example"
[[ $long -eq 1 ]] || exit 0

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
printf 'in x: Int\nin y: Int\nout z: Int\nz = x + y\n' > "$work/add.dsrv"
awk 'BEGIN { for (i = 0; i < 2000000; i++) printf "%d: x = %d\n   y = %d\n", i, i % 1000, i % 777 }' \
  > "$work/add2m.input"
head -n 20 "$work/add2m.input" > "$work/add10.input"
echo "== 2 M ticks of z = x + y, text to /dev/null (and 10 ticks, to subtract)"
measure "$long_runs" \
  "bin/dataflow run $work/add.dsrv --input-file $work/add2m.input" \
  "$c1 bin/dataflow run $work/add.dsrv --input-file $work/add2m.input" \
  "bin/dataflow run $work/add.dsrv --input-file $work/add10.input" \
  "$c1 bin/dataflow run $work/add.dsrv --input-file $work/add10.input" | tee "$work/long.txt"
awk '{ m[NR] = $2 } END {
  printf "tiered: %.2f M ticks/s, C1 only: %.2f M ticks/s (2 M / (min 2 M - min 10 ticks))\n",
    2000 / (m[1] - m[3]), 2000 / (m[2] - m[4]) }' "$work/long.txt"
