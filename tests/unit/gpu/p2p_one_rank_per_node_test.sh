#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# `mpirun -np 3 preflight probe --only p2p` on one node with a (stand-in) GPU module of two GPUs: only local rank 0
# may run the copy measurements (issue 15, defect 8: every rank measured at once, so each saw the others'
# traffic); the other ranks say who measures.
set -u
bin=${PF_BIN:?PF_BIN: the preflight binary}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# `preflight` asks the module only where the driver's libcuda.so.1 loads; any shared object by that name stands in.
mkdir "$work/driver" && cp "${PF_STANDIN_MODULE:?}" "$work/driver/libcuda.so.1"
MPIRUN=(mpirun --oversubscribe --mca mpi_yield_when_idle 1 -x PREFLIGHT_GPU_MODULE="$PF_STANDIN_MODULE"
  -x PF_STANDIN_P2P_LOG="$work/calls" -x LD_LIBRARY_PATH="$work/driver${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
[[ $(id -u) -eq 0 ]] && MPIRUN+=(--allow-run-as-root)
timeout 120 "${MPIRUN[@]}" -np 3 "$bin" probe --only p2p --json "$work/r.json" >"$work/out.txt" 2>&1
rc=$?
[[ -s $work/r.json ]] || { cat "$work/out.txt"; echo "FAIL: no document (exit $rc)"; exit 1; }
calls=$(sort "$work/calls" 2>/dev/null | uniq -c | tr -s ' ' | tr '\n' ',')
[[ $calls == " 2 measure=0, 1 measure=1," ]] || { cat "$work/out.txt"; echo "FAIL: measureP2p calls: $calls"; exit 1; }
py() { python3 -c "import json; d=json.load(open('$work/r.json')); print($1)"; }
others=$(py "sorted(r['rank'] for r in d['results'] if r['key']=='probe.p2p' and 'local rank 0 measures' in r['params']['method'])")
[[ $others == "[1, 2]" ]] || { cat "$work/out.txt"; echo "FAIL: ranks that say local rank 0 measures: $others"; exit 1; }
echo "PASS: one measuring rank of 3 ($calls)"
