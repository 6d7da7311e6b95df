# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# Copyright (c) 2026 The Preflight authors
#
# A real Slurm (Debian's slurm-wlm: slurmctld, slurmd, munged) on the simulated cluster (cluster.sh): one slurmd per
# network namespace, each with its own address and host name, slurmctld and munged beside slurmd in node 0. All
# state (munge key and socket, slurm.conf, spool and state directories, logs) lives in one temporary directory;
# nothing under /etc, /run or /var is read or written, and no systemd is needed.
#
# Source after cluster.sh, then:
#   pf_slurm_require              exit 77 (ctest skip) with the reason when slurm-wlm or munge is missing
#   pf_slurm_up N PROLOG HEALTH   write the configuration, start munged, slurmctld and N slurmds (the cluster must
#                                 already have N nodes); PROLOG and HEALTH are the programs slurm.conf names
#   pf_slurm_interval SECONDS     set HealthCheckInterval and `scontrol reconfigure`
#   pf_slurm CMD ARGS...          run a Slurm client (srun, sbatch, scontrol, sinfo) inside node 0
#   pf_slurm_to FILE CMD ARGS...  the same, output to FILE
#   pf_slurm_state NODE           "STATE|REASON" of a node as slurmctld sees it, e.g. "IDLE+DRAIN|preflight: ..."
#   pf_slurm_wait NODE REGEX SECS wait until pf_slurm_state matches (grep -E); returns 1 on timeout
#   pf_slurm_down                 stop every daemon it started (TERM, then KILL); pf_cluster_down removes the rest
# Ports: inside the namespaces only (the host has no address there), so they cannot clash with a Slurm on the host.

PF_SLURM_DIR=""
PF_SLURM_CTLD_PORT=${PF_SLURM_CTLD_PORT:-16817}
PF_SLURM_SLURMD_PORT=${PF_SLURM_SLURMD_PORT:-16818}

pf_slurm_require() {
  local b
  for b in slurmctld slurmd munged srun sbatch scontrol sinfo; do
    command -v "$b" >/dev/null ||
      { echo "SKIP: $b not found (apt-get install -y --no-install-recommends slurm-wlm munge)"; exit 77; }
  done
}

pf_slurm_conf() {  # pf_slurm_conf N PROLOG HEALTH INTERVAL: writes slurm.conf
  local n=$1 prolog=$2 health=$3 interval=$4 d=$PF_SLURM_DIR i
  cat >"$d/slurm.conf" <<EOF
ClusterName=pftest
SlurmctldHost=node0($(pf_node_addr 0))
SlurmctldPort=$PF_SLURM_CTLD_PORT
SlurmdPort=$PF_SLURM_SLURMD_PORT
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.socket
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool/%n
# Per node: the nodes share this machine's /tmp, and the PMIx plugin names its client directory after the job
# step only (e.g. /tmp/spmix_appdir_0_1.0), so with one TmpFS the second node's step would find it taken.
TmpFS=$d/tmp/%n
SlurmctldPidFile=$d/run/slurmctld.pid
SlurmdPidFile=$d/run/slurmd-%n.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd-%n.log
# No cgroups: processes are tracked by their parent chain, tasks are not bound.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
# The simulated nodes share this machine's cores: trust the node lines below, not what slurmd counts.
SlurmdParameters=config_overrides
ReturnToService=2
SlurmdTimeout=60
MessageTimeout=20
KillWait=5
InactiveLimit=0
MinJobAge=10
Prolog=$prolog
PrologFlags=Alloc
HealthCheckProgram=$health
HealthCheckInterval=$interval
HealthCheckNodeState=ANY
EOF
  for ((i = 0; i < n; i++)); do
    echo "NodeName=$(pf_node_name "$i") NodeAddr=$(pf_node_addr "$i") CPUs=2 RealMemory=512 State=UNKNOWN" \
      >>"$d/slurm.conf"
  done
  echo "PartitionName=pf Nodes=ALL Default=YES MaxTime=10 State=UP" >>"$d/slurm.conf"
  # slurmd loads a cgroup plugin even when no cgroup plugin tracks or binds tasks, and its autodetection fails in a
  # network namespace (`ip netns exec` mounts a fresh /sys without /sys/fs/cgroup). Naming the plugin skips the
  # detection; nothing then creates a cgroup (proctrack/linuxproc, task/none above).
  echo "CgroupPlugin=cgroup/v1" >"$d/cgroup.conf"
}

pf_slurm_up() {
  local n=$1 prolog=$2 health=$3 i
  PF_SLURM_DIR="$PF_CLUSTER_STATE/slurm"
  mkdir -p "$PF_SLURM_DIR"/{munge,state,spool,run,log}
  chmod 700 "$PF_SLURM_DIR/munge"
  # The health check starts rare (slurmd still runs it once when it registers); the test shortens it when it
  # wants it, so that the prolog's drain and the health check's drain can be told apart.
  pf_slurm_conf "$n" "$prolog" "$health" 3600
  export SLURM_CONF="$PF_SLURM_DIR/slurm.conf"
  head -c 1024 /dev/urandom >"$PF_SLURM_DIR/munge/munge.key"
  chmod 400 "$PF_SLURM_DIR/munge/munge.key"
  # munged in node 0; its socket is a file, which every namespace can reach (network namespaces do not
  # separate path-bound Unix sockets).
  pf_slurm_daemon 0 /dev/null munged -F --force --socket="$PF_SLURM_DIR/munge/munge.socket" \
    --key-file="$PF_SLURM_DIR/munge/munge.key" --pid-file="$PF_SLURM_DIR/munge/munged.pid" \
    --log-file="$PF_SLURM_DIR/log/munged.log" --seed-file="$PF_SLURM_DIR/munge/seed"
  for ((i = 0; i < 50; i++)); do [ -S "$PF_SLURM_DIR/munge/munge.socket" ] && break; sleep 0.1; done
  [ -S "$PF_SLURM_DIR/munge/munge.socket" ] ||
    { echo "munged did not start:"; cat "$PF_SLURM_DIR/log/munged.log"; return 1; }
  pf_slurm_daemon 0 "$PF_SLURM_DIR/log/slurmctld.out" slurmctld -D -i -f "$SLURM_CONF"
  for ((i = 0; i < 100; i++)); do pf_slurm scontrol ping 2>/dev/null | grep -q 'UP' && break; sleep 0.2; done
  pf_slurm scontrol ping | grep -q UP ||
    { echo "slurmctld did not answer:"; tail -20 "$PF_SLURM_DIR/log/slurmctld.log"; return 1; }
  for ((i = 0; i < n; i++)); do
    mkdir -p "$PF_SLURM_DIR/spool/$(pf_node_name "$i")" "$PF_SLURM_DIR/tmp/$(pf_node_name "$i")"
    pf_slurm_daemon "$i" "$PF_SLURM_DIR/log/slurmd-$(pf_node_name "$i").out" \
      slurmd -D -N "$(pf_node_name "$i")" -f "$SLURM_CONF"
    done
}

# Clients run in the background and are waited for, so that a signal (the test's time bound) reaches the shell's
# trap at once instead of after a client that waits on a step.
pf_slurm() { pf_cluster_exec 0 env SLURM_CONF="$SLURM_CONF" "$@" & wait $!; }
# The same with stdout and stderr to FILE: redirected here, not around the call, so that the trap that runs during
# `wait` still writes to the test's own output.
pf_slurm_to() {  # pf_slurm_to FILE CMD...
  local out=$1; shift
  pf_cluster_exec 0 env SLURM_CONF="$SLURM_CONF" "$@" >"$out" 2>&1 & wait $!
}

# Daemons get a session of their own: the signal `timeout` sends to the test's process group must not kill them
# half-way; pf_slurm_down stops them, job steps included.
pf_slurm_daemon() {  # pf_slurm_daemon NODE LOG CMD...
  local i=$1 log=$2; shift 2
  setsid ip netns exec "$(pf_ns "$i")" unshare --uts "$PF_CLUSTER_DIR/cluster-agent.sh" --self "$(pf_node_name "$i")" \
    "$@" >"$log" 2>&1 </dev/null &
}

pf_slurm_interval() {
  sed -i "s/^HealthCheckInterval=.*/HealthCheckInterval=$1/" "$SLURM_CONF"
  pf_slurm scontrol reconfigure
}

pf_slurm_state() {
  pf_slurm scontrol show node "$1" 2>/dev/null |
    awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^State=/) s = substr($i, 7) }
         /^ *Reason=/ { sub(/^ *Reason=/, ""); r = $0 }
         END { printf "%s|%s\n", s, r }'
}

pf_slurm_wait() {
  local node=$1 re=$2 end=$((SECONDS + $3))
  while [ $SECONDS -lt $end ]; do
    pf_slurm_state "$node" | grep -Eq "$re" && return 0
    sleep 1
  done
  return 1
}

pf_slurm_down() {
  # Every process in the namespaces is this run's (daemons, job steps, health checks): TERM first so that the
  # daemons leave cleanly, then pf_cluster_down ends whatever is left with KILL.
  local i p pids=""
  for ((i = 0; i < PF_CLUSTER_NODES; i++)); do pids+=" $(ip netns pids "$(pf_ns "$i")" 2>/dev/null)"; done
  [ -n "${pids// /}" ] || return 0
  kill $pids 2>/dev/null
  for ((i = 0; i < 50; i++)); do
    local alive=0
    for p in $pids; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  return 0
}
