#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Port error counters through `preflight check --sysfs-root` on a captured tree (a copy of tests/fixtures/ib-ndr-8hca
# with counter files added). One rank: the pair phase has no pair to run, but the counters are read around it all the
# same. Quiet counters: exit 0 and the document says how many ports were read; mlx5_3's link_downed above zero: a
# warning naming the node's device and port (exit 0, exit 1 under --strict). Rises during the phase are covered by
# tests/unit/check/port_counters_test.cpp (the files change between the two readings there).
# Environment: PF_BIN, PF_FIXTURES, PF_PYTHON.
set -uo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

tree=$work/tree
cp -a "$PF_FIXTURES/ib-ndr-8hca" "$tree"
for port in "$tree"/sys/class/infiniband/*/ports/*; do
  mkdir -p "$port/counters"
  for c in symbol_error link_downed link_error_recovery port_rcv_errors port_xmit_discards; do
    echo 0 > "$port/counters/$c"
  done
done
ports=$(ls -d "$tree"/sys/class/infiniband/*/ports/* | wc -l)

run() {  # run ARGS...: leaves out.txt and r.json, returns the exit code
  timeout 60 "$PF_BIN" check --sysfs-root "$tree" --no-allreduce --json "$work/r.json" "$@" > "$work/out.txt" 2>&1
}
run; rc=$?
[[ $rc -eq 0 ]] || { cat "$work/out.txt"; fail "quiet counters: exit $rc, expected 0"; }
"$PF_PYTHON" - "$work/r.json" "$ports" <<'PYEOF' || fail "quiet counters: document"
import json, sys
d = json.load(open(sys.argv[1]))
s = d["context"]["extra"]["port_counters"]
assert s.startswith(f"{sys.argv[2]} RDMA port(s) on 1 node(s) read before and after the pair phase; no error counter rose"), s
assert not [r for r in d["results"] if r["key"].startswith("check.fabric")], "a finding on quiet counters"
PYEOF

echo 2 > "$tree/sys/class/infiniband/mlx5_3/ports/1/counters/link_downed"
run --strict; rc=$?
[[ $rc -eq 1 ]] || { cat "$work/out.txt"; fail "link_downed 2 under --strict: exit $rc, expected 1"; }
grep -qF "mlx5_3 port 1 went down 2 time(s) since its counters were last cleared" "$work/out.txt" ||
  { cat "$work/out.txt"; fail "no warning naming mlx5_3 port 1"; }
"$PF_PYTHON" - "$work/r.json" <<'PYEOF' || fail "link_downed: document"
import json, sys
d = json.load(open(sys.argv[1]))
f = [r for r in d["results"] if r["key"] == "check.fabric.link_downed_before"]
assert len(f) == 1 and f[0]["status"] == "warn" and "perfquery" in f[0]["remedy"], f
PYEOF
echo PASS
