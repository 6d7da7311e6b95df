#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `preflight plan` end to end: exit codes and messages for bad input, the profile-only plan's "bounds" headline,
# the JSON document (validated against docs/result-schema.json), the HTML and Markdown pages, a Tree sweep
# across nodes refused (or replaced by the NICs' ring with a profile), the calibration from a scale document,
# and humanly formatted numbers. usage: plan_cli_test.sh PREFLIGHT SOURCE_DIR WORK_DIR
set -uo pipefail
pf=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
py=/usr/bin/python3
golden=$src/tests/golden/documents
bad=$src/tests/unit/scaling/workloads

# Bad input: exit 2, the file, the key and what to write.
"$pf" plan --workload "$bad/bad_gradient_bytes.toml" --profile azure-nd-h100-v5 >out.txt 2>err.txt
[ $? -eq 2 ] || fail "a bad workload should exit 2"
grep -q "bad_gradient_bytes.toml: gradient_bytes: must be 2 (bf16/fp16) or 4 (fp32)" err.txt || fail "message: $(cat err.txt)"
"$pf" plan --profile azure-nd-h100-v5 >out.txt 2>err.txt
[ $? -eq 2 ] && grep -q -- "--workload" err.txt || fail "no workload should exit 2 naming --workload"
"$pf" plan --workload llama3-8b >out.txt 2>err.txt
[ $? -eq 2 ] && grep -q -- "--profile" err.txt || fail "no fabric should exit 2"
"$pf" plan --workload llama3-8b --profile auto >out.txt 2>err.txt
[ $? -eq 2 ] && grep -q -- "--profile auto: each node picks its profile" err.txt || fail "profile auto should exit 2"
"$pf" plan --workload nosuchmodel --profile azure-nd-h100-v5 >out.txt 2>err.txt
[ $? -eq 2 ] && grep -q "llama3-8b" err.txt || fail "an unknown preset should exit 2 naming the presets"
"$pf" plan --workload llama3-8b --profile dgx-h100 >out.txt 2>err.txt  # dgx-h100 states no port rate
[ $? -eq 0 ] || fail "dgx-h100 has NVLink but no NIC rate: a single-level plan, not an error ($(cat err.txt))"
grep -q "single-level fabric" out.txt || fail "a plan without an inter-node level says so"

# From a profile alone: bounds, in the headline.
"$pf" plan --workload llama3-8b --profile azure-nd-h100-v5 --nodes 1,2,4,8,16,64 --sizes 1M,1G --json plan.json \
  >out.txt 2>err.txt || fail "profile plan exited $? ($(cat err.txt))"
head -3 out.txt | grep -q "Caveat: bounds, not measurements" || fail "the caveat comes first: $(head -3 out.txt)"
grep -q "^bounds: llama3-8b (fsdp" out.txt || fail "the headline says bounds: $(cat out.txt)"
! grep -E "[0-9]{6}" out.txt || fail "numbers are humanly formatted"
$py "$src/tests/tools/validate_json.py" "$src/docs/result-schema.json" plan.json >/dev/null || fail "plan.json is not valid"
$py - plan.json <<'PY' || fail "plan.json content"
import json, sys
r = json.load(open(sys.argv[1]))["results"][0]
assert r["kind"] == "plan" and len(r["rows"]) == 6, r["kind"]
assert all(row["bound"] for row in r["rows"]), "profile-only rows are bounds"
assert r["params"]["workload"]["parallelism"] == "fsdp"
assert [c["collective"] for c in r["rows"][1]["collectives"]] == ["all_gather", "all_gather", "reduce_scatter"]
assert len(r["metrics"]["sizes"]) == 12 and r["metrics"]["nodes_at_target"] is not None
# A bucket cap that gains a fraction of a percent is no advice (the README's example once recommended one).
m = r["metrics"]
assert m["best_cap_gain"] < m["min_cap_gain"] and m["recommend_cap"] is None, (m["best_cap_gain"], m["recommend_cap"])
PY
grep -q "No change recommended" out.txt || fail "a cap gaining under 2% is not recommended: $(grep -i recommend out.txt)"
for fmt in html md; do
  "$pf" plan --workload llama3-8b --profile azure-nd-h100-v5 --nodes 1,2,4 --format $fmt --output plan.$fmt \
    >/dev/null 2>err.txt || fail "--format $fmt exited $?"
  grep -q "Capacity plan" plan.$fmt && grep -q "bounds" plan.$fmt || fail "plan.$fmt lacks the plan or its bounds"
done

# A 2-node sweep pinned to Tree is not read as a ring.
$py - "$golden/sweep.json" tree2.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["context"]["node_count"] = 2
d["context"]["world_size"] = 4
d["context"]["extra"]["backend"]["backend"] = "nccl"
d["context"]["extra"]["nccl_settings"] = {"NCCL_ALGO": "Tree"}
json.dump(d, open(sys.argv[2], "w"))
PY
"$pf" plan --workload llama3-8b --from "$golden/sweep.json,tree2.json" --gpus-per-node 2 --nodes 1,2,4 \
  >out.txt 2>err.txt
[ $? -eq 2 ] && grep -q "NCCL_ALGO=Ring" err.txt || fail "a Tree sweep without NIC rates should exit 2: $(cat err.txt)"
"$pf" plan --workload llama3-8b --from "$golden/sweep.json,tree2.json" --profile azure-nd-h100-v5 \
  --gpus-per-node 2 --nodes 1,2,4 >out.txt 2>err.txt || fail "Tree sweep + profile exited $?"
grep -q "Caveat: algorithm: the inter-node sweep tree2.json reflects tree" out.txt || fail "no algorithm caveat"

# Calibrated from a scale run (the scale run's own model), measured beside predicted.
"$pf" plan --calibrate "$golden/scale.json" --from "$golden/sweep.json" --gpus-per-node 2 --nodes 1,2 \
  >out.txt 2>err.txt || fail "calibrate exited $? ($(cat err.txt))"
grep -q "Measured (preflight scale) beside predicted" out.txt || fail "no measured table"
"$pf" plan --calibrate "$golden/scale.json" --workload llama3-8b --from "$golden/sweep.json" >out.txt 2>err.txt
[ $? -eq 2 ] && grep -q "calibrate with a scale run of the same model" err.txt || fail "another model should exit 2"
echo PASS
