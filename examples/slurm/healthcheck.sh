#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# HealthCheckProgram wrapper (slurm.conf: HealthCheckProgram=/usr/local/sbin/preflight-healthcheck,
# HealthCheckInterval=300, HealthCheckNodeState=IDLE). slurmd runs it periodically on every node; like NHC,
# the program drains the node itself when something is wrong and resumes it when a drain it set is fixed.
# It also leaves a node_exporter textfile so that the result is on the dashboards.
set -u
PREFLIGHT=${PREFLIGHT:-/usr/local/bin/preflight}
# Where the PSM libraries are installed, libinfinipath (loaded with preflight) turns a SIGTERM that arrives while
# the libraries load into exit 1; slurmd's SIGTERM to the prolog of a cancelled job must not read as a failed check.
export IPATH_NO_BACKTRACE=1
TEXTFILE_DIR=${TEXTFILE_DIR:-/var/lib/prometheus/node-exporter}
HEALTH_JSON=${PREFLIGHT_HEALTH_JSON:-/run/preflight-health.json}
node=$(hostname -s)
# The first failing check and its finding, e.g. "check.probe.net: NCCL_SOCKET_IFNAME==eth0 matches no interface
# with an IP address on this node ...", cut to fit a node's Reason in `sinfo -R`.
first_failure() {
  awk '/^FAIL  *[^ ]* \[/ { match($0, /\[[^]]*\]/); r = substr($0, RSTART + 1, RLENGTH - 2)
       if ((getline m) > 0 && m ~ /^  /) { sub(/^ *[^ :]*: /, "", m); r = r ": " m }
       print (length(r) > 160 ? substr(r, 1, 157) "..." : r); exit }'
}

# The summary on stdout names the failing check; the node_exporter textfile is rendered from the same document
# (a --format prometheus run would print no summary to read the reason from).
rm -f "$HEALTH_JSON"
out=$(timeout -k 10 60 "$PREFLIGHT" check --quick --no-pairs --json "$HEALTH_JSON" 2>&1)
rc=$?
[ -s "$HEALTH_JSON" ] &&
  "$PREFLIGHT" report "$HEALTH_JSON" --format prometheus --output "$TEXTFILE_DIR/preflight.prom" >/dev/null 2>&1
if [ $rc -eq 0 ]; then
  # Resume only a drain that this script set (its reason starts with "preflight:"), never an operator's.
  if scontrol show node "$node" | grep -q 'Reason=preflight:'; then
    scontrol update NodeName="$node" State=RESUME
  fi
  exit 0
fi
first=$(printf '%s\n' "$out" | first_failure)
scontrol update NodeName="$node" State=DRAIN Reason="preflight: ${first:-exit $rc}, see $HEALTH_JSON"
exit 0   # the drain is the action; a non-zero exit would only add noise to slurmd's log
