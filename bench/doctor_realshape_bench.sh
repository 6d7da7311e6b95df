#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `preflight doctor` beside `grep -F` on logs of real NCCL INFO start-up lines (docs/performance.md, "doctor on
# real-shaped logs"), made by pf_doctor_realshape_gen from shared/fixtures/nccl-logs/nccl_info_startup_examples.txt.
#   bench/doctor_realshape_bench.sh BUILD_DIR [EXAMPLES] [CASES]
#     EXAMPLES  the examples file (default ../shared/fixtures/... beside the checkout, else /work/shared/...)
#     CASES     "PROCESSES:BYTES ..." (default "4096:2G 100000:2G"); each log goes to $TMPDIR and is deleted after
#   JSON_DIR=DIR  also keep `preflight doctor FILE --json -` of each case, less its timing fields, as
#                 DIR/doctor_PROCESSES.json (to diff the verdict of two builds)
#   RUNS=N        runs per contender (default 3; the table gives the median wall time and the largest RSS)
# Each run: `preflight doctor FILE --json - > /dev/null` and `grep -F -c 'NCCL WARN' FILE` under /usr/bin/time -v,
# pinned to core 0 when taskset is there, the log in the page cache.
set -euo pipefail
build=${1:?usage: doctor_realshape_bench.sh BUILD_DIR [EXAMPLES] [CASES]}
here=$(cd "$(dirname "$0")/.." && pwd)
examples=${2:-}
if [[ -z $examples ]]; then
  for c in "$here/../shared/fixtures/nccl-logs/nccl_info_startup_examples.txt" \
    /work/shared/fixtures/nccl-logs/nccl_info_startup_examples.txt; do
    [[ -f $c ]] && examples=$c && break
  done
fi
[[ -f $examples ]] || { echo "no examples file: pass nccl_info_startup_examples.txt as the second argument" >&2; exit 2; }
cases=${3:-"4096:2G 100000:2G"}
runs=${RUNS:-3}
gen=$build/bench/pf_doctor_realshape_gen
pf=$build/bin/preflight
for b in "$gen" "$pf"; do
  [[ -x $b ]] || { echo "$b is not built: ninja -C $build pf_doctor_realshape_gen preflight" >&2; exit 2; }
done
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time is missing: apt-get install time" >&2; exit 2; }
tmp=${TMPDIR:-/tmp}/pf_realshape.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
pin=()
command -v taskset > /dev/null && pin=(taskset -c 0)
export LC_ALL=C
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); $(uptime | sed 's/^ *//'); $(nproc) cores; $(git -C "$here" rev-parse --short HEAD)"
# One run under /usr/bin/time -v: prints "wall_s max_rss_kb".
measure() {
  /usr/bin/time -v "${pin[@]}" "$@" > "$tmp/out" 2> "$tmp/time" || true
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i] }
              /Maximum resident/ { r = $2 } END { printf "%.3f %d\n", s, r }' "$tmp/time"
}
# RUNS runs: prints "median_wall_s max_rss_kb all_walls".
repeat() {
  local walls=() rss=0 w r
  for ((k = 0; k < runs; k++)); do
    read -r w r < <(measure "$@")
    walls+=("$w")
    ((r > rss)) && rss=$r
  done
  local med
  med=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  echo "$med $rss $(IFS=,; echo "${walls[*]}")"
}
printf '%-9s %14s | %-30s %9s %10s | %-30s %9s %9s | %s\n' processes bytes contender wall_s MB/s max_RSS_MB \
  "" "" "" "runs (s)"
for c in $cases; do
  procs=${c%%:*} size=${c#*:}
  log=$tmp/real_$procs.log
  "$gen" "$examples" "$log" "$size" "$procs" > "$tmp/gen.txt"
  bytes=$(stat -c %s "$log")
  cat "$log" > /dev/null  # page cache warm for both
  read -r dw drss druns < <(repeat "$pf" doctor "$log" --json -)
  read -r gw grss gruns < <(repeat grep -F -c "NCCL WARN" "$log")
  row() { # label wall rss runs
    awk -v p="$procs" -v b="$bytes" -v l="$1" -v w="$2" -v r="$3" -v runs="$4" \
      'BEGIN { printf "%-9s %14d | %-30s %9.2f %10.0f %10.1f | %s\n", p, b, l, w, b / w / 1e6, r / 1024, runs }'
  }
  row "preflight doctor FILE --json -" "$dw" "$drss" "$druns"
  row "grep -F -c 'NCCL WARN' FILE" "$gw" "$grss" "$gruns"
  awk -v d="$dw" -v g="$gw" 'BEGIN { printf "          doctor / grep -F wall time: %.2fx\n", d / g }'
  if [[ -n ${JSON_DIR:-} ]]; then
    mkdir -p "$JSON_DIR"
    "$pf" doctor "$log" --json - > "$tmp/doctor.json" || true
    python3 - "$tmp/doctor.json" "$JSON_DIR/doctor_$procs.json" << 'EOF'
import json, sys
# Fields that differ from run to run (times, durations, the host) are dropped; the verdict is the rest.
DROP = {"timestamp", "started_at", "finished_at", "elapsed_s", "duration_s", "seconds", "wall_s", "host", "hostname",
        "run_id", "time", "date"}
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in DROP}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
json.dump(strip(json.load(open(sys.argv[1]))), open(sys.argv[2], "w"), indent=1, sort_keys=True)
EOF
  fi
  rm -f "$log"
done
