#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Copyright (c) 2026 The Preflight authors
#
# Writes tests/golden/documents/*.json from real runs of the commands on this machine, so that the golden
# outputs are those of documents the tools really produce. Run it again only when the result model changes,
# then regenerate the expected outputs (PF_GOLDEN_UPDATE=1 ctest -R Golden) and review the diff.
#   check, pairs  the simulated 4-node cluster (tests/cluster/cluster.sh, needs root) with node 2 slowed
#   sweep, scale  two local ranks (capacity: scale --from the sweep; compare: the sweep against a rerun); probe, env  captured trees and environments; doctor  a real NCCL error line
# sweep_v1.json is a document written by the version 1 writer (kept to prove old documents are still read).
# Usage: make_documents.sh BUILD_DIR
set -u  # not -e or pipefail: cluster.sh probes reachability with pipelines that may fail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
PF_BIN=$(cd "$1" && pwd)/bin/preflight
out="$here/documents"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"

"$PF_BIN" sweep all_reduce --local-ranks 2 -b 8 -e 64K -f 8 -n 5 --json "$out/sweep.json" >/dev/null || true
"$PF_BIN" probe --sysfs-root "$root/tests/fixtures/ib-ndr-8hca" \
  --env-file "$root/tests/fixtures/env/device-ib-ndr-8hca.env" --json "$out/probe.json" >/dev/null || true
"$PF_BIN" env --no-network --env-file "$root/tests/fixtures/env/ompi-node-rank-pitfall.env" \
  --json "$out/env.json" >/dev/null || true
printf '%s\n' "node1:1:1 [0] NCCL INFO Using network IB" \
  "node7:11:12 [0] misc/shmutils.cc:88 NCCL WARN Error: failed to extend /dev/shm/nccl-X to 9637892 bytes" \
  "node7:11:12 [0] NCCL WARN NET/Socket : no interface found" > job.log
"$PF_BIN" doctor job.log --json "$out/doctor.json" >/dev/null || true
"$PF_BIN" scale --local-ranks 2 --ranks 1,2 --reps 2 --steps 3 --warmup 1 --width 64 --depth 2 \
  --json "$out/scale.json" >/dev/null || true
# The capacity plan: the same scaling run with the model fitted to the sweep above, predicting larger sizes.
"$PF_BIN" scale --local-ranks 2 --ranks 1,2 --reps 2 --steps 3 --warmup 1 --width 64 --depth 2 \
  --from "$out/sweep.json" --predict 4 8 16 64 --json "$out/capacity.json" >/dev/null || true
# A capacity plan from inputs: a preset on a built-in profile (bounds), calibrated by the scaling run above.
"$PF_BIN" plan --workload llama3-8b --profile azure-nd-h100-v5 --nodes 1,2,4,8,16,64 --sizes 1M,256M \
  --json "$out/plan.json" >/dev/null || true
"$PF_BIN" plan --calibrate "$out/scale.json" --from "$out/sweep.json" --gpus-per-node 2 --nodes 1,2,4 \
  --json "$out/plan_calibrated.json" >/dev/null || true
# A comparison: the sweep above against a second run of it, made now.
"$PF_BIN" sweep all_reduce --local-ranks 2 -b 8 -e 64K -f 8 -n 5 --json "$tmp/sweep2.json" >/dev/null || true
"$PF_BIN" compare "$out/sweep.json" "$tmp/sweep2.json" --json "$out/compare.json" >/dev/null || true
# An imported nccl-tests run: the real 16-rank output among the importer's fixtures.
"$PF_BIN" report "$root/tests/fixtures/nccl-tests/ztan-a3mega-16ranks.txt" --format json \
  --output "$out/nccl_tests.json" >/dev/null || true

source "$root/tests/cluster/cluster.sh"
pf_cluster_require
pf_cluster_up 4
pf_cluster_slow 2 200mbit
pf_cluster_mpirun "$PF_BIN" check --quick --json "$out/check.json" >/dev/null || true
pf_cluster_mpirun "$PF_BIN" pairs --quick --json "$out/pairs.json" >/dev/null || true
pf_cluster_down
ls -la "$out"
