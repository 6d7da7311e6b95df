#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs the sweep-vs-bare peer benchmark and prints, per size, the median time per all-reduce of a bare
# MPI_Allreduce loop and of the sweep harness, and their ratio.
# Usage: bench/run_sweep_vs_bare.sh [NP=2] [REPETITIONS=9] [extra mpirun args...]
set -euo pipefail
cd "$(dirname "$0")/.."
np=${1:-2}
reps=${2:-9}
shift $(( $# > 2 ? 2 : $# ))
bin=${BUILD_DIR:-build}/bench/pf_sweep_vs_bare
[[ -x $bin ]] || { echo "build first: bash ci/build.sh ($bin missing)"; exit 2; }
out=$(mktemp --suffix=.json)
trap 'rm -f "$out"' EXIT
root=(); [[ $(id -u) -eq 0 ]] && root=(--allow-run-as-root)
mpirun "${root[@]}" --oversubscribe --mca mpi_yield_when_idle 1 -np "$np" "$@" "$bin" \
  --benchmark_repetitions="$reps" --benchmark_report_aggregates_only=true \
  --benchmark_out="$out" --benchmark_out_format=json > /dev/null
/usr/bin/python3 - "$out" "$np" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
print(f"# sweep harness vs bare MPI_Allreduce (float sum), {sys.argv[2]} ranks, medians of "
      f"{doc['benchmarks'][0].get('repetitions', '?')} side-by-side repetitions")
print(f"{'size (B)':>10} {'ops/block':>9} {'bare (us)':>11} {'harness (us)':>13} {'ratio':>7}")
for b in doc["benchmarks"]:
    if b.get("aggregate_name") != "median":
        continue
    size = int(b["run_name"].split("/")[1])
    print(f"{size:>10} {int(b['ops']):>9} {b['bare_us']:>11.2f} {b['harness_us']:>13.2f} {b['ratio']:>7.3f}")
PY
