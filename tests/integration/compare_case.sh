#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `preflight compare` on real runs of this machine:
#   healthy  two runs of the same sweep, one after the other        -> exit 0, nothing flagged
#   planted  the first run against a copy with one bandwidth-bound size 20% slower (both halves, every
#            timing field, busbw and algbw scaled as nccl-tests' formulas say)   -> exit 1, that size named
#   html/md  the comparison renders as HTML and as Markdown with its charts beside it
# Both with the default --threshold (5%). On this VM a size of one healthy run is now and then 80-170% slower
# than in the other: one-pass sweeps flagged 3 of 30 healthy pairs on a quiet machine and 5 of 12 beside a
# compiler, three-pass sweeps (-N 3) 1 of those 12 (docs/reports.md). As the docs tell users, the runs are
# recorded with -N 3 and a flagged comparison is measured again: a new pair of runs, up to three pairs.
# Usage: compare_case.sh   (env: PF_BIN)
set -u
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
sweep() { timeout 240 "$PF_BIN" sweep all_reduce --local-ranks 2 -b 8 -e 1M -f 2 -n 50 -N 3 --json "$1" > /dev/null; }
for attempt in 1 2 3; do
  sweep "$work/a.json" || fail "first sweep failed"
  sweep "$work/b.json" || fail "second sweep failed"
  timeout 60 "$PF_BIN" compare "$work/a.json" "$work/b.json" > "$work/healthy.txt"
  rc=$?
  grep -E '^(pass|fail|warn)' "$work/healthy.txt"
  ((rc == 0)) && break
  grep REGRESSED "$work/healthy.txt"
  echo "pair $attempt flagged (exit $rc): measuring a new pair"
done
# Under the sanitizers (ci/sanitize.sh sets PF_SANITIZER_STAGE) the timing half is not this stage's question:
# instrumented code on a busy CI machine is what it measures, and the normal stage asserts it on the same
# commit. There a flagged healthy pair (exit 1, a regression; any other code still fails) is reported and the
# rest (planted, HTML, Markdown) still asserted.
if ((rc != 0)); then
  [[ -n ${PF_SANITIZER_STAGE:-} && $rc -eq 1 ]] || fail "three pairs of healthy runs were each flagged (last exit $rc)"
  echo "NOTE: three healthy pairs flagged under the sanitizers (exit $rc); the timing check is the normal stage's"
fi

# The second largest size: bandwidth-bound on any machine.
planted=$(python3 "$(dirname "$0")/../tools/plant_regression.py" "$work/a.json" "$work/planted.json" 1.25 -2)
timeout 60 "$PF_BIN" compare "$work/a.json" "$work/planted.json" > "$work/planted.txt"
rc=$?
[[ $rc -eq 1 ]] || { cat "$work/planted.txt"; fail "a planted 20% regression at $planted B gave exit $rc, not 1"; }
flagged=$(grep -c REGRESSED "$work/planted.txt")
[[ $flagged -eq 1 ]] || { cat "$work/planted.txt"; fail "expected exactly the planted size flagged, got $flagged"; }
grep REGRESSED "$work/planted.txt"

timeout 60 "$PF_BIN" compare "$work/a.json" "$work/b.json" "$work/planted.json" --format html \
  --output "$work/cmp.html" > /dev/null
[[ $? -eq 1 && -s "$work/cmp.html" ]] || fail "no HTML comparison"
grep -q 'id="compare.sweep.all_reduce.busbw"' "$work/cmp.html" || fail "the HTML has no overlay chart"
mkdir -p "$work/md"
timeout 60 "$PF_BIN" compare "$work/a.json" "$work/planted.json" --format md --output "$work/md/cmp.md" > /dev/null
[[ -s "$work/md/cmp.md" && -s "$work/md/cmp-compare.sweep.all_reduce.busbw.svg" ]] || fail "no Markdown with charts"
grep -q '(cmp-compare.sweep.all_reduce.busbw.svg)' "$work/md/cmp.md" || fail "the Markdown does not link its chart"
echo "PASS: healthy runs exit 0 (pair $attempt), the planted regression at $planted B exits 1, HTML and Markdown written"
