#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Built-in node profiles and the newer profile keys through the CLI (CMD = probe | check), on the captured trees:
# --list-profiles (text, JSON), --profile NAME (a file of that name wins; an unknown name exits 2 listing the
# built-ins), --profile auto on azure-ndv4, aws-p4d-efa and ib-ndr-8hca (none fits: a warning, nothing judged),
# and [placement] on ib-ndr-8hca: passes as captured, fails naming the GPU when its NIC moves off its NUMA node or
# its PCIe switch. Usage: profile_builtin_case.sh CMD. Environment: PF_BIN, PF_FIXTURES, PF_PYTHON,
# PF_PROFILE_SCHEMA.
set -uo pipefail
cmd=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

judge() {  # judge TREE PROFILE: runs CMD, leaves out.txt, r.json and the exit code in rc
  local extra=()
  [[ $cmd == check ]] && extra=(--no-pairs --no-allreduce)
  (cd "$work" && timeout 60 "$PF_BIN" "$cmd" --sysfs-root "$1" --profile "$2" "${extra[@]}" --json "$work/r.json" \
    > "$work/out.txt" 2>&1)
  rc=$?
}
has() { for t in "$@"; do grep -qF -- "$t" "$work/out.txt" || { cat "$work/out.txt"; fail "no '$t'"; }; done; }
profile_status() {  # profile_status WANT: the probe.profile result's status
  "$PF_PYTHON" -c "
import json, sys; d = json.load(open('$work/r.json'))
r = [r for r in d['results'] if r['key'] == 'probe.profile']
assert len(r) == 1 and r[0]['status'] == sys.argv[1], r" "$1" || fail "probe.profile is not $1"
}

if [[ $cmd == probe ]]; then
  timeout 30 "$PF_BIN" probe --list-profiles > "$work/out.txt" 2>&1 || fail "list-profiles: exit $?"
  has "azure-nd-h100-v5" "aws-p5en.48xlarge" "gcp-a3-ultragpu-8g" "dgx-h200" \
    "source: [nhc] Azure/azurehpc-health-checks conf/nd96isr_h100_v5.conf"
  timeout 30 "$PF_BIN" probe --list-profiles --json - > "$work/list.json" 2>&1 || fail "list-profiles --json: exit $?"
  "$PF_PYTHON" -c "
import json; d = json.load(open('$work/list.json'))
assert len(d) == 11 and all(p['sources'] and p['description'] for p in d), d
assert {p['name'] for p in d} >= {'azure-nd-a100-v4', 'aws-p4d.24xlarge', 'gcp-a3-megagpu-8g', 'dgx-h100'}" \
    || fail "list-profiles JSON"
  # Every built-in matches the JSON Schema (the same files the binary embeds).
  "$PF_PYTHON" - "$PF_PROFILE_SCHEMA" "$PF_FIXTURES"/../../probes/profile/builtin/*.toml <<'PY' \
    || fail "a built-in profile does not match the schema"
import json, sys, tomllib, jsonschema
schema = json.load(open(sys.argv[1]))
assert len(sys.argv) == 13, sys.argv
for f in sys.argv[2:]:
    jsonschema.validate(tomllib.load(open(f, "rb")), schema)
PY
fi

# A built-in by name; the p4d tree has no InfiniBand, so Azure's profile fails it naming the devices.
judge "$PF_FIXTURES/azure-ndv4" azure-nd-a100-v4
profile_status pass
judge "$PF_FIXTURES/aws-p4d-efa" azure-nd-a100-v4
[[ $rc -eq 1 ]] || { cat "$work/out.txt"; fail "p4d under the Azure profile: exit $rc"; }
has "InfiniBand devices (ib): count 0 (none), the profile wants at least 8"
# An unknown name: exit 2 with the built-ins listed. A file of that name in the working directory wins.
judge "$PF_FIXTURES/azure-ndv4" dgx-h1000
[[ $rc -eq 2 ]] || { cat "$work/out.txt"; fail "unknown name: exit $rc"; }
has "'dgx-h1000' is neither a file nor a built-in profile" "aws-p4d.24xlarge, aws-p5.48xlarge"
printf '[gpu]\ncount = 9\n' > "$work/dgx-h100"
judge "$PF_FIXTURES/azure-ndv4" dgx-h100
[[ $rc -eq 1 ]] || { cat "$work/out.txt"; fail "a file named like a built-in: exit $rc"; }
has "GPUs: count 8, the profile wants at least 9"

# auto: each tree picks its SKU and says why; the DGX-like tree without DMI gets none, judged on nothing.
judge "$PF_FIXTURES/azure-ndv4" auto
profile_status pass
has "--profile auto picked azure-nd-a100-v4: a Hyper-V VMBus, 8 GPUs"
judge "$PF_FIXTURES/aws-p4d-efa" auto
profile_status pass
has "--profile auto picked aws-p4d.24xlarge: DMI sys_vendor 'Amazon EC2', DMI product_name 'p4d.24xlarge'"
judge "$PF_FIXTURES/ib-ndr-8hca" auto
profile_status warn
has "no built-in profile fits: DMI '?' / '?', GPUs: 8 x NVIDIA H100 80GB HBM3"

# GPU-NIC placement: as captured every GPU has an NDR HCA on its NUMA node and below its switch.
printf '[placement]\ngpu_nic_numa = true\ngpu_nic_pcie_switch = true\n' > "$work/place.toml"
judge "$PF_FIXTURES/ib-ndr-8hca" "$work/place.toml"
profile_status pass
cp -a "$PF_FIXTURES/ib-ndr-8hca" "$work/m"
echo 3 > "$work/m/sys/bus/pci/devices/0000:1a:00.0/numa_node"  # the GPU's NUMA node holds no NIC
judge "$work/m" "$work/place.toml"
[[ $rc -eq 1 ]] || { cat "$work/out.txt"; fail "numa: exit $rc"; }
has "GPU 0000:1a:00.0: NIC on its NUMA node none; the NICs are mlx5_0 (NUMA 0)" \
  "the profile wants an RDMA NIC on NUMA node 3" "BIOS NUMA settings"
rm -rf "$work/m"; cp -a "$PF_FIXTURES/ib-ndr-8hca" "$work/m"
rm "$work/m/sys/class/infiniband/mlx5_0"  # the NIC below GPU 0000:1a:00.0's switch is gone
judge "$work/m" "$work/place.toml"
[[ $rc -eq 1 ]] || { cat "$work/out.txt"; fail "switch: exit $rc"; }
has "GPU 0000:1a:00.0: NIC on its PCIe switch none below its switch 0000:18:00.0; the NICs are mlx5_1" \
  "nvidia-smi topo -m"
grep -qF "GPU 0000:2c:00.0: NIC on its PCIe switch" "$work/out.txt" && fail "a GPU with its NIC was named"

# [expect] under check: the declared figures are what the pair and all-reduce phases are held to, and the document
# records them, with auto as with the name it picks; derive = true with a figure is refused.
if [[ $cmd == check ]]; then
  printf '[expect]\npair_busbw_gbs = 12.5\nallreduce_busbw_gbs = 20\n' > "$work/expect.toml"
  judge "$PF_FIXTURES/azure-ndv4" "$work/expect.toml"
  "$PF_PYTHON" -c "
import json; t = json.load(open('$work/r.json'))['context']['extra']['thresholds']
assert t['profile_pair_busbw_gbs'] == 12.5 and t['profile_allreduce_busbw_gbs'] == 20, t" \
    || { cat "$work/out.txt"; fail "expect not in the thresholds"; }
  # auto holds the measured phases to what the profile it picks declares, as that profile by name does.
  judge "$PF_FIXTURES/azure-ndv4" azure-nd-a100-v4
  cp "$work/r.json" "$work/byname.json"
  judge "$PF_FIXTURES/azure-ndv4" auto
  "$PF_PYTHON" -c "
import json; t = [json.load(open(f))['context']['extra']['thresholds'] for f in ('$work/byname.json', '$work/r.json')]
assert t[0] == t[1], t" || { cat "$work/out.txt"; fail "auto and the name it picks hold the check to different limits"; }
  printf '[expect]\nderive = true\npair_busbw_gbs = 12.5\n' > "$work/expect.toml"
  judge "$PF_FIXTURES/azure-ndv4" "$work/expect.toml"
  [[ $rc -eq 2 ]] || { cat "$work/out.txt"; fail "derive with a figure: exit $rc"; }
  has "expect.derive: derive = true excludes allreduce_busbw_gbs and pair_busbw_gbs"
fi
echo PASS
