#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# `scale --device cuda` with two ranks on a node whose (stand-in) GPU module reports one GPU must stop with
# exit 2 and say so before any world size runs; it used to run the 1-rank size and then fail inside NCCL.
set -u
bin=${PF_BIN:?PF_BIN: the preflight binary}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
PREFLIGHT_GPU_MODULE=${PF_STANDIN_MODULE:?} timeout 120 "$bin" scale --device cuda --local-ranks 2 --ranks 1,2 \
  --steps 2 --warmup 1 --json out.json >out.txt 2>&1
rc=$?
grep -q "asked to run world size" out.txt && { cat out.txt; echo "FAIL: a world size ran"; exit 1; }
((rc == 2)) || { cat out.txt; echo "FAIL: exit $rc, expected 2"; exit 1; }
grep -q "2 ranks on .* share 1 GPU(s)" out.txt || { cat out.txt; echo "FAIL: the message does not say why"; exit 1; }
[[ -e out.json ]] && { echo "FAIL: a report was written"; exit 1; }
echo "PASS: $(grep -m1 'share 1 GPU' out.txt)"
