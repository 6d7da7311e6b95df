#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Progress lines with the time left go to stderr, never stdout: a sweep whose stdout is its JSON document, and a
# scale run, with PREFLIGHT_PROGRESS=always (a test run is shorter than the seconds before progress shows).
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
