#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The doctor's matcher against grep -F on the same generated log (docs/performance.md, "doctor").
#   bench/doctor_grep_compare.sh BUILD_DIR [MB]      (default 2048 MB; the file goes to $TMPDIR)
# Prints MB/s (10^6 bytes/s) for: grep -F with one literal, grep -F -f with all of the matcher's literals,
# pf_doctor_bench's in-memory matcher (rules only, rules + INFO taps), and `preflight doctor FILE` end to end
# (read + scan + normalise + extract + rules + rank analysis). Single core: taskset -c 0 when available.
set -euo pipefail
build=${1:?usage: doctor_grep_compare.sh BUILD_DIR [MB]}
mb=${2:-2048}
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
timed() { # label command...
  local label=$1; shift
  local t0 t1
  # Output goes to a file: GNU grep stops at the first match when stdout is /dev/null.
  t0=$(date +%s.%N); "$@" > "$tmp/out" || true; t1=$(date +%s.%N)
  rate "$label" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')"
}
export LC_ALL=C  # byte semantics for grep, as the matcher has
timed "grep -F -c 'Cannot allocate memory'" $pin grep -F -c "Cannot allocate memory" "$tmp/big.log"
timed "grep -F -c -f literals.txt (all literals)" $pin grep -F -c -f "$tmp/literals.txt" "$tmp/big.log"
timed "preflight doctor FILE (end to end)" $pin "$pf" doctor "$tmp/big.log"
PF_DOCTOR_BENCH_MB=$((mb < 512 ? mb : 512)) $pin "$bench" --benchmark_filter='Matcher|SingleLiteral' \
  --benchmark_repetitions=3 --benchmark_report_aggregates_only=true 2>/dev/null | grep -E "median|Benchmark"
