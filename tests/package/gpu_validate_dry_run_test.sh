#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# The dry run of `ci/gpu_validate.sh run` (issue 49, item 3) with stand-ins for every GPU program
# (gpu_validate_standin.sh: a bundle of them, nvidia-smi, mpirun, compute-sanitizer), budgets shortened through
# the environment. Two planted stalls (a GPU test and a 2-rank mpirun step) must each cost only their own limit; the
# run must end inside its budget and leave ONE archive, beside the report, that holds the report, every step's output
# and the document of every step that wrote one. A second run with a budget that the first stall spends must
# report the remaining steps "not run: budget" and still end in time with its archive. Usage: SCRIPT SOURCE_DIR
set -u
src=${1:?the source tree}
standin=$src/tests/package/gpu_validate_standin.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# A bundle laid out as `pack` makes it, its programs the stand-in.
b=$work/stage/bundle
mkdir -p "$b/root/usr/bin" "$b/build/bin" "$b/build/lib/preflight" "$work/bin"
for p in bin/preflight lib/preflight/preflight-gpu.so tests/unit/probes/probes_gpu_live_test \
  tests/unit/scaling/pf_scaling_cuda_test tests/unit/collectives/pf_nccl_calls_test \
  tests/unit/check/pf_nccl_pair_engine_test; do
  mkdir -p "$b/build/$(dirname "$p")" && cp "$standin" "$b/build/$p"
done
echo standin >"$b/commit"
tar -C "$work/stage" -czf "$work/bundle.tar.gz" bundle || fail "cannot make the bundle"
for p in nvidia-smi mpirun compute-sanitizer; do cp "$standin" "$work/bin/$p"; done

# dry_run OUT BUDGET LIMIT_MAX STALLS: runs the script, prints its wall time in seconds.
dry_run() {
  local start=$SECONDS
  mkdir -p "$1"
  REPORT_DIR=$1 OUT=$1 GPU_VALIDATE_STANDIN=$work/bin GPU_VALIDATE_BUDGET=$2 GPU_VALIDATE_LIMIT_MAX=$3 \
    GPU_VALIDATE_STANDIN_STALL=$4 GPU_VALIDATE_STANDIN_FAIL=reduce-1 \
    timeout 120 bash "$src/ci/gpu_validate.sh" run "$work/bundle.tar.gz" >"$1.log" 2>&1
  echo "$? $((SECONDS - start))"
}

read -r rc took < <(dry_run "$work/out1" 60 4 test-pf_scaling_cuda_test,alltoall-2)
((rc == 1)) || { cat "$work/out1.log"; fail "run 1: exit $rc, expected 1 (planted failures)"; }
((took <= 60)) || fail "run 1 took $took s, over its 60 s budget"
mapfile -t files < <(cd "$work/out1" && ls)
((${#files[@]} == 2)) || fail "run 1 left ${#files[@]} files, expected the archive and the report: ${files[*]}"
archive=$(ls "$work"/out1/*.tar.gz) || fail "run 1 left no archive"
mkdir "$work/x" && tar -C "$work/x" -xzf "$archive" || fail "the archive does not unpack"
r=$(ls -d "$work"/x/*) && rep=$r/REPORT.md
[[ -f $rep ]] || fail "no REPORT.md in the archive"
cmp -s "$rep" "$work"/out1/*.md || fail "the report beside the archive differs from the archived one"
for s in test-pf_scaling_cuda_test alltoall-2; do
  grep -q "step $s hangs" "$r/$s/output.txt" || fail "no output kept for the stalled step $s"
done
(($(grep -c "FAILED: stopped at its limit (4 s)" "$rep") == 2)) || fail "not both stalls stopped at their limit"
grep -q "FAILED: exit 1" "$rep" || fail "the planted failure is not reported"
grep -q "not run: budget" "$rep" && fail "run 1 skipped a step, though its budget was not spent"
n=0
for s in test-probes_gpu_live_test test-pf_nccl_calls_test test-pf_nccl_pair_engine_test sanitizer-trainer \
  sanitizer-copies; do
  grep -q "\"step\": \"$s\"" "$r/$s/tests.json" || fail "no test document for $s"
  n=$((n + 1))
done
for s in mpi-sweep all_reduce-1 all_gather-1 reduce_scatter-1 broadcast-1 reduce-1 alltoall-1 sendrecv-1 \
  all_reduce-2 sendrecv-2; do
  grep -q "\"step\": \"$s\"" "$r/$s/sweep.json" || fail "no sweep document for $s"
  n=$((n + 1))
done
for f in scale-1/scale.json scale-torch/scale.json scale-2/scale.json probe/probe.json; do
  grep -q "\"step\": \"${f%%/*}\"" "$r/$f" || fail "no document $f"
  n=$((n + 1))
done
grep -q -- "--only gpu,p2p" "$rep" || fail "the probe step does not run only the gpu and p2p probes"
grep -q -- "--report-api-errors no" "$rep" || fail "the trainer's sanitizer reports NCCL's API errors"
echo "run 1: $took s of a 60 s budget, 2 stalls stopped at 4 s, $n documents in one archive"

read -r rc took < <(dry_run "$work/out2" 20 8 mpi-sweep)
((took <= 20)) || fail "run 2 took $took s, over its 20 s budget"
[[ -f $(ls "$work"/out2/*.tar.gz) ]] || fail "run 2 left no archive"
skipped=$(grep -c "not run: budget" "$work"/out2/*.md)
((skipped >= 20)) || { cat "$work"/out2/*.md; fail "run 2 reported $skipped steps not run, expected the rest"; }
echo "PASS: run 2: $took s of a 20 s budget, $skipped steps not run: budget"
