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
# the log in the page cache. The doctor runs twice: pinned to core 0 when taskset is there (one thread: its CPU rate,
# comparable with every earlier figure), and as a user starts it, on every core of the machine (it reads ahead
# on a second one: block_pipeline.hpp); grep pinned to core 0 (it uses one thread either way).
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
# One run under /usr/bin/time -v: prints "wall_s cpu_s max_rss_kb" (cpu: user + system; on a machine shared with
# other work the wall time includes waiting for a core, the CPU time does not).
measure() {
  local how=$1
  shift
  if [[ $how == pinned ]]; then set -- "${pin[@]}" "$@"; fi
  /usr/bin/time -v "$@" > "$tmp/out" 2> "$tmp/time" || true
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i] }
              /User time|System time/ { c += $2 }
              /Maximum resident/ { r = $2 } END { printf "%.3f %.3f %d\n", s, c, r }' "$tmp/time"
}
median() { sort -g | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
# RUNS runs (pinned|free COMMAND...): prints "median_wall_s median_cpu_s max_rss_kb walls/cpus".
repeat() {
  local walls=() cpus=() rss=0 w c r
  for ((k = 0; k < runs; k++)); do
    read -r w c r < <(measure "$@")
    walls+=("$w")
    cpus+=("$c")
    ((r > rss)) && rss=$r
  done
  echo "$(printf '%s\n' "${walls[@]}" | median) $(printf '%s\n' "${cpus[@]}" | median) $rss" \
    "$(IFS=,; echo "${walls[*]}")/$(IFS=,; echo "${cpus[*]}")"
}
printf '%-9s %12s | %-31s %8s %8s %8s %8s %10s | %s\n' processes bytes contender wall_s MB/s cpu_s MB/s_cpu \
  max_RSS_MB "runs: wall/cpu (s)"
for c in $cases; do
  procs=${c%%:*} size=${c#*:}
  log=$tmp/real_$procs.log
  "$gen" "$examples" "$log" "$size" "$procs" > "$tmp/gen.txt"
  bytes=$(stat -c %s "$log")
  cat "$log" > /dev/null  # page cache warm for both
  read -r dw dc drss druns < <(repeat pinned "$pf" doctor "$log" --json -)
  read -r fw fc frss fruns < <(repeat free "$pf" doctor "$log" --json -)
  read -r gw gc grss gruns < <(repeat pinned grep -F -c "NCCL WARN" "$log")
  row() { # label wall cpu rss runs
    awk -v p="$procs" -v b="$bytes" -v l="$1" -v w="$2" -v c="$3" -v r="$4" -v runs="$5" \
      'BEGIN { printf "%-9s %12d | %-31s %8.2f %8.0f %8.2f %8.0f %10.1f | %s\n", p, b, l, w, b / w / 1e6, c,
               b / (c > 0 ? c : 0.001) / 1e6, r / 1024, runs }'
  }
  row "preflight doctor FILE --json -" "$dw" "$dc" "$drss" "$druns"
  row "the same on $(nproc) cores" "$fw" "$fc" "$frss" "$fruns"
  row "grep -F -c 'NCCL WARN' FILE" "$gw" "$gc" "$grss" "$gruns"
  awk -v d="$dw" -v g="$gw" -v dc="$dc" -v gc="$gc" \
    'BEGIN { printf "          doctor / grep -F: %.2fx the wall time, %.2fx the CPU time (one core)\n", d / g, dc / (gc > 0 ? gc : 0.001) }'
  if [[ -n ${JSON_DIR:-} ]]; then
    mkdir -p "$JSON_DIR"
    "$pf" doctor "$log" --json - > "$tmp/doctor.json" || true
    python3 - "$tmp/doctor.json" "$JSON_DIR/doctor_$procs.json" "$log" << 'EOF'
import json, sys
# Fields that differ from run to run (times, durations, the host) are dropped, and the log's path (its folder
# holds the shell's pid) is written LOG; the verdict is the rest.
DROP = {"argv", "start_time", "end_time", "timestamp", "started_at", "finished_at", "elapsed_s", "duration_s", "seconds", "wall_s", "host", "hostname",
        "run_id", "time", "date"}
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k not in DROP}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
text = open(sys.argv[1]).read().replace(json.dumps(sys.argv[3])[1:-1], "LOG")
json.dump(strip(json.loads(text)), open(sys.argv[2], "w"), indent=1, sort_keys=True)
EOF
  fi
  rm -f "$log"
done
