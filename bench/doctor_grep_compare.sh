#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The doctor against grep -F on the same generated multi-rank log (docs/performance.md, "doctor").
#   bench/doctor_grep_compare.sh BUILD_DIR [MB] [MEM_MB]
#     MB      size of the timed log (default 2048; the files go to $TMPDIR)
#     MEM_MB  also generate a log of this size and report `preflight doctor`'s max RSS on it (default 0: skip;
#             the issue's bound is MEM_MB=4096 under 300 MB)
# Prints MB/s (10^6 bytes/s) for: grep -F with one literal, grep -F -f with all of the matcher's literals,
# and `preflight doctor FILE` as a whole process (start to exit: read, scan, normalise, extract, rules, rank
# analysis, report), each the median of 3 runs, then the ratio doctor / grep -F -f; then pf_doctor_bench's
# in-memory matcher (rules only, rules + INFO taps). Single core: taskset -c 0 when available.
set -euo pipefail
build=${1:?usage: doctor_grep_compare.sh BUILD_DIR [MB]}
mb=${2:-2048}
mem_mb=${3:-0}
bench=$build/doctor/pf_doctor_bench
pf=$build/bin/preflight
tmp=${TMPDIR:-/tmp}/pf_doctor_bench.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
pin=""
command -v taskset > /dev/null && pin="taskset -c 0"
"$bench" --generate "$tmp/big.log" "$mb"
"$bench" --print-literals > "$tmp/literals.txt"
bytes=$(stat -c %s "$tmp/big.log")
echo "log: $bytes bytes, $(wc -l < "$tmp/big.log") lines; matcher literals: $(wc -l < "$tmp/literals.txt")"
cat "$tmp/big.log" > /dev/null  # page cache warm for every contender
rate() { # label seconds
  awk -v b="$bytes" -v s="$2" -v l="$1" 'BEGIN { printf "%-44s %8.2f s %9.0f MB/s\n", l, s, b / s / 1e6 }'
}
timed() { # label command...   (prints the median of 3 runs; leaves it in $median)
  local label=$1; shift
  local t0 t1 runs=()
  for _ in 1 2 3; do
    # Output goes to a file: GNU grep stops at the first match when stdout is /dev/null.
    t0=$(date +%s.%N); "$@" > "$tmp/out" || true; t1=$(date +%s.%N)
    runs+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')")
  done
  median=$(printf '%s\n' "${runs[@]}" | sort -g | sed -n 2p)
  rate "$label" "$median"
  echo "    runs: ${runs[*]} s"
}
export LC_ALL=C  # byte semantics for grep, as the matcher has
timed "grep -F -c 'Cannot allocate memory'" $pin grep -F -c "Cannot allocate memory" "$tmp/big.log"
timed "grep -F -c -f literals.txt (all literals)" $pin grep -F -c -f "$tmp/literals.txt" "$tmp/big.log"
grep_s=$median
timed "preflight doctor FILE (whole process)" $pin "$pf" doctor "$tmp/big.log"
awk -v d="$median" -v g="$grep_s" 'BEGIN { printf "ratio: preflight doctor reads %.2fx the bytes/s of grep -F -f (%.2f s vs %.2f s)\n", g / d, d, g }'
if ((mem_mb > 0)); then
  rm -f "$tmp/big.log"  # disk: only one generated log at a time
  "$bench" --generate "$tmp/mem.log" "$mem_mb"
  /usr/bin/time -v $pin "$pf" doctor "$tmp/mem.log" > /dev/null 2> "$tmp/time.txt" || true
  echo "memory: $(stat -c %s "$tmp/mem.log") bytes; $(grep -E 'Maximum resident|Elapsed' "$tmp/time.txt" | sed 's/^\s*//' | paste -sd ';')"
  rm -f "$tmp/mem.log"
fi
PF_DOCTOR_BENCH_MB=$((mb < 512 ? mb : 512)) $pin "$bench" --benchmark_filter='Matcher|SingleLiteral' \
  --benchmark_repetitions=3 --benchmark_report_aggregates_only=true 2>/dev/null | grep -E "median|Benchmark"
