#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# `scale --device cuda` under two ranks where only rank 1 lacks a GPU of its own (a stand-in module gives rank 0 two
# GPUs and rank 1 one, for two ranks on the node): every rank must refuse together, exit 2, with one message that
# names rank 1, before any world size runs. It used to hang: rank 1 alone refused and waited in MPI_Finalize while
# rank 0 waited for it in the next collective (issue 49, defect 2). The timeout turns such a hang into a failure.
set -u
bin=${PF_BIN:?PF_BIN: the preflight binary}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
SECONDS=0
PF_STANDIN_GPUS_BY_RANK=2,1 PREFLIGHT_GPU_MODULE=${PF_STANDIN_MODULE:?} timeout -k 5 60 "$bin" scale --device cuda \
  --local-ranks 2 --ranks 1,2 --steps 2 --warmup 1 --json out.json >out.txt 2>&1
rc=$?
((rc == 124 || rc == 137)) && { cat out.txt; echo "FAIL: hung (killed after ${SECONDS} s)"; exit 1; }
grep -q "asked to run world size" out.txt && { cat out.txt; echo "FAIL: a world size ran"; exit 1; }
((rc == 2)) || { cat out.txt; echo "FAIL: exit $rc, expected 2"; exit 1; }
msg="1 of 2 ranks cannot use a GPU; rank 1: 2 ranks on .* share 1 GPU(s)"
(($(grep -c -- "$msg" out.txt) == 2)) || { cat out.txt; echo "FAIL: not both ranks refused with the message"; exit 1; }
[[ -e out.json ]] && { echo "FAIL: a report was written"; exit 1; }
echo "PASS: in ${SECONDS} s: $(grep -m1 -- "$msg" out.txt)"
