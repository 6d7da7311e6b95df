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
OUT_DIR=${PREFLIGHT_OUT:-/var/log/preflight}
mkdir -p "$OUT_DIR"
doc="$OUT_DIR/prolog-${SLURM_JOB_ID:-nojob}.json"

# Prologs must be quick: bound the whole run (exit 4 from timeout is treated as a failure below).
timeout 60 "$PREFLIGHT" check --quick --no-pairs --json "$doc" >"$OUT_DIR/prolog.log" 2>&1
rc=$?
case $rc in
  0) exit 0 ;;
  1) reason="preflight: $(sed -n 's/^FAIL  *[^ ]* \[\(.*\)\].*/\1/p' "$OUT_DIR/prolog.log" | head -1)" ;;
  *) reason="preflight: could not run (exit $rc), see $OUT_DIR/prolog.log" ;;
esac
# Slurm drains the node itself when the prolog fails; the reason line helps the operator find the evidence.
echo "$reason" >&2
exit 1
