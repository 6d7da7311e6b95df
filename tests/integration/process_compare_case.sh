#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# bench/run_sweep_vs_bare_process.sh end to end, with so few calls that it takes seconds: with the A/A control it
# leaves a complete set (meta.json, and for each of the 2 runs a time per size from the bare program, its second
# copy and both sweeps), which bench/sweep_vs_bare_stats.py reads back into a table of the 6 sizes; a KEEP
# directory that already holds files is refused with exit 2 and left as it was. What it times is not asserted
# here: that is the benchmark's question (docs/performance.md).
# Usage: process_compare_case.sh   (env: BUILD_DIR, the build tree with bin/preflight and bench/pf_bare_allreduce)
set -u
src=$(cd "$(dirname "$0")/../.." && pwd)
script=$src/bench/run_sweep_vs_bare_process.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
out=$(ITERS_SMALL=20 ITERS_LARGE=2 CONTROL=1 KEEP="$work/set" timeout 240 bash "$script" 2 2>&1) ||
  fail "the script failed: $out"
echo "$out"
grep -q "2 alternated runs" <<<"$out" || fail "no table header for 2 runs"
rows=$(grep -cE '^ +[0-9]+ +[0-9.]+ +[0-9.]+ ' <<<"$out")
((rows == 6)) || fail "$rows size rows, not 6"
grep -q "bare/bare" <<<"$out" || fail "CONTROL=1 without the A/A column"
for f in meta.json bare.0 bare.1 bare.a0 bare.a1 sweep-s.0.json sweep-s.1.json sweep-l.0.json sweep-l.1.json; do
  [[ -s $work/set/$f ]] || fail "the set lacks $f"
done
for f in bare.0 bare.1 bare.a0 bare.a1; do
  n=$(wc -l <"$work/set/$f")
  ((n == 6)) || fail "$f has $n lines, not one per size (6)"
done
again=$(python3 "$src/bench/sweep_vs_bare_stats.py" "$work/set") || fail "the kept set does not read back: $again"
[[ $again == "$(grep -A7 '^# preflight sweep' <<<"$out")" ]] || fail "the kept set reads back differently"
mkdir "$work/busy" && touch "$work/busy/x"
bad=$(KEEP="$work/busy" bash "$script" 1 2>&1)
rc=$?
if ! { ((rc == 2)) && grep -q "give a new or empty directory" <<<"$bad"; }; then
  fail "a non-empty KEEP (exit $rc): $bad"
fi
[[ $(ls "$work/busy") == x ]] || fail "the refused KEEP directory was changed"
echo PASS
