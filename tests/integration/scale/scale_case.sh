#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scale_case.sh run            : 2 local ranks, sizes 1 and 2; the document must show equal parameters,
#                                an efficiency per row and the 1-rank efficiency of exactly 1 +- spread.
# scale_case.sh pytorch        : --framework pytorch, sizes 1 and 2 under torchrun with a tiny model: the same
#                                row fields as the native trainer; exit 77 (skip) when no python has torch.
# scale_case.sh nics SWEEP PROBE : the model from an intra-node sweep and a probe document's NICs (no inter-node
#                                sweep): predictions across nodes are marked lower bounds, the NICs are recorded.
# scale_case.sh in_switch SWEEP PROBE : PROBE made to show NVLS and CollNet on its node: they join the model,
#                                marked in_switch.
# scale_case.sh usage MSG ARGS : bad input must exit 2 and print MSG, and write no document.
set -u
mode=$1; shift
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
case $mode in
  run)
    "$PF_BIN" scale --local-ranks 2 --ranks 1,2 --reps 2 --steps 4 --json "$out/s.json" >"$out/log" 2>&1
    rc=$?
    [ $rc -eq 0 ] || { cat "$out/log"; echo "FAIL: exit $rc"; exit 1; }
    "$PF_PYTHON" "$PF_VALIDATE" "$PF_SCHEMA" "$out/s.json" || { echo "FAIL: schema"; exit 1; }
    "$PF_PYTHON" - "$out/s.json" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
assert r["kind"] == "scale", r["kind"]
rows = r["rows"]
assert [x["ranks"] for x in rows] == [1, 2], rows
for x in rows:
    assert x["ranks_identical"] and x["equal_to_single_rank"], x
    assert x["max_param_diff_vs_single_rank"] <= 1e-4
    assert 0 < x["efficiency"]["median"] <= 1.5
assert rows[1]["comm_us"] > 0 and rows[0]["comm_us"] == 0
print("PASS")
PY
    ;;
  nics)
    "$PF_BIN" scale --local-ranks 2 --ranks 1,2 --reps 2 --steps 4 --from "$1" --nics "$2" --predict 1x2,4x8 \
      --json "$out/s.json" >"$out/log" 2>&1
    rc=$?
    [ $rc -le 1 ] || { cat "$out/log"; echo "FAIL: exit $rc"; exit 1; }
    "$PF_PYTHON" "$PF_VALIDATE" "$PF_SCHEMA" "$out/s.json" || { echo "FAIL: schema"; exit 1; }
    grep -q "a lower bound (network at the NICs' line rate)" "$out/log" || { cat "$out/log"; echo "FAIL: text"; exit 1; }
    "$PF_PYTHON" - "$out/s.json" <<'PY' || exit 1
import json, sys
m = json.load(open(sys.argv[1]))["results"][0]["metrics"]
model = m["model"]
assert model["inter_node"]["from_line_rate"] is True, model["inter_node"]
assert model["nics"]["gbit_total"] == 3800 and len(model["nics"]["names"]) == 10, model["nics"]
assert abs(model["inter_node"]["large"]["beta_us_per_byte"] - 1 / (3800 * 125)) < 1e-15
p = {x["allocation"]: x for x in m["predictions"]}
assert p["1x2"]["lower_bound"] is False and p["4x8"]["lower_bound"] is True, p
# A captured tree cannot ask the driver for multicast, and its nccl probe loaded no plugin: neither is modelled.
s = model["in_switch"]
assert s["nvls"] is False and "no GPU answered the multicast query" in s["nvls_evidence"], s
assert s["collnet"] is False and s["measured"] is False, s
assert not any(b["in_switch"] for x in m["predictions"] for b in x["buckets"]), m["predictions"]
print("PASS")
PY
    ;;
  in_switch)
    # The same probe document as a live HGX node would give it: every GPU with NVSwitch multicast, SHARP's
    # plugin loaded and NCCL_COLLNET_ENABLE=1. NVLS inside a node and NVLS_TREE/CollNet across nodes join the
    # candidates, marked in_switch, and the message says they are modelled.
    "$PF_PYTHON" - "$2" "$out/probe.json" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
for r in d["results"]:
    if r["key"] == "probe.gpu":
        for row in r["rows"]:
            row["multicast_supported"] = True
    if r["key"] == "probe.nccl":
        r["params"]["collnet_plugin"] = "ncclCollNetPlugin_v8"
        r["params"]["settings"]["NCCL_COLLNET_ENABLE"] = "1"
json.dump(d, open(sys.argv[2], "w"))
PY
    "$PF_BIN" scale --local-ranks 2 --ranks 1,2 --reps 2 --steps 4 --from "$1" --nics "$out/probe.json" \
      --predict 1x8,4x8 --json "$out/s.json" >"$out/log" 2>&1
    rc=$?
    [ $rc -le 1 ] || { cat "$out/log"; echo "FAIL: exit $rc"; exit 1; }
    "$PF_PYTHON" "$PF_VALIDATE" "$PF_SCHEMA" "$out/s.json" || { echo "FAIL: schema"; exit 1; }
    grep -q "NVLS/CollNet, whose costs are modelled" "$out/log" || { cat "$out/log"; echo "FAIL: text"; exit 1; }
    grep -q "(1x8).*; nvls modelled, not measured" "$out/log" || { cat "$out/log"; echo "FAIL: row text"; exit 1; }
    "$PF_PYTHON" - "$out/s.json" <<'PY' || exit 1
import json, sys
m = json.load(open(sys.argv[1]))["results"][0]["metrics"]
s = m["model"]["in_switch"]
assert s["nvls"] and s["collnet"], s
assert s["nvls_evidence"] == "8 GPUs with NVSwitch multicast on each of 1 node(s)", s
p = {x["allocation"]: x for x in m["predictions"]}
one = {b["algorithm"] for b in p["1x8"]["buckets"]}
assert one == {"nvls"}, one
four = {b["algorithm"] for b in p["4x8"]["buckets"]}
assert four <= {"nvls_tree", "collnet", "ring", "tree"} and four & {"nvls_tree", "collnet"}, four
assert all(b["in_switch"] == (b["algorithm"] in ("nvls", "nvls_tree", "collnet"))
           for x in m["predictions"] for b in x["buckets"])
print("PASS")
PY
    ;;
  pytorch)
    if ! "$PF_PYTHON" -c 'import torch' 2>/dev/null && ! python3 -c 'import torch' 2>/dev/null; then
      echo "SKIP: no python imports torch (tried $PF_PYTHON and python3); apt-get install python3-torch"
      exit 77
    fi
    "$PF_BIN" scale --framework pytorch --ranks 1,2 --reps 2 --steps 4 --warmup 1 --input 32 --width 64 --depth 3 \
      --out-features 8 --json "$out/s.json" >"$out/log" 2>&1
    rc=$?
    [ $rc -eq 0 ] || { cat "$out/log"; echo "FAIL: exit $rc"; exit 1; }
    "$PF_PYTHON" "$PF_VALIDATE" "$PF_SCHEMA" "$out/s.json" || { echo "FAIL: schema"; exit 1; }
    "$PF_PYTHON" - "$out/s.json" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
r = d["results"][0]
assert r["kind"] == "scale" and r["params"]["framework"] == "pytorch", r["params"]
rows = r["rows"]
assert [x["ranks"] for x in rows] == [1, 2], rows
for x in rows:
    assert x["framework"] == "pytorch" and x["global_batch"] == 32 * x["ranks"], x
    assert x["ranks_identical"] and x["equal_to_single_rank"], x
    assert 0 < x["step_us_p50"] <= x["step_us_p90"], x
    assert x["throughput_sps"]["median"] > 0 and len(x["throughput_reps_sps"]) == 2, x
    assert 0 < x["efficiency"]["min"] <= x["efficiency"]["median"] <= x["efficiency"]["max"], x
assert rows[0]["efficiency"]["median"] == 1.0 or abs(rows[0]["efficiency"]["median"] - 1) < 1e-9
assert rows[1]["comm_us"] > 0 and rows[0]["comm_us"] == 0
print("PASS")
PY
    ;;
  usage)
    msg=$1; shift
    "$PF_BIN" scale "$@" --json "$out/s.json" >"$out/log" 2>&1
    rc=$?
    [ $rc -eq 2 ] || { cat "$out/log"; echo "FAIL: exit $rc, want 2"; exit 1; }
    grep -qF -- "$msg" "$out/log" || { cat "$out/log"; echo "FAIL: message lacks '$msg'"; exit 1; }
    [ ! -e "$out/s.json" ] || { echo "FAIL: partial document written"; exit 1; }
    echo PASS
    ;;
esac
