#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# HealthCheckProgram wrapper (slurm.conf: HealthCheckProgram=/usr/local/sbin/preflight-healthcheck,
# HealthCheckInterval=300, HealthCheckNodeState=IDLE). slurmd runs it periodically on every node; like NHC,
# the program drains the node itself when something is wrong and resumes it when a drain it set is fixed.
# It also leaves a node_exporter textfile so that the result is on the dashboards.
set -u
PREFLIGHT=${PREFLIGHT:-/usr/local/bin/preflight}
TEXTFILE_DIR=${TEXTFILE_DIR:-/var/lib/prometheus/node-exporter}
node=$(hostname -s)

out=$(timeout 60 "$PREFLIGHT" check --quick --no-pairs --format prometheus --output "$TEXTFILE_DIR/preflight.prom" \
      --json /run/preflight-health.json 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
  # Resume only a drain that this script set (its reason starts with "preflight:"), never an operator's.
  if scontrol show node "$node" | grep -q 'Reason=preflight:'; then
    scontrol update NodeName="$node" State=RESUME
  fi
  exit 0
fi
first=$(printf '%s\n' "$out" | sed -n 's/^FAIL  *[^ ]* \[\(.*\)\].*/\1/p' | head -1)
scontrol update NodeName="$node" State=DRAIN Reason="preflight: ${first:-exit $rc}, see /run/preflight-health.json"
exit 0   # the drain is the action; a non-zero exit would only add noise to slurmd's log
