#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Progress lines with the time left go to stderr, never stdout: a sweep whose stdout is its JSON document, a
# doctor run over a 9 MB log (plain, then beside a gzip copy), and a scale run, with PREFLIGHT_PROGRESS=always (a test run is shorter than the seconds before progress shows).
# Usage: progress_case.sh PREFLIGHT PYTHON [scale]
set -uo pipefail
pf=$1 py=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
export PREFLIGHT_PROGRESS=always

timeout 120 "$pf" sweep all_reduce --local-ranks 2 -b 8 -e 64K -f 4 --json - > "$work/out.json" 2> "$work/err.txt" \
  || { cat "$work/err.txt"; fail "sweep exit $?"; }
"$py" -c "import json,sys; json.load(open(sys.argv[1]))" "$work/out.json" || fail "stdout is not the JSON document alone"
grep -q 'preflight\]' "$work/out.json" && fail "progress on stdout"
# 7 sizes: a line after each but the last, each with an estimate.
grep -q '^\[preflight\] sweep all_reduce: 1/7 sizes done (last 8 B), [0-9]* s elapsed, about [0-9]* s left$' \
  "$work/err.txt" || { cat "$work/err.txt"; fail "no progress line for the first size"; }
[[ $(grep -c '^\[preflight\] sweep all_reduce: [1-6]/7 sizes done.* left$' "$work/err.txt") -eq 6 ]] \
  || { cat "$work/err.txt"; fail "not one progress line with the time left per size"; }

# doctor: a line per 4 MiB block read, with the time left while every input is plain; a compressed input's size
# on disk says little about its text, so with one the time left is not estimated.
src=$(dirname "$0")/../unit/doctor/data/nccl_info_startup_examples.txt
while [[ $(stat -c %s "$work/job.log" 2> /dev/null || echo 0) -lt 9000000 ]]; do cat "$src" >> "$work/job.log"; done
timeout 120 "$pf" doctor "$work/job.log" --json - > "$work/doctor.json" 2> "$work/doctor.err"
[[ $? -le 1 ]] || { cat "$work/doctor.err"; fail "doctor exit"; }
"$py" -c "import json,sys; json.load(open(sys.argv[1]))" "$work/doctor.json" || fail "doctor's stdout is not its JSON alone"
grep -q '^\[preflight\] doctor: input 1 of 1, 8.0 MiB read, [0-9]* s elapsed, about [0-9]* s left$' "$work/doctor.err" \
  || { cat "$work/doctor.err"; fail "no doctor progress line with the time left"; }
gzip -c "$work/job.log" > "$work/job.log.gz"
timeout 120 "$pf" doctor "$work/job.log" "$work/job.log.gz" --json - > /dev/null 2> "$work/doctor2.err"
grep -q '^\[preflight\] doctor: input 2 of 2, .* read, [0-9]* s elapsed, time left not known yet$' "$work/doctor2.err" \
  || { cat "$work/doctor2.err"; fail "no doctor progress line for the compressed input"; }

if [[ ${3:-} == scale ]]; then
  timeout 240 "$pf" scale --local-ranks 2 --ranks 1,2 --reps 2 --steps 2 --format csv > "$work/scale.csv" \
    2> "$work/scale.err" || { cat "$work/scale.err"; fail "scale exit $?"; }
  grep -q 'preflight\]' "$work/scale.csv" && fail "progress on stdout (scale)"
  for what in "world size 1: repetition 1/2" "world size 1: single-rank reference 2/2" "world size 2: repetition 2/2" \
    "world size 2: single-rank reference 1/2"; do
    grep -q "^\[preflight\] scale: $what done, .* elapsed, about .* left$" "$work/scale.err" \
      || { cat "$work/scale.err"; fail "no progress line for '$what'"; }
  done
fi
echo "PASS"
