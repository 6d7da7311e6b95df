#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Integration cases for `preflight sweep` and the CLI with real MPI ranks on this machine. Each case exits 0 when the
# behaviour is right and prints what differed otherwise. Usage: sweep_case.sh CASE [ARGS...]
# Environment: PF_BIN (preflight), PF_FAULTY (preflight_faulty), PF_SCHEMA, PF_VALIDATE, PF_PYTHON.
set -uo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
MPIRUN=(mpirun --oversubscribe --mca mpi_yield_when_idle 1)
[[ $(id -u) -eq 0 ]] && MPIRUN+=(--allow-run-as-root)

fail() { echo "FAIL: $*"; exit 1; }
validate() { "$PF_PYTHON" "$PF_VALIDATE" "$PF_SCHEMA" "$@" || fail "schema/formula validation of $1"; }

case "$1" in
  matrix)  # matrix NP COLLECTIVE: every type and op, every size, both placements, exact check
    np=$2 coll=$3
    timeout 240 "${MPIRUN[@]}" -np "$np" "$PF_BIN" sweep "$coll" -d all -o all -b 8 -e 64K -f 8 -n 2 -w 1 -r $((np - 1)) \
      --json "$work/r.json" > "$work/out.txt" 2> "$work/err.txt"
    rc=$?
    [[ $rc -eq 0 ]] || { cat "$work/err.txt"; fail "exit code $rc"; }
    grep -q "^# Out of bounds values : 0 OK$" "$work/out.txt" || fail "no '0 OK' footer"
    validate "$work/r.json" --expect-wrong-zero --expect-formulas
    ;;
  planted)  # a backend that corrupts one element: reported wrong, exit 1
    timeout 60 "${MPIRUN[@]}" -np 2 "$PF_FAULTY" sweep all_reduce --backend mpi-corrupt -b 8 -e 1K -f 4 \
      --json "$work/r.json" > "$work/out.txt" 2>&1
    rc=$?
    [[ $rc -eq 1 ]] || { cat "$work/out.txt"; fail "exit code $rc, expected 1"; }
    grep -q "Out of bounds values : 8 FAILED" "$work/out.txt" || { cat "$work/out.txt"; fail "no FAILED footer"; }
    validate "$work/r.json"
    grep -q '"verdict": "fail"' "$work/r.json" || fail "verdict is not fail"
    ;;
  local-ranks)  # no launcher: --local-ranks starts the ranks itself
    timeout 60 "$PF_BIN" sweep all_gather --local-ranks 3 -b 1K -e 4K --json "$work/r.json" > /dev/null || fail "exit $?"
    validate "$work/r.json" --expect-wrong-zero --expect-formulas
    "$PF_PYTHON" -c "import json,sys; d=json.load(open('$work/r.json')); sys.exit(d['context']['world_size']!=3)" \
      || fail "world_size is not 3"
    # No -w given: nccl-tests' default of 5 warm-up iterations (issue 15, defect 8: it used to be 1).
    "$PF_PYTHON" -c "import json,sys; d=json.load(open('$work/r.json')); sys.exit(d['results'][0]['params']['warmup_iters']!=5)" \
      || fail "the default warm-up is not 5 iterations"
    # No NUL in any string (the MPI library version once ended in \u0000).
    ! grep -q 'u0000' "$work/r.json" || fail "a string of the document holds a NUL: $(grep -m1 'u0000' "$work/r.json")"
    # The command line the document saved reruns the run: --local-ranks is in it, so the rerun has 3 ranks too.
    mapfile -d '' argv < <("$PF_PYTHON" -c "import json,sys
d = json.load(open(sys.argv[1]))['context']['argv']
d[d.index('--json') + 1] = sys.argv[2]
sys.stdout.write(''.join(x + chr(0) for x in d))" "$work/r.json" "$work/again.json")
    [[ " ${argv[*]} " == *" --local-ranks 3 "* ]] || fail "the saved command line lacks --local-ranks 3: ${argv[*]}"
    timeout 60 "${argv[@]}" > /dev/null || fail "the saved command line exited $?: ${argv[*]}"
    "$PF_PYTHON" -c "import json,sys; d=json.load(open('$work/again.json')); sys.exit(d['context']['world_size']!=3)" \
      || fail "the rerun of the saved command line did not have 3 ranks"
    ;;
  mismatch)  # a launcher says 4 ranks, MPI sees 1: the nccl-tests "all ranks say Rank 0" mistake
    out=$(PMI_RANK=0 PMI_SIZE=4 timeout 30 "$PF_BIN" sweep all_reduce -b 8 -e 8 2>&1)
    rc=$?
    [[ $rc -eq 2 ]] || { echo "$out"; fail "exit code $rc, expected 2"; }
    grep -q "started 4 ranks but mpi sees a world of 1" <<< "$out" || { echo "$out"; fail "message"; }
    ;;
  usage)  # usage CODE-EXPECTED SUBSTRING ARGS...: bad input exits 2 with a message naming what to change
    want=$2 text=$3
    shift 3
    out=$(cd "$work" && timeout 30 "$PF_BIN" "$@" 2>&1)
    rc=$?
    [[ $rc -eq $want ]] || { echo "$out"; fail "exit code $rc, expected $want"; }
    grep -qF -- "$text" <<< "$out" || { echo "$out"; fail "message lacks '$text'"; }
    [[ -z $(ls -A "$work") ]] || fail "left files behind: $(ls -A "$work")"
    ;;
  nccl)  # the NCCL backend on this machine's GPUs, every collective and type; skipped without a GPU
    # Skipped only on a node without a GPU (no /dev/nvidia<N>); where there is one, CUDA failing fails the case.
    if ! compgen -G "/dev/nvidia[0-9]*" > /dev/null; then
      echo "SKIP: no NVIDIA GPU on this node (no /dev/nvidia<N> device node)"
      exit 77
    fi
    for coll in all_reduce all_gather reduce_scatter broadcast reduce alltoall sendrecv; do
      timeout 120 "$PF_BIN" sweep "$coll" --backend nccl -d all -o all -b 8 -e 1M -f 16 -n 5 \
        --json "$work/$coll.json" > "$work/$coll.txt" 2>&1 || { cat "$work/$coll.txt"; fail "$coll exit $?"; }
      validate "$work/$coll.json" --expect-wrong-zero --expect-formulas
    done
    ;;
  nccl-json)  # -J: nccl-tests' JSON layout beside our document; imported back, the rows are the same
    timeout 120 "$PF_BIN" sweep all_reduce --local-ranks 2 -b 8 -e 64K -f 8 -n 5 -J "$work/ar.nccl.json" \
      --json "$work/r.json" > /dev/null 2> "$work/err.txt" || { cat "$work/err.txt"; fail "exit $?"; }
    "$PF_BIN" report "$work/ar.nccl.json" --format json --output "$work/back.json" || fail "report exit $?"
    validate "$work/back.json"
    "$PF_PYTHON" - "$work/r.json" "$work/back.json" "$work/ar.nccl.json" <<'PY' || fail "rows differ after the round trip"
import json, sys
ours, back, raw = (json.load(open(p)) for p in sys.argv[1:])
assert raw["version"] == 3 and raw["results"][0]["root"] == "    -1", raw["results"][0]
assert set(raw["results"][0]) >= {"size", "count", "type", "redop", "out_of_place", "in_place", "out_of_place_per_iter"}
a, b = ours["results"][0]["rows"], back["results"][0]["rows"]
assert len(a) == len(b) > 0, (len(a), len(b))
for x, y in zip(a, b):
    for k in ("size_bytes", "count", "dtype", "op", "root", "placement", "time_us", "algbw_gbps", "busbw_gbps",
              "wrong", "iter_min_us", "iter_p50_us", "iter_p99_us", "iter_max_us"):
        assert x[k] == y[k], (k, x[k], y[k])
assert back["context"]["tool"] == "nccl-tests" and back["context"]["world_size"] == 2
PY
    ;;
  *) fail "unknown case $1" ;;
esac
echo "PASS"
