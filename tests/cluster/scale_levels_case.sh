#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Copyright (c) 2026 The Preflight authors
#
# The two-level capacity model on the simulated cluster (issue 18): 3 nodes x 2 ranks, shared memory inside a
# node, TCP between nodes through links slowed to 400 Mbit/s. Sweeps within node0 and across node0-node1 give the
# two levels; `preflight scale --ranks 2,4,6` on all three nodes predicts 2x2 and 3x2 from 1x2, and 8x4 beyond.
# Asserts what the model must say whatever the machine's load (the accuracy is measured by
# bench/scale_across_nodes.sh, not here): two levels with their sources, each row's node count, allocations
# across nodes bound by the inter-node level, a band around every prediction, a schema-valid document.
# Environment (from CMake): PF_BIN, PF_PYTHON, PF_SCHEMA, PF_VALIDATE.
source "$(dirname "$0")/cluster.sh"
PY=${PF_PYTHON:-python3}
fail() { echo "FAIL: $*"; exit 1; }

pf_cluster_require
WORK=$(mktemp -d /tmp/pf-levels.XXXXXX)
trap 'pf_cluster_down; rm -rf "$WORK"' EXIT
pf_cluster_up 3 || fail "could not create the cluster"
trap 'pf_cluster_down; rm -rf "$WORK"' EXIT   # pf_cluster_up installs its own; keep the work dir's removal too
for i in 0 1 2; do pf_cluster_slow "$i" 400mbit || fail "tc tbf on node$i"; done
export PF_PPN=2 PF_BTL=vader,tcp,self
pin=(--mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_allreduce_algorithm 4)
sweep=(sweep all_reduce -b 64K -e 1M -f 4 -n 3 -w 1)
PF_CLUSTER_NODES=1 pf_cluster_mpirun "${pin[@]}" "$PF_BIN" "${sweep[@]}" --json "$WORK/intra.json" >/dev/null ||
  fail "sweep within node0"
PF_CLUSTER_NODES=2 pf_cluster_mpirun "${pin[@]}" "$PF_BIN" "${sweep[@]}" --json "$WORK/inter.json" >/dev/null ||
  fail "sweep across node0-node1"
pf_cluster_mpirun "${pin[@]}" "$PF_BIN" scale --ranks 2,4,6 --input 64 --width 256 --depth 3 --batch 4 --steps 3 \
  --warmup 1 --reps 2 --from "$WORK/intra.json,$WORK/inter.json" --predict 3x2,8x4 --json "$WORK/scale.json" \
  >"$WORK/scale.txt" || fail "scale on 3 nodes (exit $?): $(tail -3 "$WORK/scale.txt")"
cat "$WORK/scale.txt"
if [ -n "${PF_VALIDATE:-}" ]; then "$PY" "$PF_VALIDATE" "$PF_SCHEMA" "$WORK/scale.json" || fail "schema"; fi
"$PY" - "$WORK/scale.json" <<'PYEOF' || fail "the document (above)"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
m = r["metrics"]
model = m["model"]
assert model["levels"] == 2, model
assert model["intra_node"]["nodes"] == 1 and model["intra_node"]["ranks"] == 2, model["intra_node"]
assert model["inter_node"]["nodes"] == 2 and model["inter_node"]["ranks"] == 4, model["inter_node"]
assert [row["nodes"] for row in r["rows"]] == [1, 2, 3], [row["nodes"] for row in r["rows"]]
val = {v["allocation"]: v for v in m["validation"]}
assert set(val) == {"2x2", "3x2"}, list(val)
preds = {p["allocation"]: p for p in m["predictions"]}
assert set(preds) == {"3x2", "8x4"}, list(preds)
for name, p in list(val.items()) + list(preds.items()):
    low, mid, high = (p.get("predicted_step_us_low", p.get("step_us_low")), p.get("predicted_step_us", p.get("step_us")),
                      p.get("predicted_step_us_high", p.get("step_us_high")))
    assert 0 < low <= mid <= high, (name, low, mid, high)
    assert p["bottleneck"] == "inter-node", (name, p["bottleneck"])
assert preds["8x4"]["nodes"] == 8 and preds["8x4"]["ranks"] == 32
assert all(b["level"] == "inter-node" for b in preds["8x4"]["buckets"]), preds["8x4"]["buckets"]
assert m["buckets"]["allocation"] == "8x4", m["buckets"]
print("errors:", {k: round(v["relative_error"], 3) for k, v in val.items()})
PYEOF
echo "PASS: two levels fitted; 2x2 and 3x2 predicted from 1x2 with a band, bound by the inter-node level"
