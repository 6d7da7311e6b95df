#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Slurm Prolog (slurm.conf: Prolog=/etc/slurm/prolog.d/preflight.sh, PrologFlags=Alloc): runs as root on every
# node of a new allocation before the job starts. A non-zero exit makes Slurm drain the node and requeue the
# job, so a node with a missing HCA, a wrong NCCL interface or a 64 MB /dev/shm never receives a job.
#
# A prolog sees one node, so it runs the node-local part of the gate: the probes (and, with more than one
# local rank, a quick all-reduce through shared memory). The cross-node parts (pair matrix, fabric all-reduce)
# belong in the job's first step: see train.sbatch.
set -u
PREFLIGHT=${PREFLIGHT:-/usr/local/bin/preflight}
# Where the PSM libraries are installed, libinfinipath (loaded with preflight) turns a SIGTERM that arrives while
# the libraries load into exit 1; slurmd's SIGTERM to the prolog of a cancelled job must not read as a failed check.
export IPATH_NO_BACKTRACE=1
OUT_DIR=${PREFLIGHT_OUT:-/var/log/preflight}
mkdir -p "$OUT_DIR"
doc="$OUT_DIR/prolog-${SLURM_JOB_ID:-nojob}.json"
# The first failing check and its finding, e.g. "check.probe.net: NCCL_SOCKET_IFNAME==eth0 matches no interface
# with an IP address on this node ...", cut to fit a node's Reason in `sinfo -R`.
first_failure() {
  awk '/^FAIL  *[^ ]* \[/ { match($0, /\[[^]]*\]/); r = substr($0, RSTART + 1, RLENGTH - 2)
       if ((getline m) > 0 && m ~ /^  /) { sub(/^ *[^ :]*: /, "", m); r = r ": " m }
       print (length(r) > 160 ? substr(r, 1, 157) "..." : r); exit }'
}

# Prologs must be quick: bound the whole run (timeout's exit 124, or 137 after the KILL that follows a TERM left
# unanswered, is treated as a failure below).
# An Xid stays in the kernel log until the node reboots: PREFLIGHT_XID_SINCE (a duration such as 2h, or the time the
# node was last reset, 2026-12-02T10:00:00Z) judges only those logged since then, so an Xid that drained the node
# once does not drain it again after it was reset and resumed (docs/check.md, "Health signals").
xid=()
[ -n "${PREFLIGHT_XID_SINCE:-}" ] && xid=(--xid-since "$PREFLIGHT_XID_SINCE")
timeout -k 10 60 "$PREFLIGHT" check --quick --no-pairs "${xid[@]}" --json "$doc" >"$OUT_DIR/prolog.log" 2>&1
rc=$?
[ $rc -eq 0 ] && exit 0
first=$(first_failure <"$OUT_DIR/prolog.log")
# Exit 1 with no FAIL line is not a verdict (a process stopped by a signal can end that way): say so.
if [ $rc -eq 1 ] && [ -n "$first" ]; then
  reason="preflight: $first"
else
  reason="preflight: could not run (exit $rc), see $OUT_DIR/prolog.log"
fi
# Slurm drains the node itself when the prolog fails, but its reason says only "Prolog error" (our message goes to
# slurmd's log). Draining it first with our reason puts the evidence in `sinfo -R` and `scontrol show node`; Slurm
# keeps the reason of a node that is already draining.
echo "$reason" >&2
# SLURMD_NODENAME is set when slurmd runs the prolog (not when an operator tries it by hand).
if [ -n "${SLURMD_NODENAME:-}" ] && command -v scontrol >/dev/null; then
  scontrol update NodeName="$SLURMD_NODENAME" State=DRAIN Reason="$reason" >&2
fi
exit 1
