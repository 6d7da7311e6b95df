#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Validates the two-level capacity model (scaling/fabric_model.hpp) across nodes of the simulated cluster
# (tests/cluster/cluster.sh): 4 network-namespace nodes x 2 ranks, shared memory inside a node, TCP between nodes
# through links slowed with tbf so that the two levels really differ.
#   1. sweep all_reduce within node 0 (1 x 2) and across nodes 0-1 (2 x 2): the two levels' fits;
#   2. predict 2x2, 3x2 and 4x2 from a run on 1 x 2 alone, at the measured rate and at a quarter of it
#      (--inter-bw-factor 0.25), before either is measured;
#   3. measure 1..4 nodes x 2 ranks at the rate, then slow every link 4x and measure again;
#   4. print predicted (band) against measured step time for each allocation.
# Open MPI's all-reduce is pinned to its ring (coll_tuned_allreduce_algorithm 4): otherwise its tuned module
# switches algorithm with the rank count and message size, which no model of the fabric can know.
# Usage: bench/scale_across_nodes.sh [RATE_MBIT=200] [OUT_DIR]   (root; about 5 minutes on 2 cores)
set -euo pipefail
cd "$(dirname "$0")/.."
rate=${1:-200}
out=${2:-$(mktemp -d /tmp/pf-scale-nodes.XXXXXX)}
mkdir -p "$out"
bin=$PWD/${BUILD_DIR:-build}/bin/preflight
[[ -x $bin ]] || { echo "build first: bash ci/build.sh ($bin missing)"; exit 2; }
source tests/cluster/cluster.sh
pf_cluster_require
export PF_PPN=2 PF_BTL=vader,tcp,self PF_MPIRUN_TIMEOUT=400
pin=(--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_allreduce_algorithm 4)
# A model with ~0.66 M parameters (2.7 MB of gradients, one bucket) and a small batch: communication dominates
# the step at these rates, so 8 ranks sharing 2 cores stretch compute much less than the network moves the step.
train=(--input 256 --width 512 --depth 4 --out-features 16 --batch 4 --steps 10 --warmup 2 --reps 3)
sweep=(sweep all_reduce -b 1K -e 4M -f 4 -n 10 -w 2)
say() { echo "[$(date -u +%T)] $*"; }

pf_cluster_up 4
for i in 0 1 2 3; do pf_cluster_slow "$i" "${rate}mbit"; done
say "4 nodes x 2 ranks, every node's link at ${rate} Mbit/s; output in $out"

say "sweep within one node (1x2) and across two (2x2)"
PF_CLUSTER_NODES=1 pf_cluster_mpirun "${pin[@]}" "$bin" "${sweep[@]}" --json "$out/intra.json" >"$out/intra.txt"
PF_CLUSTER_NODES=2 pf_cluster_mpirun "${pin[@]}" "$bin" "${sweep[@]}" --json "$out/inter.json" >"$out/inter.txt"

say "predictions from 1x2 alone, before measuring: at the rate, and with links 4x slower"
for f in 1 0.25; do
  PF_CLUSTER_NODES=1 pf_cluster_mpirun "${pin[@]}" "$bin" scale --ranks 2 "${train[@]}" \
    --from "$out/intra.json,$out/inter.json" --predict 2x2,3x2,4x2 --inter-bw-factor "$f" \
    --json "$out/predict-$f.json" >"$out/predict-$f.txt" || [[ $? -eq 1 ]]
done

say "measure 1..4 nodes x 2 ranks at ${rate} Mbit/s"
pf_cluster_mpirun "${pin[@]}" "$bin" scale --ranks 2,4,6,8 "${train[@]}" --from "$out/intra.json,$out/inter.json" \
  --json "$out/measured-1.json" >"$out/measured-1.txt" || true
slow=$((rate / 4))
for i in 0 1 2 3; do pf_cluster_slow "$i" "${slow}mbit"; done
say "measure again with every link at ${slow} Mbit/s"
pf_cluster_mpirun "${pin[@]}" "$bin" scale --ranks 2,4,6,8 "${train[@]}" --from "$out/intra.json,$out/inter.json" \
  --inter-bw-factor 0.25 --json "$out/measured-0.25.json" >"$out/measured-0.25.txt" || true

/usr/bin/python3 - "$out" "$rate" <<'PY'
import json, sys
out, rate = sys.argv[1], int(sys.argv[2])
def result(path):
    return json.load(open(path))["results"][0]
model = result(f"{out}/predict-1.json")["metrics"]["model"]
for level in ("intra_node", "inter_node"):
    l = model[level]["large"]
    print(f"# {level}: alpha {l['alpha_us']:.1f} us, {1 / l['beta_us_per_byte']:.0f} MB/s per ring hop "
          f"(fit error {100 * l['max_rel_error']:.1f}%), from {model[level]['ranks']} ranks on {model[level]['nodes']} node(s)")
print(f"{'links':>10} {'alloc':>6} {'predicted step (ms)':>26} {'measured (ms)':>14} {'error':>7} {'in band':>8} {'bottleneck':>11}")
worst = {}
for f, label in (("1", f"{rate}Mbit"), ("0.25", f"{rate // 4}Mbit")):
    pred = {p["allocation"]: p for p in result(f"{out}/predict-{f}.json")["metrics"]["predictions"]}
    rows = {f"{r['nodes']}x{r['ranks'] // r['nodes']}": r for r in result(f"{out}/measured-{f}.json")["rows"]}
    for alloc in ("2x2", "3x2", "4x2"):
        p, m = pred[alloc], rows[alloc]["step_us_p50"]
        err = (p["step_us"] - m) / m
        inside = p["step_us_low"] <= m <= p["step_us_high"]
        worst[f] = max(worst.get(f, 0), abs(err))
        print(f"{label:>10} {alloc:>6} {p['step_us'] / 1e3:>9.1f} [{p['step_us_low'] / 1e3:6.1f}, {p['step_us_high'] / 1e3:6.1f}]"
              f" {m / 1e3:>14.1f} {100 * err:>+6.1f}% {'yes' if inside else 'NO':>8} {p['bottleneck']:>11}")
print(f"# largest error: {100 * worst['1']:.1f}% at the measured rate, {100 * worst['0.25']:.1f}% with links 4x slower")
PY
