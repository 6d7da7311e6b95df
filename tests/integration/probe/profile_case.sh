#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Node profiles on a captured tree (tests/fixtures/ib-ndr-8hca, 8 GPUs and 12 RDMA devices), through
# `preflight probe` or `preflight check` (CMD = probe | check). The fixture carries two degraded parts on purpose
# (GPU 0000:bc:00.0 at PCIe x8, mlx5_7 at 2X); a copy with those repaired is the known-good node: its emitted
# profile passes it (with [placement]: every GPU has its HCA on its NUMA node and PCIe switch), and each mutation
# (a GPU's PCI device gone, an HCA gone, a port at 1X, a GPU at x8, a port down) fails the node naming the part. Usage: profile_case.sh CMD. Environment: PF_BIN, PF_FIXTURES, PF_PYTHON,
# PF_PROFILE_SCHEMA.
set -uo pipefail
cmd=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

pristine=$work/pristine
cp -a "$PF_FIXTURES/ib-ndr-8hca" "$pristine"
echo 16 > "$pristine/sys/bus/pci/devices/0000:bc:00.0/current_link_width"
echo "400 Gb/sec (4X NDR)" > "$pristine/sys/class/infiniband/mlx5_7/ports/1/rate"

judge() {  # judge TREE PROFILE: runs CMD, leaves out.txt and r.json
  local extra=()
  [[ $cmd == check ]] && extra=(--no-pairs --no-allreduce)
  timeout 60 "$PF_BIN" "$cmd" --sysfs-root "$1" --profile "$2" "${extra[@]}" --json "$work/r.json" \
    > "$work/out.txt" 2>&1
}
expect_fail() {  # expect_fail NAME TREE TEXT...: exit 1 with each TEXT in the output
  local name=$1 tree=$2
  shift 2
  judge "$tree" "$work/node.toml"
  local rc=$?
  [[ $rc -eq 1 ]] || { cat "$work/out.txt"; fail "$name: exit $rc, expected 1"; }
  for t in "$@"; do grep -qF -- "$t" "$work/out.txt" || { cat "$work/out.txt"; fail "$name: no '$t'"; }; done
}
mutant() { rm -rf "$work/m"; cp -a "$pristine" "$work/m"; }

# Emit from the known-good copy; the profile matches the JSON Schema and names what the tree shows.
timeout 60 "$PF_BIN" probe --sysfs-root "$pristine" --emit-profile "$work/node.toml" > "$work/emit.txt" 2>&1 \
  || { cat "$work/emit.txt"; fail "emit: exit $?"; }
for line in 'count = 8' 'model = "NVIDIA H100 80GB HBM3"' 'rate_gbit = 400' 'width = "4X"' 'pcie_width = 16' \
  'driver_min = "535.161.08"' 'version_min = "2.19.3"' 'memlock = "unlimited"' 'gpu_nic_numa = true' \
  'gpu_nic_pcie_switch = true'; do
  grep -qF "$line" "$work/node.toml" || { cat "$work/node.toml"; fail "emitted profile lacks '$line'"; }
done
"$PF_PYTHON" - "$PF_PROFILE_SCHEMA" "$work/node.toml" <<'PY' || fail "emitted profile does not match the schema"
import json, sys, tomllib, jsonschema
jsonschema.validate(tomllib.load(open(sys.argv[2], "rb")), json.load(open(sys.argv[1])))
PY
# The fixture as captured names its own degraded parts against that profile.
expect_fail fixture "$PF_FIXTURES/ib-ndr-8hca" "GPU 0000:bc:00.0: PCIe width x8, the profile wants x16" \
  "mlx5_7 port 1: width 2X, the profile wants 4X"

judge "$pristine" "$work/node.toml" || { cat "$work/out.txt"; fail "pristine: exit $?"; }
"$PF_PYTHON" -c "
import json; d = json.load(open('$work/r.json'))
r = [r for r in d['results'] if r['key'] == 'probe.profile']
assert len(r) == 1 and r[0]['status'] == 'pass' and len(r[0]['rows']) > 40, r" || fail "pristine: no passing probe.profile"

mutant; rm "$work/m/sys/bus/pci/devices/0000:1a:00.0"
expect_fail gpu-gone "$work/m" "GPUs: count 7, the profile wants at least 8" "a GPU is missing"
mutant; rm -r "$work/m/sys/class/infiniband/mlx5_3"
expect_fail hca-gone "$work/m" "InfiniBand devices (ib): count 7 (mlx5_0, mlx5_1, mlx5_2, mlx5_4" \
  "an RDMA device is missing" "GPU 0000:5f:00.0: NIC on its PCIe switch none below its switch 0000:5d:00.0"
mutant; echo "100 Gb/sec (1X NDR)" > "$work/m/sys/class/infiniband/mlx5_3/ports/1/rate"
expect_fail port-1x "$work/m" "mlx5_3 port 1: width 1X, the profile wants 4X" \
  "mlx5_3 port 1: rate 100 Gb/s, the profile wants 400 Gb/s" "reseat or replace the cable"
mutant; echo 8 > "$work/m/sys/bus/pci/devices/0000:1a:00.0/current_link_width"
expect_fail gpu-x8 "$work/m" "GPU 0000:1a:00.0: PCIe width x8, the profile wants x16" "LnkSta"
mutant; echo "1: DOWN" > "$work/m/sys/class/infiniband/mlx5_10/ports/1/state"
expect_fail port-down "$work/m" "mlx5_10 port 1: state DOWN, the profile wants ACTIVE"

# A malformed profile: exit 2 naming the file, the key and what to change.
printf '[ib]\nwidth = "4"\n' > "$work/bad.toml"
judge "$pristine" "$work/bad.toml"
rc=$?
[[ $rc -eq 2 ]] || { cat "$work/out.txt"; fail "bad width: exit $rc, expected 2"; }
grep -qF "bad.toml: ib.width: '4' is not a link width; write \"1X\"" "$work/out.txt" || { cat "$work/out.txt"; fail "bad width message"; }
printf '[gpu]\ncout = 8\n' > "$work/bad.toml"
judge "$pristine" "$work/bad.toml"
[[ $? -eq 2 ]] && grep -qF "bad.toml: gpu.cout: unknown key; [gpu] takes count" "$work/out.txt" \
  || { cat "$work/out.txt"; fail "misspelt key"; }
echo PASS
