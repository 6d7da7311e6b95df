#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Copyright (c) 2026 The Preflight authors
#
# Preflight under a real Slurm (slurm.sh: Debian's slurmctld, slurmd and munged on three simulated nodes, one
# slurmd per network namespace). Slurm itself runs examples/slurm/prolog.sh (Prolog=, PrologFlags=Alloc) and
# examples/slurm/healthcheck.sh (HealthCheckProgram=); the test only breaks a node and reads what Slurm reports:
#   1. all three nodes register and are IDLE (the health check slurmd runs at registration passed);
#   2. `srun --mpi=pmix` (or pmi2) launches `preflight check --quick` on the three nodes: exit 0, one document
#      with three ranks on node0..node2, launched by Slurm; the prolog ran and passed on each node;
#   3. node2's interface is renamed (eth0 -> ens9) while the site's NCCL_SOCKET_IFNAME==eth0 still names it:
#      a three-node batch job makes the prolog fail on node2; node2 ends up DRAINED with the prolog's
#      "preflight: ..." reason, node0 and node1 stay IDLE;
#   4. node2 is resumed with the fault still there, the health check runs every few seconds: it drains node2
#      again with its own "preflight: ..." reason; node0 and node1 stay IDLE;
#   5. the interface gets its name back: the health check resumes node2 (a drain it set), a job runs on all three
#      nodes again and every node ends IDLE, each with the node_exporter textfile its health check wrote.
# Bounded: the whole script runs under `timeout` (PF_SLURM_TIMEOUT, default 220 s, then 45 s for the cleanup); an
# EXIT trap stops every daemon and removes the namespaces and the temporary directory, also on failure or timeout.
# Environment (from CMake): PF_BIN, PF_SCHEMA, PF_VALIDATE, PF_PYTHON; PF_SLURM_MPI=pmi2 forces the MPI plugin;
# PF_TRACE=FILE writes an xtrace there. Exit 77 = skipped (not root, no Slurm, a build without the probes).
if [ -z "${PF_SLURM_BOUNDED:-}" ]; then
  # --foreground: the signal goes to this script alone, whose trap then stops Slurm in order; sent to the whole
  # process group it would also hit the shell's own subshells half-way through their work.
  PF_SLURM_BOUNDED=1 exec timeout --foreground -k 45 "${PF_SLURM_TIMEOUT:-220}" "$0" "$@"
fi
[ -n "${PF_TRACE:-}" ] && { exec 9>>"$PF_TRACE"; BASH_XTRACEFD=9; PS4='+ $SECONDS '; set -x; }
HERE=$(cd "$(dirname "$0")" && pwd)
source "$HERE/cluster.sh"
source "$HERE/slurm.sh"
EXAMPLES=$(cd "$HERE/../../examples/slurm" && pwd)
PY=${PF_PYTHON:-/usr/bin/python3}
T0=$SECONDS
fail() {
  echo "FAIL: $*"
  if [ -n "$PF_SLURM_DIR" ]; then  # what Slurm said, for the person reading the failure
    pf_slurm sinfo -N -o '%N %T %E' 2>/dev/null
    tail -n 12 "$PF_SLURM_DIR"/log/*.log 2>/dev/null
  fi
  exit 1
}
step() { printf '[%3ds] %s\n' $((SECONDS - T0)) "$*"; }

[ -x "${PF_BIN:-}" ] || { echo "FAIL: PF_BIN (the preflight binary) is not set or not executable"; exit 1; }
pf_cluster_require
pf_slurm_require
if "$PF_BIN" check --help | grep -q 'built without the probes' || ! "$PF_BIN" --help | grep -q '^ *probe'; then
  echo "SKIP: this preflight has no probes (the node's fault is found by the net probe)"; exit 77
fi
# A test started inside a job (CI on a Slurm cluster) must not hand that job's variables to our srun and sbatch.
for v in $(compgen -e | grep -E '^(SLURM|SLURMD|SBATCH|SALLOC|SRUN|PMIX|PMI|OMPI_COMM_WORLD)_'); do unset "$v"; done
NODES=3
BAD=node2
WORK=$(mktemp -d /tmp/pf-slurm.XXXXXX)
# Daemons, steps and ranks start here: whatever they leave in their working directory (a crash handler's
# backtrace file, say) goes with $WORK, not into the checkout.
cd "$WORK" || exit 1
cleanup_all() { pf_slurm_down; pf_cluster_down; rm -rf "$WORK"; }
trap cleanup_all EXIT
trap 'exit 130' INT TERM
pf_cluster_up $NODES || fail "cannot create the cluster"
trap cleanup_all EXIT   # pf_cluster_up installed its own; ours also stops Slurm and removes $WORK
on_signal() {
  echo "FAIL: stopped by a signal after $((SECONDS - T0)) s (the ${PF_SLURM_TIMEOUT:-220} s bound?)"
  exit 130
}
trap on_signal INT TERM

# The site's settings, as /etc/default/preflight would hold them on every node. Slurm runs the prolog and the
# health check with an environment of its own, so the wrappers set what the example scripts read.
cat >"$WORK/site.sh" <<EOF
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export SLURM_CONF="$PF_CLUSTER_STATE/slurm/slurm.conf" PREFLIGHT="$PF_BIN"
export NCCL_SOCKET_IFNAME==eth0   # every node's fabric interface is eth0
node=\$(hostname -s)
mkdir -p "$WORK/out/\$node"
export PREFLIGHT_OUT="$WORK/out/\$node" TEXTFILE_DIR="$WORK/out/\$node"
export PREFLIGHT_HEALTH_JSON="$WORK/out/\$node/health.json"
export TMPDIR="$WORK/out/\$node"
EOF
for s in prolog healthcheck; do
  printf '#!/bin/bash\n. "%s"\nexec bash "%s"\n' "$WORK/site.sh" "$EXAMPLES/$s.sh" >"$WORK/$s"
  chmod 755 "$WORK/$s"
done

step "starting munged, slurmctld and $NODES slurmds"
pf_slurm_up $NODES "$WORK/prolog" "$WORK/healthcheck" || fail "Slurm did not start"
for ((i = 0; i < NODES; i++)); do
  pf_slurm_wait "node$i" '^IDLE\|' 60 || fail "node$i is not IDLE after registering: $(pf_slurm_state node$i)"
done
pf_slurm sinfo -N -o '%N %T %E'

# 2. srun launches the check; PMIx where this Slurm has it, else PMI-2.
mpis=$(pf_slurm srun --mpi=list 2>&1)
mpi=${PF_SLURM_MPI:-}   # PF_SLURM_MPI=pmi2 tries the other interface
if [ -z "$mpi" ]; then mpi=pmi2; grep -qw pmix <<<"$mpis" && mpi=pmix; fi
step "srun --mpi=$mpi preflight check --quick on $NODES nodes (srun --mpi=list: $(echo $mpis | tr -s ' '))"
# srun passes this environment on to the ranks; their Open MPI session directories go under $WORK, so a run that is
# killed leaves none in /tmp.
export OMPI_MCA_btl=tcp,self OMPI_MCA_btl_tcp_if_include="${PF_SUBNET}.0/24" OMPI_MCA_mpi_yield_when_idle=1 \
  OMPI_MCA_orte_tmpdir_base="$WORK"
pf_slurm_to "$WORK/srun.out" srun -N $NODES --ntasks-per-node=1 --mpi=$mpi --time=2 --kill-on-bad-exit=1 \
  "$PF_BIN" check --quick --json "$WORK/srun.json"
rc=$?
cat "$WORK/srun.out"
[ $rc = 0 ] || fail "srun preflight check on a healthy allocation: exit $rc, expected 0"
"$PY" "$PF_VALIDATE" "$PF_SCHEMA" "$WORK/srun.json" || fail "srun.json does not match the result schema"
"$PY" - "$WORK/srun.json" "$NODES" <<'PYEOF' || fail "the srun document"
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
c = d["context"]
assert d["exit_code"] == 0, d["exit_code"]
assert c["world_size"] == n and c["node_count"] == n, (c["world_size"], c["node_count"])
launcher = json.dumps(c["launcher"])
assert "slurm" in launcher or "pmix" in launcher, f"not launched by Slurm: {launcher}"
pairs = [r for r in d["results"] if r["kind"] == "pairs"][0]
hosts = {r["host_a"] for r in pairs["rows"]} | {r["host_b"] for r in pairs["rows"]}
assert hosts == {f"node{i}" for i in range(n)}, hosts
print("srun document: world", c["world_size"], "on", sorted(hosts), "launcher", launcher)
PYEOF
for ((i = 0; i < NODES; i++)); do
  ls "$WORK/out/node$i"/prolog-*.json >/dev/null 2>&1 || fail "Slurm did not run the prolog on node$i"
done
echo "prolog documents: $(cd "$WORK/out" && ls -- */prolog-*.json | tr '\n' ' ')"

# 3. A renamed interface on node2: the prolog of the next job fails there.
step "renaming $BAD's eth0 to ens9 (NCCL_SOCKET_IFNAME==eth0 no longer matches there)"
rename_if() {  # rename_if FROM TO in node2's namespace; the address and Slurm's connections survive
  ip -n "$(pf_ns 2)" link set "$1" down && ip -n "$(pf_ns 2)" link set "$1" name "$2" &&
    ip -n "$(pf_ns 2)" link set "$2" up
}
rename_if eth0 ens9 || fail "cannot rename node2's interface"
job=$(pf_slurm sbatch --parsable -N $NODES --time=1 -o "$WORK/job-%j.out" --wrap true) ||
  fail "sbatch refused the job"
step "batch job $job on node[0-2]: waiting for the prolog to drain $BAD"
pf_slurm_wait $BAD 'DRAIN.*\|preflight:' 60 || fail "$BAD was not drained by the prolog: $(pf_slurm_state $BAD)"
pf_slurm scancel "$job"
reason=$(pf_slurm_state $BAD)
echo "$BAD: $reason"
grep -q 'NCCL_SOCKET_IFNAME' <<<"$reason" || fail "the drain reason does not name NCCL_SOCKET_IFNAME: $reason"
for n in node0 node1; do
  pf_slurm_wait $n '^IDLE\|' 30 || fail "healthy $n is not IDLE after the failed prolog: $(pf_slurm_state $n)"
done
pf_slurm scontrol show node $BAD | grep -E 'State=|Reason='

# 4. The health check finds the same fault on its own.
step "resuming $BAD with the fault still there; HealthCheckInterval=5"
pf_slurm scontrol update NodeName=$BAD State=RESUME || fail "cannot resume $BAD"
pf_slurm_interval 5 || fail "scontrol reconfigure"
pf_slurm_wait $BAD 'DRAIN.*\|preflight: .*health' 60 ||
  fail "the health check did not drain $BAD: $(pf_slurm_state $BAD)"
reason=$(pf_slurm_state $BAD)
echo "$BAD: $reason"
grep -q 'NCCL_SOCKET_IFNAME' <<<"$reason" || fail "the health check's reason does not name NCCL_SOCKET_IFNAME"
for n in node0 node1; do
  state=$(pf_slurm_state $n)
  grep -Eq '^IDLE\|' <<<"$state" || fail "healthy $n is not IDLE while the health check runs: $state"
done
pf_slurm scontrol show node $BAD | grep -E 'State=|Reason='

# 5. Fixed: the health check lifts its own drain.
step "giving $BAD's interface its name back"
rename_if ens9 eth0 || fail "cannot rename node2's interface back"
pf_slurm_wait $BAD '^IDLE\|$' 60 || fail "the health check did not resume $BAD: $(pf_slurm_state $BAD)"
pf_slurm srun -N $NODES --time=1 hostname | sort | tr '\n' ' ' | grep -q "node0 node1 node2" ||
  fail "a job on the three nodes after the repair did not run on all of them"
for ((i = 0; i < NODES; i++)); do
  pf_slurm_wait "node$i" '^IDLE\|$' 20 || fail "node$i is not IDLE at the end: $(pf_slurm_state node$i)"
  [ -s "$WORK/out/node$i/preflight.prom" ] || fail "no node_exporter textfile from node$i's health check"
done
pf_slurm sinfo -N -o '%N %T %E'
step "done"
echo "slurm case: PASS"
