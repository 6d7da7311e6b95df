#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Copyright (c) 2026 The Preflight authors
#
# `preflight check` and `preflight pairs` on the simulated cluster (cluster.sh). One case per ctest test:
#   healthy          4 nodes, nothing slowed: check --quick exits 0, every pair passes; JSON/JUnit/Prometheus valid
#   slow             one random node slowed to 200 Mbit/s: exit 1 naming that node, its pairs, measured vs
#                    expected, a remedy; --baseline with the healthy run reports the regression
#   odd              3 nodes x 2 ranks: byes in every round, ranks grouped by host, exit 0
#   pairs_slow_link  `preflight pairs` with one node slowed (full mode), names the node
#   nccl_ifname      NCCL_SOCKET_IFNAME=nonexistent on one node: fails naming the node and the variable (needs
#                    the net probe; skips with the reason when this build has none)
#   quick_time       median of 5 `check --quick` runs on 4 nodes under 10 s
#   cleanup          a case that fails half-way still leaves no namespace, veth or bridge behind
#   check.rails      4 nodes x 4 rails (PF_RAILS): healthy, check --rails passes with 24 rows (PF_REPEAT times;
#                    PF_HOG_NODE=i: with busy loops in node i, as contention_case.sh hog_one);
#                    then one rail of one random node slowed: exit 1 naming that node and that rail's interface
# Environment (from CMake): PF_BIN, PF_SCHEMA, PF_VALIDATE, PF_PYTHON.
# Prints PASS at the end; any "FAIL:" line fails the test; exit 77 = skipped.
source "$(dirname "$0")/cluster.sh"
PY=${PF_PYTHON:-/usr/bin/python3}
OUTPUTS="$(dirname "$0")/validate_outputs.py"
fail() { echo "FAIL: $*"; exit 1; }

pf_cluster_require
WORK=$(mktemp -d /tmp/pf-cluster-case.XXXXXX)
cleanup_all() { pf_cluster_down; rm -rf "$WORK"; }
case_name=$1
shift

validate_all() {  # validate_all PREFIX: PREFIX.json, PREFIX.xml, PREFIX.prom
  "$PY" "$PF_VALIDATE" "$PF_SCHEMA" "$1.json" || fail "$1.json does not match the result schema"
  "$PY" "$OUTPUTS" junit "$1.xml" || fail "$1.xml is not valid JUnit XML"
  "$PY" "$OUTPUTS" prometheus "$1.prom" || fail "$1.prom breaks the Prometheus text format"
  if command -v promtool >/dev/null; then
    promtool check metrics <"$1.prom" || fail "promtool rejects $1.prom"
  fi
}

run_check() {  # run_check PREFIX ARGS...: writes PREFIX.{json,xml,prom,out}, returns the exit code
  local prefix=$1; shift
  pf_cluster_mpirun "$PF_BIN" check --json "$prefix.json" --junit "$prefix.xml" "$@" >"$prefix.out" 2>&1
  local rc=$?
  cat "$prefix.out"
  # The same document rendered offline must give the node_exporter textfile.
  [ -f "$prefix.json" ] && "$PF_BIN" report "$prefix.json" --format prometheus --output "$prefix.prom"
  return $rc
}

case "$case_name" in
  healthy)
    pf_cluster_up 4 || fail "cannot create the cluster"
    trap cleanup_all EXIT
    run_check "$WORK/h" --quick; rc=$?
    [ $rc = 0 ] || fail "healthy cluster: exit $rc, expected 0"
    validate_all "$WORK/h"
    "$PY" - "$WORK/h.json" <<'PYEOF' || fail "healthy document content"
import json, sys
d = json.load(open(sys.argv[1]))
pairs = [r for r in d["results"] if r["kind"] == "pairs"][0]
assert len(pairs["rows"]) == 6, f"{len(pairs['rows'])} pairs, expected 6"
# Within limits = no pair fails. A warning (below 75% of the majority) is allowed: the simulated nodes share this
# machine's two cores, so a pair measured while another process runs can lose a quarter of its bandwidth.
assert all(r["status"] in ("pass", "warn") for r in pairs["rows"]), [r["reason"] for r in pairs["rows"]]
assert {r["host_a"] for r in pairs["rows"]} | {r["host_b"] for r in pairs["rows"]} == {"node0", "node1", "node2", "node3"}
assert pairs["metrics"]["rounds"] == 3
assert [p["name"] for p in d["phases"]] == ["probes", "allreduce", "pairs", "verdict"], d["phases"]
ar = [r for r in d["results"] if r["key"] == "sweep.all_reduce"][0]
assert ar["status"] == "pass" and ar["metrics"]["wrong_total"] == 0
assert d["exit_code"] == 0
PYEOF
    grep -q 'preflight check: PASS' "$WORK/h.out" || fail "no PASS summary"
    grep -q 'preflight_pass{command="check"} 1' "$WORK/h.prom" || fail "prometheus: preflight_pass is not 1"
    ;;
  slow)
    node=${PF_SLOW_NODE:-$((RANDOM % 4))}
    echo "slowing node$node to 200mbit"
    pf_cluster_up 4 || fail "cannot create the cluster"
    trap cleanup_all EXIT
    run_check "$WORK/base" --quick || fail "the healthy baseline run failed"
    pf_cluster_slow "$node" 200mbit || fail "tc tbf failed"
    # Healthy pairs of this simulated cluster (4 namespaces on 2 shared cores) move by up to ~30% between two runs,
    # so the default 20% regression limit would also catch them; the slowed node's pairs drop by ~98%.
    printf '[baseline]\nregression_percent = 50\n' > "$WORK/limits.toml"
    run_check "$WORK/s" --quick --baseline "$WORK/base.json" --thresholds "$WORK/limits.toml"; rc=$?
    [ $rc = 1 ] || fail "slowed node$node: exit $rc, expected 1"
    validate_all "$WORK/s"
    grep -q "failing: node$node\$" "$WORK/s.out" || fail "the summary does not name node$node (alone) as failing"
    grep -q "FAIL  node$node \[check.pairs.node_bandwidth\]" "$WORK/s.out" || fail "no node_bandwidth finding"
    grep -q "remedy: drain node$node" "$WORK/s.out" || fail "no remedy naming node$node"
    "$PY" - "$WORK/s.json" "$node" <<'PYEOF' || fail "slow document content"
import json, sys
d = json.load(open(sys.argv[1])); host = "node" + sys.argv[2]
f = [r for r in d["results"] if r["key"] == "check.pairs.node_bandwidth"]
assert len(f) == 1 and f[0]["host"] == host and f[0]["status"] == "fail", f
ev = [e for e in f[0]["evidence"] if e.get("source", "").startswith("pair ")]
pairs = {e["source"] for e in ev}
assert len(pairs) == 3 and all(host in p[len("pair "):].split("-") for p in pairs), ev
for p in pairs:  # measured vs expected, both present
    one = {e["what"]: e["value"] for e in ev if e["source"] == p}
    bw = min(v for w, v in one.items() if w.startswith("bandwidth "))
    assert bw < 0.1 and one["expected bandwidth"] > 0.3 and one["bandwidth of expected"] < 20, one
assert "expected" in f[0]["message"] and f[0]["remedy"]
# No other node or link fails. A warning on a healthy link is allowed, as in the healthy case: the simulated
# nodes share two cores, and a pair measured while another process runs can lose a quarter of its bandwidth.
assert not [r for r in d["results"] if r["key"].startswith("check.pairs") and r["host"] not in (host,)
            and r["status"] == "fail"], "another node or link was blamed"
reg = [r for r in d["results"] if r["key"] == "check.baseline.regression"]
assert len(reg) >= 3 and all(host in r["host"].split(",") for r in reg if r["host"]), reg
PYEOF
    grep -q "preflight_node_failed{command=\"check\",host=\"node$node\"} 1" "$WORK/s.prom" ||
      fail "prometheus: node$node not marked failed"
    "$PY" - "$WORK/s.xml" "$node" <<'PYEOF' || fail "junit: no failure for the slowed node"
import sys, xml.etree.ElementTree as ET
cases = ET.parse(sys.argv[1]).getroot().iter("testcase")
assert any("node" + sys.argv[2] in c.get("name") and c.find("failure") is not None for c in cases)
PYEOF
    ;;
  odd)
    PF_PPN=2 pf_cluster_up 3 || fail "cannot create the cluster"
    trap cleanup_all EXIT
    PF_PPN=2 run_check "$WORK/o" --quick; rc=$?
    [ $rc = 0 ] || fail "3 nodes x 2 ranks: exit $rc, expected 0"
    "$PY" "$PF_VALIDATE" "$PF_SCHEMA" "$WORK/o.json" || fail "schema"
    "$PY" - "$WORK/o.json" <<'PYEOF' || fail "odd document content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["context"]["world_size"] == 6 and d["context"]["node_count"] == 3, d["context"]
rows = [r for r in d["results"] if r["kind"] == "pairs"][0]["rows"]
assert len(rows) == 3 and sorted(r["round"] for r in rows) == [0, 1, 2], rows
assert all(r["rank_a"] % 2 == 0 and r["rank_b"] % 2 == 0 for r in rows), "a non-leader rank ran a pair"
PYEOF
    ;;
  pairs_slow_link)
    node=${PF_SLOW_NODE:-$((RANDOM % 4))}
    pf_cluster_up 4 || fail "cannot create the cluster"
    trap cleanup_all EXIT
    pf_cluster_slow "$node" 200mbit || fail "tc tbf failed"
    pf_cluster_mpirun "$PF_BIN" pairs --max-seconds 0.5 --json "$WORK/p.json" >"$WORK/p.out" 2>&1; rc=$?
    cat "$WORK/p.out"
    [ $rc = 1 ] || fail "pairs with node$node slowed: exit $rc, expected 1"
    "$PY" "$PF_VALIDATE" "$PF_SCHEMA" "$WORK/p.json" || fail "schema"
    grep -q "failing: node$node\$" "$WORK/p.out" || fail "pairs does not name node$node"
    ;;
  nccl_ifname)
    if "$PF_BIN" check --help | grep -q 'built without the probes' || ! "$PF_BIN" --help | grep -q '^ *probe'; then
      echo "SKIP: this preflight has no probes (the net probe checks NCCL_SOCKET_IFNAME)"; exit 77
    fi
    node=${PF_SLOW_NODE:-$((RANDOM % 4))}
    pf_cluster_up 4 || fail "cannot create the cluster"
    trap cleanup_all EXIT
    # One node's environment names an interface that does not exist there (a per-node wrapper, as a broken
    # node image or prolog would do).
    cat >"$WORK/wrap.sh" <<WEOF
#!/bin/sh
[ "\$(hostname)" = "node$node" ] && export NCCL_SOCKET_IFNAME==ib_nonexistent0
exec "\$@"
WEOF
    chmod +x "$WORK/wrap.sh"
    pf_cluster_mpirun "$WORK/wrap.sh" "$PF_BIN" check --quick --json "$WORK/n.json" >"$WORK/n.out" 2>&1; rc=$?
    cat "$WORK/n.out"
    [ $rc = 1 ] || fail "NCCL_SOCKET_IFNAME broken on node$node: exit $rc, expected 1"
    grep -q "node$node" "$WORK/n.out" && grep -q NCCL_SOCKET_IFNAME "$WORK/n.out" ||
      fail "the summary does not name node$node and NCCL_SOCKET_IFNAME"
    ;;
  quick_time)
    pf_cluster_up 4 || fail "cannot create the cluster"
    trap cleanup_all EXIT
    times=()
    for i in 1 2 3 4 5; do
      t0=$(date +%s.%N)
      pf_cluster_mpirun "$PF_BIN" check --quick >/dev/null 2>&1 || fail "run $i did not pass"
      times+=("$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')")
    done
    median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)
    echo "check --quick on 4 nodes, 5 runs (s): ${times[*]}; median $median"
    awk -v m="$median" 'BEGIN { exit !(m < 10) }' || fail "median $median s is not under 10 s"
    ;;
  check.rails)
    PF_RAILS=4
    node=${PF_SLOW_NODE:-$((RANDOM % 4))}
    rail=${PF_SLOW_RAIL:-$((RANDOM % 4))}
    rails=eth0,rail1,rail2,rail3
    pf_cluster_up 4 || fail "cannot create the cluster"
    trap cleanup_all EXIT
    # A healthy rail's pair on this simulated cluster (4 namespaces on 2 shared cores) reads 45-145% of the pooled
    # expectation, one direction sometimes half the other, so the default fail line (50%) sits inside that noise: a
    # CI run once failed a healthy rail1 pair at 46%, after both confirmation passes. The slowed rail reads ~1%, so a
    # 20% line still tells it from the rest by far; what this case tests is which node and rail are named.
    printf '[pairs]\nbandwidth_fail_fraction = 0.2\n' > "$WORK/limits.toml"
    if [ -n "${PF_HOG_NODE:-}" ]; then  # the healthy runs under contention_case.sh's hog_one load: busy loops in a node
      hogs=()
      for _ in $(seq "$(nproc)"); do
        pf_cluster_exec "$PF_HOG_NODE" timeout 600 bash -c 'while :; do :; done' &
        hogs+=($!)
      done
      trap 'kill "${hogs[@]}" 2>/dev/null; cleanup_all' EXIT
    fi
    for ((k = 1; k <= ${PF_REPEAT:-1}; k++)); do
      run_check "$WORK/h" --quick --rails "$rails" --thresholds "$WORK/limits.toml"; rc=$?
      [ $rc = 0 ] || fail "healthy 4 rails, run $k: exit $rc, expected 0"
      "$PY" "$PF_VALIDATE" "$PF_SCHEMA" "$WORK/h.json" || fail "schema"
      "$PY" - "$WORK/h.json" <<'PYEOF' || fail "healthy rails document content"
import json, sys
d = json.load(open(sys.argv[1]))
rows = [r for r in d["results"] if r["kind"] == "pairs"][0]["rows"]
assert len(rows) == 24, f"{len(rows)} rows, expected 6 pairs x 4 rails"
assert sorted({r["rail"] for r in rows}) == [0, 1, 2, 3], rows
names = ["eth0", "rail1", "rail2", "rail3"]
assert all(r["nic_a"] == names[r["rail"]] and r["nic_b"] == names[r["rail"]] for r in rows), rows
assert all(r["status"] in ("pass", "warn") for r in rows), [r["reason"] for r in rows]
assert d["context"]["extra"]["engine"]["rails"]["count"] == 4
PYEOF
      echo "rails: healthy run $k passed"
    done
    echo "slowing rail $rail ($(pf_rail_if "$node" "$rail")) of node$node to 200mbit"
    pf_cluster_slow_rail "$node" "$rail" 200mbit || fail "tc tbf failed"
    run_check "$WORK/s" --quick --rails "$rails" --thresholds "$WORK/limits.toml"; rc=$?
    [ $rc = 1 ] || fail "rail $rail of node$node slowed: exit $rc, expected 1"
    validate_all "$WORK/s"
    grep -q "failing: node$node\$" "$WORK/s.out" || fail "the summary does not name node$node (alone) as failing"
    "$PY" - "$WORK/s.json" "$node" "$(pf_rail_if "$node" "$rail")" "$rail" <<'PYEOF' || fail "slow rail document content"
import json, sys
d = json.load(open(sys.argv[1])); host = "node" + sys.argv[2]; nic = sys.argv[3]; rail = int(sys.argv[4])
f = [r for r in d["results"] if r["key"] == "check.pairs.node_bandwidth" and r["status"] == "fail"]
assert len(f) == 1 and f[0]["host"] == host, f
assert f[0]["message"].startswith(f"rail {rail} ({host} {nic}): {host}: 3 of its 3 pairs are slow"), f[0]["message"]
assert f"the slow rail is {host} {nic}" in f[0]["remedy"], f[0]["remedy"]
rows = [r for r in d["results"] if r["kind"] == "pairs"][0]["rows"]
slow = [r for r in rows if r["status"] == "fail"]
assert slow and all(r["rail"] == rail and host in (r["host_a"], r["host_b"]) for r in slow), slow
PYEOF
    ;;
  cleanup)
    # A child that builds a cluster, slows a node and then fails must leave nothing behind.
    trap 'rm -rf "$WORK"' EXIT
    id=pfc$$
    PF_ID=$id bash -c "source '$PF_CLUSTER_DIR/cluster.sh'; pf_cluster_up 3 || exit 3; pf_cluster_slow 1 100mbit; false; exit 1"
    [ $? = 1 ] || fail "the failing child did not fail as planned"
    left=$( (ip netns list; ip link show) | grep -c "$id")
    [ "$left" = 0 ] || fail "$left namespaces or links named $id were left behind"
    # The same after SIGTERM (what `timeout` sends).
    PF_ID=${id}k bash -c "source '$PF_CLUSTER_DIR/cluster.sh'; pf_cluster_up 2; sleep 60 >/dev/null 2>&1 & wait \$!" >/dev/null 2>&1 &
    child=$!
    sleep 2
    kill -TERM $child; wait $child 2>/dev/null
    left=$( (ip netns list; ip link show) | grep -c "${id}k")
    [ "$left" = 0 ] || fail "$left namespaces or links named ${id}k were left behind after SIGTERM"
    # And after SIGKILL, which no trap sees: the next pf_cluster_up reaps what a dead run left.
    bash -c "source '$PF_CLUSTER_DIR/cluster.sh'; pf_cluster_up 2; sleep 60 >/dev/null 2>&1 & wait \$!" >/dev/null 2>&1 &
    child=$!
    sleep 2
    dead=$( (ip netns list; ip link show) | grep -c "pf${child}")
    kill -KILL $child; wait $child 2>/dev/null
    [ "$dead" -gt 0 ] || fail "the child did not build its cluster"
    (pf_cluster_up 2 && pf_cluster_down) || fail "cannot build a cluster after a killed run"
    left=$( (ip netns list; ip link show; ls -d /tmp/pf"${child}".* 2>/dev/null) | grep -c "pf${child}")
    [ "$left" = 0 ] || fail "$left namespaces, links or node tables of killed run pf$child were not reaped"
    ;;
  *) fail "unknown case '$case_name'" ;;
esac
echo PASS
