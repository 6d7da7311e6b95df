#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `preflight compare` from the command line on small made-up sweep documents (exact values, no measurement):
#   worst     256 B +78% within the 2 us slack and 2 MiB busbw -76%: exit 1, the summary's worst is 2 MiB
#   ranks     a 2-rank run against a 4-rank one: the first line is the warning, nothing REGRESSED, exit 0
#   backend   mpi against nccl: exit 2, the message names both files, nothing written
#   outdir    --format md --output DIR/SUB/cmp.md makes the missing folders
# Usage: compare_setup_case.sh   (env: PF_BIN)
set -u
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# doc FILE RANKS BACKEND TIME_256B TIME_2MIB: an all-reduce sweep with two out-of-place rows (busbw = size/time)
doc() {
  python3 - "$@" << 'PY'
import json, sys
path, ranks, backend, t256, t2m = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
rows = [{"collective": "all_reduce", "size_bytes": s, "count": s // 4, "dtype": "float", "op": "sum", "root": -1,
         "placement": "out", "time_us": t, "algbw_gbps": s / t / 1e3, "busbw_gbps": s / t / 1e3, "wrong": 0}
        for s, t in ((256, t256), (2 << 20, t2m))]
json.dump({"schema_version": 2,
           "context": {"command": "sweep", "world_size": ranks, "node_count": 1},
           "results": [{"key": "sweep.all_reduce", "kind": "sweep", "status": "pass",
                        "params": {"collective": "all_reduce", "ranks": ranks, "backend": backend}, "rows": rows}]},
          open(path, "w"))
PY
}
doc "$work/base.json" 2 mpi 1.0 100
doc "$work/worse.json" 2 mpi 1.78 416.6666666666667
doc "$work/four.json" 4 mpi 1.0 1176
doc "$work/nccl.json" 2 nccl 1.0 100

timeout 30 "$PF_BIN" compare "$work/base.json" "$work/worse.json" > "$work/worst.txt" 2>&1
rc=$?
[[ $rc -eq 1 ]] || { cat "$work/worst.txt"; fail "worst: exit $rc, not 1"; }
grep -q 'worst regression: float sum 2 MiB busbw_gbps 20.97 -> 5.033 (-76.0%)' "$work/worst.txt" ||
  { cat "$work/worst.txt"; fail "worst: the summary does not name 2 MiB as the worst regression"; }
grep -q 'within 2 us' "$work/worst.txt" || { cat "$work/worst.txt"; fail "worst: 256 B is not shown within the slack"; }

timeout 30 "$PF_BIN" compare "$work/base.json" "$work/four.json" > "$work/ranks.txt" 2>&1
rc=$?
[[ $rc -eq 0 ]] || { cat "$work/ranks.txt"; fail "ranks: exit $rc, not 0 (a warning)"; }
head -1 "$work/ranks.txt" | grep -q '^warn .*compare.setup .*world size 2 ranks vs 4 ranks' ||
  { cat "$work/ranks.txt"; fail "ranks: the first line is not the world-size warning"; }
! grep -q REGRESSED "$work/ranks.txt" || { cat "$work/ranks.txt"; fail "ranks: a row of another world size is called a regression"; }
timeout 30 "$PF_BIN" compare "$work/base.json" "$work/four.json" --strict > /dev/null 2>&1
[[ $? -eq 1 ]] || fail "ranks: --strict does not fail the warning"

timeout 30 "$PF_BIN" compare "$work/base.json" "$work/nccl.json" --json "$work/refused.json" > "$work/backend.txt" 2>&1
rc=$?
[[ $rc -eq 2 ]] || { cat "$work/backend.txt"; fail "backend: exit $rc, not 2"; }
grep -q "cannot compare base.json with nccl.json: backend (base.json has mpi, nccl.json has nccl)" "$work/backend.txt" ||
  { cat "$work/backend.txt"; fail "backend: the message does not name both files"; }
[[ ! -e "$work/refused.json" ]] || fail "backend: a document was written for a refused comparison"

timeout 30 "$PF_BIN" compare "$work/base.json" "$work/worse.json" --format md --output "$work/cmp/sub/report.md" \
  > "$work/md.txt" 2>&1
rc=$?
[[ $rc -eq 1 && -s "$work/cmp/sub/report.md" ]] || { cat "$work/md.txt"; fail "outdir: exit $rc, report.md not written"; }
echo "PASS: worst is the flagged 2 MiB, world sizes warned first and not judged, backends refused, folders made"
