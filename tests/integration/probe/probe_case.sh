#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Cases for `preflight probe` and `preflight env` with real MPI ranks on this machine. Each case exits 0 and
# prints PASS when the behaviour is right, FAIL: and what differed otherwise. Usage: probe_case.sh CASE [ARGS...]
# Environment: PF_BIN (preflight), PF_FIXTURES, PF_SCHEMA, PF_VALIDATE, PF_PYTHON.
set -uo pipefail
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
MPIRUN=(mpirun --oversubscribe --mca mpi_yield_when_idle 1)
[[ $(id -u) -eq 0 ]] && MPIRUN+=(--allow-run-as-root)

fail() { echo "FAIL: $*"; exit 1; }
validate() { "$PF_PYTHON" "$PF_VALIDATE" "$PF_SCHEMA" "$@" || fail "schema validation of $1"; }
# jq-free JSON queries: py 'expression over d' prints the result.
py() { "$PF_PYTHON" -c "import json,sys; d=json.load(open('$work/r.json')); print($1)"; }

case "$1" in
  gather4)  # four ranks gather into one document on rank 0
    timeout 120 "${MPIRUN[@]}" -np 4 "$PF_BIN" probe --json "$work/r.json" > "$work/out.txt" 2>&1
    rc=$?
    [[ $rc -eq 0 ]] || { cat "$work/out.txt"; fail "exit code $rc"; }
    validate "$work/r.json"
    [[ $(py "sorted({r['rank'] for r in d['results']})") == "[0, 1, 2, 3]" ]] || fail "ranks: $(py "[r['rank'] for r in d['results']]")"
    [[ $(py "d['context']['world_size']") == 4 ]] || fail "world_size"
    [[ $(py "sum(r['key']=='probe.net' for r in d['results'])") == 4 ]] || fail "one net result per rank"
    # No GPU, InfiniBand, EFA or SR-IOV NIC on this machine: absent on every rank, each saying what it looked for.
    for k in gpu ib efa sriov p2p topo; do
      [[ $(py "sorted({r['status'] for r in d['results'] if r['key']=='probe.$k'})") == "['absent']" ]] \
        || fail "probe.$k: $(py "[r['status'] for r in d['results'] if r['key']=='probe.$k']")"
      [[ $(py "all(r['evidence'] for r in d['results'] if r['key']=='probe.$k')") == True ]] || fail "probe.$k: no evidence"
    done
    ;;
  odd-ifname)  # rank 3 alone gets a nonexistent NCCL_SOCKET_IFNAME (its own app context): named, with the fix
    timeout 120 "${MPIRUN[@]}" -np 3 "$PF_BIN" probe --only net,nccl --json "$work/r.json" : \
      -np 1 -x NCCL_SOCKET_IFNAME=bogus0 "$PF_BIN" probe --only net,nccl --json "$work/r.json" > "$work/out.txt" 2>&1
    rc=$?
    [[ $rc -eq 1 ]] || { cat "$work/out.txt"; fail "exit code $rc, expected 1"; }
    validate "$work/r.json"
    grep -q "(rank 3) (1 rank) differ" "$work/out.txt" || { cat "$work/out.txt"; fail "rank 3 not named as the odd one"; }
    grep -q "NCCL_SOCKET_IFNAME=bogus0 matches no interface" "$work/out.txt" || { cat "$work/out.txt"; fail "no message"; }
    grep -q "set NCCL_SOCKET_IFNAME==" "$work/out.txt" || { cat "$work/out.txt"; fail "no remedy"; }
    [[ $(py "[r['rank'] for r in d['results'] if r['status']=='fail' and r['key']=='probe.net']") == "[3]" ]] \
      || fail "failing net results: $(py "[(r['rank'], r['status']) for r in d['results'] if r['key']=='probe.net']")"
    [[ $(py "[r['rank'] for r in d['results'] if r['key']=='consistency.env.nccl_socket_ifname']") == "[3]" ]] \
      || fail "consistency did not name rank 3"
    ;;
  env-ranks)  # preflight env under mpirun: each rank sees itself
    timeout 60 "${MPIRUN[@]}" -np 2 "$PF_BIN" env --no-network > "$work/out.txt" 2>&1 || { cat "$work/out.txt"; fail "exit $?"; }
    [[ $(grep -c "^launcher: openmpi" "$work/out.txt") == 2 ]] || { cat "$work/out.txt"; fail "launcher lines"; }
    grep -q "rank              1" "$work/out.txt" || fail "rank 1 missing"
    ;;
  local-ranks)  # no launcher: --local-ranks 2 relaunches through mpirun
    timeout 120 "$PF_BIN" probe --local-ranks 2 --only host --json "$work/r.json" > /dev/null 2>&1 || fail "exit $?"
    [[ $(py "d['context']['world_size']") == 2 ]] || fail "world_size"
    ;;
  fixture)  # the captured tree of this machine: no launcher needed, exit 0, three probes with values
    timeout 30 "$PF_BIN" probe --sysfs-root "$PF_FIXTURES/host-thismachine" --only host,net,nccl --json "$work/r.json" \
      > /dev/null 2>&1 || fail "exit $?"
    validate "$work/r.json"
    [[ $(py "[r['status'] for r in d['results']]") == "['pass', 'absent', 'pass']" ]] || fail "$(py "[r['status'] for r in d['results']]")"
    ;;
  devices)  # every captured device tree through the CLI: exit code, statuses, schema
    # tree, expected exit code, then key=status pairs
    while read -r tree want pairs; do
      timeout 30 "$PF_BIN" probe --sysfs-root "$PF_FIXTURES/$tree" --env-file "$PF_FIXTURES/env/device-$tree.env" \
        --only ib,efa,sriov,gpu,p2p,topo --json "$work/r.json" > "$work/out.txt" 2>&1
      rc=$?
      [[ $rc -eq $want ]] || { cat "$work/out.txt"; fail "$tree: exit code $rc, expected $want"; }
      validate "$work/r.json"
      for kv in $pairs; do
        got=$(py "[r['status'] for r in d['results'] if r['key']=='probe.${kv%%=*}']")
        [[ $got == "['${kv#*=}']" ]] || fail "$tree: probe.${kv%%=*} is $got, expected ${kv#*=}"
      done
    done <<'EOF_TREES'
ib-ndr-8hca 0 ib=warn efa=absent sriov=pass gpu=warn p2p=pass topo=pass
roce-gid 1 ib=fail efa=absent sriov=pass gpu=absent p2p=absent topo=absent
azure-ndv4 0 ib=pass efa=absent sriov=pass gpu=pass p2p=pass topo=pass
aws-p4d-efa 0 ib=absent efa=pass sriov=absent gpu=pass p2p=pass topo=pass
ib-no-uverbs 1 ib=fail efa=absent sriov=absent gpu=absent topo=absent
EOF_TREES
    ;;
  output)  # output CODE SUBSTRING ARGS...: exit code and a line of the output
    want=$2 text=$3
    shift 3
    out=$(cd "$work" && timeout 30 "$PF_BIN" "$@" 2>&1)
    rc=$?
    [[ $rc -eq $want ]] || { echo "$out"; fail "exit code $rc, expected $want"; }
    grep -qF -- "$text" <<< "$out" || { echo "$out"; fail "output lacks '$text'"; }
    [[ -z $(ls -A "$work") ]] || fail "left files behind: $(ls -A "$work")"
    ;;
  *) fail "unknown case $1" ;;
esac
echo PASS
