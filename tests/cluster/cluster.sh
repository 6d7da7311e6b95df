# SPDX-License-Identifier: Apache-2.0
# Copyright (c) 2026 The Preflight authors
#
# The simulated cluster: N "nodes" as network namespaces on one Linux bridge, each with its own hostname (UTS
# namespace, set per process by the launch agent), joined by veth pairs, with addresses in a private range
# that exists only inside these namespaces (the host gets no address and no route, so nothing outside the
# machine can see or reach them). Open MPI launches into the nodes through cluster-agent.sh as its rsh agent.
#
# Source this file from a test script (bash), then:
#   pf_cluster_require            exit 77 (ctest skip) with the reason when not root / no `ip netns`
#   pf_cluster_up [N]             create N nodes (default $PF_NODES or 4); installs an EXIT trap that tears down
#   pf_cluster_slow NODE RATE     limit node NODE's link (both directions) with tbf, e.g. `pf_cluster_slow 2 200mbit`
#   pf_cluster_slow_rail NODE RAIL RATE   the same on one rail of a node (PF_RAILS), e.g. `pf_cluster_slow_rail 1 2 200mbit`
#   pf_cluster_mpirun ARGS...     mpirun with one rank per node (override with PF_PPN), inside node 0; TCP only
#                                 between all ranks unless PF_BTL says otherwise (vader,tcp,self: shared memory
#                                 inside a node); PF_CLUSTER_NODES=k before it launches on the first k nodes only
#   pf_cluster_exec NODE CMD...   run a command inside node NODE with its hostname
#   pf_cluster_down               remove everything this run created (idempotent; also run by the EXIT trap)
#
# Rails: with PF_RAILS=k (default 1) every node has k links, each on its own bridge and private subnet: rail 0 is
# eth0 (the launch and MPI network, ${PF_SUBNET}), rail r > 0 is interface rail<r> with ${PF_SUBNET%.*}.<r+last>.x,
# as a multi-rail node has one NIC per rail, each on its own switch and subnet.
#
# Names are unique per run (prefix "pf<pid>"), so concurrent or crashed runs never collide; every test is
# bounded by ctest's TIMEOUT and by `timeout` around each mpirun.

PF_CLUSTER_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PF_SUBNET=${PF_SUBNET:-10.77.0}         # /24 prefix; node i gets ${PF_SUBNET}.$((i+1))
PF_ID=${PF_ID:-pf$$}                    # unique per run; interface names must stay below 16 characters
PF_NODES=${PF_NODES:-4}
PF_RAILS=${PF_RAILS:-1}
PF_MPIRUN_TIMEOUT=${PF_MPIRUN_TIMEOUT:-120}
PF_CLUSTER_NODES=0
PF_CLUSTER_STATE=""

pf_cluster_require() {
  if [ "$(id -u)" != 0 ]; then
    echo "SKIP: the simulated cluster needs root (network namespaces, veth, tc)"; exit 77
  fi
  if ! command -v ip >/dev/null || ! ip netns list >/dev/null 2>&1; then
    echo "SKIP: 'ip netns' is not available (install iproute2; the kernel needs network namespaces)"; exit 77
  fi
  if ! command -v mpirun >/dev/null; then echo "SKIP: mpirun not found (apt-get install openmpi-bin)"; exit 77; fi
  # A throwaway namespace proves the kernel lets us create them (containers often do not).
  if ! ip netns add "${PF_ID}probe" 2>/dev/null; then
    echo "SKIP: cannot create a network namespace here (not permitted in this container?)"; exit 77
  fi
  ip netns del "${PF_ID}probe"
  if ! unshare --uts true 2>/dev/null; then echo "SKIP: cannot create a UTS namespace (unshare --uts)"; exit 77; fi
}

pf_ns() { echo "${PF_ID}n$1"; }            # namespace of node i
pf_veth() { echo "${PF_ID}v$1"; }          # host-side veth of node i
pf_node_addr() { echo "${PF_SUBNET}.$(($1 + 1))"; }
pf_node_name() { echo "node$1"; }
pf_rail_veth() { echo "${PF_ID}r$2n$1"; }   # host-side veth of node i's rail r (r > 0)
pf_rail_bridge() { echo "${PF_ID}br$1"; }    # rail r's bridge (r > 0)
pf_rail_if() { if [ "$2" = 0 ]; then echo eth0; else echo "rail$2"; fi; }   # node i's rail r, inside the node
pf_rail_addr() { echo "${PF_SUBNET%.*}.$((${PF_SUBNET##*.} + $2)).$(($1 + 1))"; }

# Removes what runs that died without cleaning up (SIGKILL, a crash) left: namespaces, links and node tables
# named pf<pid>... whose pid no longer exists.
pf_cluster_reap() {
  local name pid
  for name in $(ip netns list 2>/dev/null | awk '{print $1}' | grep -E '^pf[0-9]+n[0-9]+$'); do
    pid=${name#pf}; pid=${pid%%n*}
    [ -d "/proc/$pid" ] && continue
    local pids
    pids=$(ip netns pids "$name" 2>/dev/null)
    [ -n "$pids" ] && kill -9 $pids 2>/dev/null
    ip netns del "$name" 2>/dev/null
  done
  for name in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | sed 's/@.*//' | grep -E '^pf[0-9]+(br[0-9]*|v[0-9]+|r[0-9]+n[0-9]+)$'); do
    pid=${name#pf}; pid=${pid%%[bvr]*}
    [ -d "/proc/$pid" ] || ip link del "$name" 2>/dev/null
  done
  # The node tables of dead runs (pf_cluster_up's mktemp -d /tmp/pf<pid>.XXXXXX).
  for name in /tmp/pf[0-9]*.??????; do
    [ -d "$name" ] || continue
    pid=${name#/tmp/pf}; pid=${pid%%.*}
    [[ $pid =~ ^[0-9]+$ ]] && [ ! -d "/proc/$pid" ] && rm -rf "$name"
  done
  return 0
}

pf_cluster_up() {
  local n=${1:-$PF_NODES} i ns veth
  pf_cluster_reap
  trap pf_cluster_down EXIT
  trap 'exit 130' INT TERM   # turn signals into a normal exit so the EXIT trap cleans up
  PF_CLUSTER_STATE=$(mktemp -d "/tmp/${PF_ID}.XXXXXX")
  ip link add "${PF_ID}br" type bridge || return 1
  ip link set "${PF_ID}br" up
  for ((i = 0; i < n; i++)); do
    ns=$(pf_ns "$i"); veth=$(pf_veth "$i")
    ip netns add "$ns" || return 1
    PF_CLUSTER_NODES=$((i + 1))   # count as soon as it exists, so a failure half-way still cleans it up
    ip link add "$veth" type veth peer name eth0 netns "$ns" || return 1
    ip link set "$veth" master "${PF_ID}br" up
    ip -n "$ns" addr add "$(pf_node_addr "$i")/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
    echo "$(pf_node_name "$i") $ns $(pf_node_addr "$i")" >>"$PF_CLUSTER_STATE/nodes"
  done
  local r
  for ((r = 1; r < PF_RAILS; r++)); do
    ip link add "$(pf_rail_bridge "$r")" type bridge || return 1
    ip link set "$(pf_rail_bridge "$r")" up
    for ((i = 0; i < n; i++)); do
      ns=$(pf_ns "$i"); veth=$(pf_rail_veth "$i" "$r")
      ip link add "$veth" type veth peer name "$(pf_rail_if "$i" "$r")" netns "$ns" || return 1
      ip link set "$veth" master "$(pf_rail_bridge "$r")" up
      ip -n "$ns" addr add "$(pf_rail_addr "$i" "$r")/24" dev "$(pf_rail_if "$i" "$r")"
      ip -n "$ns" link set "$(pf_rail_if "$i" "$r")" up
    done
  done
  # The rsh agent reads the node table from here (it runs in a fresh shell without our variables).
  export PF_CLUSTER_NODEMAP="$PF_CLUSTER_STATE/nodes"
  # Wait until every node answers from node 0 (the bridge needs a moment to learn the ports).
  for ((i = 1; i < n; i++)); do
    local tries=0
    # No ping on a minimal system: a TCP connect to a closed port answers "refused" once the node is reachable.
    # (The answer is captured, not piped: callers with `set -o pipefail` would see the failed connect.)
    until [[ $(ip netns exec "$(pf_ns 0)" timeout 1 bash -c "exec 3<>/dev/tcp/$(pf_node_addr "$i")/9" 2>&1) == \
      *refused* ]]; do
      tries=$((tries + 1)); [ $tries -gt 20 ] && { echo "FAIL: node $i unreachable from node 0"; return 1; }
      sleep 0.2
    done
  done
}

# pf_cluster_slow NODE RATE: a token bucket on both ends of the node's veth pair (tbf limits rate only; this
# kernel has no netem). The limit then applies to every pair that involves the node, in both directions.
pf_cluster_slow() {
  local i=$1 rate=$2
  tc qdisc replace dev "$(pf_veth "$i")" root tbf rate "$rate" burst 256kb latency 50ms || return 1
  ip netns exec "$(pf_ns "$i")" tc qdisc replace dev eth0 root tbf rate "$rate" burst 256kb latency 50ms || return 1
}

# pf_cluster_slow_rail NODE RAIL RATE: the same token bucket on one rail of one node only.
pf_cluster_slow_rail() {
  local i=$1 r=$2 rate=$3 host
  if [ "$r" = 0 ]; then host=$(pf_veth "$i"); else host=$(pf_rail_veth "$i" "$r"); fi
  tc qdisc replace dev "$host" root tbf rate "$rate" burst 256kb latency 50ms || return 1
  ip netns exec "$(pf_ns "$i")" tc qdisc replace dev "$(pf_rail_if "$i" "$r")" root tbf rate "$rate" burst 256kb \
    latency 50ms || return 1
}

pf_cluster_hosts() {
  local i hosts="" ppn=${PF_PPN:-1}
  for ((i = 0; i < PF_CLUSTER_NODES; i++)); do hosts+="${hosts:+,}$(pf_node_name "$i"):$ppn"; done
  echo "$hosts"
}

# mpirun runs inside node 0 with node 0's hostname, so Open MPI treats node0 as local and reaches the others
# through the agent; all traffic (launch, out-of-band, MPI) stays on the private range.
pf_cluster_mpirun() {
  local ppn=${PF_PPN:-1}
  PF_NODE_NAME=node0 timeout -k 5 "$PF_MPIRUN_TIMEOUT" ip netns exec "$(pf_ns 0)" unshare --uts \
    "$PF_CLUSTER_DIR/cluster-agent.sh" --self node0 \
    mpirun --allow-run-as-root --oversubscribe -np $((PF_CLUSTER_NODES * ppn)) --host "$(pf_cluster_hosts)" \
    --mca plm_rsh_agent "$PF_CLUSTER_DIR/cluster-agent.sh" \
    --mca oob_tcp_if_include "${PF_SUBNET}.0/24" --mca btl_tcp_if_include "${PF_SUBNET}.0/24" \
    --mca btl "${PF_BTL:-tcp,self}" --mca mpi_yield_when_idle 1 -x PF_CLUSTER_NODEMAP "$@"
}

pf_cluster_exec() {
  local i=$1; shift
  ip netns exec "$(pf_ns "$i")" unshare --uts "$PF_CLUSTER_DIR/cluster-agent.sh" --self "$(pf_node_name "$i")" "$@"
}

pf_cluster_down() {
  local i
  # Processes left in a namespace (an orted after a timeout) would keep it alive: end them first.
  for ((i = 0; i < PF_CLUSTER_NODES; i++)); do
    local pids
    pids=$(ip netns pids "$(pf_ns "$i")" 2>/dev/null)
    [ -n "$pids" ] && kill -9 $pids 2>/dev/null
  done
  for ((i = 0; i < PF_CLUSTER_NODES; i++)); do
    ip link del "$(pf_veth "$i")" 2>/dev/null
    ip netns del "$(pf_ns "$i")" 2>/dev/null
  done
  ip link del "${PF_ID}br" 2>/dev/null
  local r
  for ((r = 1; r < PF_RAILS; r++)); do ip link del "$(pf_rail_bridge "$r")" 2>/dev/null; done
  [ -n "$PF_CLUSTER_STATE" ] && rm -rf "$PF_CLUSTER_STATE"
  PF_CLUSTER_NODES=0
  PF_CLUSTER_STATE=""
  return 0
}
