#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# nccl-tests' own analyser (tests/third_party/nccl-tests/analyze_perf_json.py, unmodified) on a fresh
# `preflight sweep -I 1 -J` file: it must run to the end (exit 0) and print its tables from our numbers.
# Usage: nccl_tools_case.sh PREFLIGHT PYTHON SOURCE_DIR
set -uo pipefail
pf=$1 py=$2 src=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

timeout 120 "$pf" sweep all_reduce --local-ranks 2 -b 8 -e 64K -f 4 -I 1 -J "$work/out.json" > /dev/null \
  2> "$work/err.txt" || { cat "$work/err.txt"; fail "sweep exit $?"; }
for placement in "" --in-place; do
  "$py" "$src/tests/third_party/nccl-tests/analyze_perf_json.py" "$work/out.json" --all $placement \
    > "$work/an.txt" 2>&1 || { cat "$work/an.txt"; fail "analyze_perf_json.py $placement exit $?"; }
  "$py" - "$work/out.json" "$work/an.txt" "$placement" <<'PY' || { cat "$work/an.txt"; fail "analyser output $placement"; }
import json, statistics, sys
data, text, placement = json.load(open(sys.argv[1])), open(sys.argv[2]).read().splitlines(), sys.argv[3]
key, label = ("in_place_per_iter", "IP") if placement else ("out_of_place_per_iter", "OOP")
assert "PER-ITERATION STATS (%s)" % label in text, "no stats table"
assert "Consistency (times_us == max over process rows, %s): PASS" % label in text, "times_us != max of ranks"
assert "PER-PROCESS STRAGGLER ANALYSIS (%s)" % label in text, "no straggler analysis"
assert "ITERATION 0 WARMUP IMPACT (RAW, %s)" % label in text, "no iteration-0 table"
# The stats table: one line per size, in order, whose avg/min/max/p99/cv are the file's own numbers.
start = text.index("PER-ITERATION STATS (%s)" % label) + 4
rows = []
for line in text[start:]:
    if not line.strip():
        break
    rows.append(line.split())
sizes = [8, 32, 128, 512, 2048, 8192, 32768]
assert [int(r[0]) for r in rows] == sizes, rows
for r, res in zip(rows, data["results"]):
    pi = res[key]
    t = pi["times_us"]
    assert len(t) == data["config"]["iterations"] == 20, len(t)
    assert len(pi["per_process_max_times_us"]) == 2
    assert abs(pi["avg_us"] - sum(t) / len(t)) < 1e-6 * pi["avg_us"], (pi["avg_us"], t)
    assert abs(pi["stdev_us"] - statistics.pstdev(t)) < 1e-6 * max(pi["stdev_us"], 1e-9)
    assert pi["min_us"] == min(t) and pi["max_us"] == max(t) and pi["min_us"] > 0
    assert r[1] == "%.1f" % pi["avg_us"] and r[2] == "%.1f" % pi["min_us"] and r[3] == "%.1f" % pi["max_us"], r
    assert r[5] == "%.1f%%" % pi["cv_pct"], r
PY
done
echo "PASS"
