#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The equality proof of `preflight scale` (world_size_runner.cpp): a correct data-parallel run passes across a
# grid of model sizes and step counts, up to the configuration that failed a fixed 1e-4 tolerance (784-1024-
# 1024-16, batch 64, 100 steps: the ranks agree, the single-rank reference differs by ~5e-4, as much as the
# reference differs from itself summed in another order); one rank's gradient made wrong once fails, and the
# message names the check that failed with the measured difference and the bound.
# Usage: equality_case.sh   (env: PF_BIN)
set -u
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
scale() { timeout 240 "$PF_BIN" scale --local-ranks 2 --ranks 1,2 --reps 1 --warmup 1 "$@"; }
grid=(
  "--width 16 --depth 1 --batch 1 --steps 3"
  "--width 64 --depth 2 --batch 32 --steps 5"
  "--width 256 --depth 4 --batch 16 --steps 50 --optimizer adam"
  "--input 784 --width 1024 --depth 3 --batch 64 --steps 100"
)
for g in "${grid[@]}"; do
  # shellcheck disable=SC2086  # the grid entries are words
  scale $g > "$work/out.txt" 2>&1
  rc=$?
  [[ $rc -eq 0 ]] || { cat "$work/out.txt"; fail "a correct run failed ($g): exit $rc"; }
  echo "pass: $g"
done
scale --width 64 --depth 2 --batch 32 --steps 5 --plant-gradient-error 1 2 > "$work/planted.txt" 2>&1
rc=$?
[[ $rc -eq 1 ]] || { cat "$work/planted.txt"; fail "a planted gradient error gave exit $rc, not 1"; }
grep -q "differ from the single-rank reference by .*beyond the bound" "$work/planted.txt" ||
  { cat "$work/planted.txt"; fail "the message does not name the reference check and its figures"; }
grep -o "at 2 ranks the parameters differ.*" "$work/planted.txt" | head -1
echo "PASS: ${#grid[@]} correct configurations pass; the planted gradient error fails and is named"
