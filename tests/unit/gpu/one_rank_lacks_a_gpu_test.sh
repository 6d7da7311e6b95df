#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# `scale --device cuda` under two ranks where only rank 1 lacks a GPU of its own (a stand-in module gives rank 0 two
# GPUs and rank 1 one, for two ranks on the node): every rank must refuse together, exit 2, with one message that
# names rank 1, before any world size runs; also when rank 1 has no GPU at all. It used to hang: rank 1 alone refused and waited in MPI_Finalize while
# rank 0 waited for it in the next collective (issue 49, defect 2). The timeout turns such a hang into a failure.
set -u
bin=${PF_BIN:?PF_BIN: the preflight binary}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
# refuse GPUS_BY_RANK MESSAGE: the job must end (no hang) with exit 2 and MESSAGE (a grep pattern), nothing run or
# written.
refuse() {
  rm -f out.json
  SECONDS=0
  PF_STANDIN_GPUS_BY_RANK=$1 PREFLIGHT_GPU_MODULE=${PF_STANDIN_MODULE:?} timeout -k 5 60 "$bin" scale --device cuda \
    --local-ranks 2 --ranks 1,2 --steps 2 --warmup 1 --json out.json >out.txt 2>&1
  rc=$?
  ((rc == 124 || rc == 137)) && { cat out.txt; echo "FAIL: $1: hung (killed after ${SECONDS} s)"; exit 1; }
  grep -q "asked to run world size" out.txt && { cat out.txt; echo "FAIL: $1: a world size ran"; exit 1; }
  ((rc == 2)) || { cat out.txt; echo "FAIL: $1: exit $rc, expected 2"; exit 1; }
  # Both ranks print it, but their stderr may interleave within a line: one whole copy is what can be asserted.
  grep -q -- "$2" out.txt || { cat out.txt; echo "FAIL: $1: the message does not name rank 1 and why"; exit 1; }
  [[ -e out.json ]] && { echo "FAIL: $1: a report was written"; exit 1; }
  echo "$1: refused in ${SECONDS} s: $(grep -m1 -o -- "$2" out.txt)"
}
# Rank 1 has a GPU, but not one of its own (two ranks, one GPU on its side).
refuse 2,1 "1 of 2 ranks cannot use a GPU; rank 1: 2 ranks on .* share 1 GPU(s)"
# Rank 1 has none: it must not refuse alone before MPI starts either (mpirun would kill the job with its own words).
refuse 2,0 "1 of 2 ranks cannot use a GPU; rank 1: no CUDA device: none is usable on .* (stand-in: rank 1 sees none)"
echo PASS
