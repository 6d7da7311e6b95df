#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scale_case.sh run            : 2 local ranks, sizes 1 and 2; the document must show equal parameters,
#                                an efficiency per row and the 1-rank efficiency of exactly 1 +- spread.
# scale_case.sh usage MSG ARGS : bad input must exit 2 and print MSG, and write no document.
set -u
mode=$1; shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
case $mode in
  run)
    "$PF_BIN" scale --local-ranks 2 --ranks 1,2 --reps 2 --steps 4 --json "$out/s.json" >"$out/log" 2>&1
    rc=$?
    [ $rc -eq 0 ] || { cat "$out/log"; echo "FAIL: exit $rc"; exit 1; }
    "$PF_PYTHON" "$PF_VALIDATE" "$PF_SCHEMA" "$out/s.json" || { echo "FAIL: schema"; exit 1; }
    "$PF_PYTHON" - "$out/s.json" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
assert r["kind"] == "scale", r["kind"]
rows = r["rows"]
assert [x["ranks"] for x in rows] == [1, 2], rows
for x in rows:
    assert x["ranks_identical"] and x["equal_to_single_rank"], x
    assert x["max_param_diff_vs_single_rank"] <= 1e-4
    assert 0 < x["efficiency"]["median"] <= 1.5
assert rows[1]["comm_us"] > 0 and rows[0]["comm_us"] == 0
print("PASS")
PY
    ;;
  usage)
    msg=$1; shift
    "$PF_BIN" scale "$@" --json "$out/s.json" >"$out/log" 2>&1
    rc=$?
    [ $rc -eq 2 ] || { cat "$out/log"; echo "FAIL: exit $rc, want 2"; exit 1; }
    grep -qF -- "$msg" "$out/log" || { cat "$out/log"; echo "FAIL: message lacks '$msg'"; exit 1; }
    [ ! -e "$out/s.json" ] || { echo "FAIL: partial document written"; exit 1; }
    echo PASS
    ;;
esac
