#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Copyright (c) 2026 The Preflight authors
#
# Open MPI's rsh agent for the simulated cluster (tests/cluster/cluster.sh). Open MPI calls it as ssh:
#   cluster-agent.sh [ssh options] HOST COMMAND...
# It drops the ssh options, finds HOST's namespace in $PF_CLUSTER_NODEMAP (lines "name namespace address";
# HOST may be the name or the address), and runs COMMAND there through a shell, as sshd would, under a fresh UTS
# namespace whose hostname is the node's name (so every node reports its own hostname).
#   cluster-agent.sh --self NAME COMMAND...   sets this (already unshared) process's hostname and runs COMMAND
if [ "$1" = "--self" ]; then
  hostname "$2" || exit 1
  shift 2
  exec "$@"
fi
while [ $# -gt 0 ]; do
  case "$1" in
    -o|-p|-l|-i|-F|-E|-J) shift 2 ;;   # ssh options with a value
    -*) shift ;;                      # flags such as -x, -T, -q
    *) break ;;
  esac
done
host=$1
shift
[ -n "$PF_CLUSTER_NODEMAP" ] && [ -r "$PF_CLUSTER_NODEMAP" ] || {
  echo "cluster-agent: PF_CLUSTER_NODEMAP is unset or unreadable" >&2; exit 255; }
line=$(awk -v h="$host" '$1 == h || $3 == h { print; exit }' "$PF_CLUSTER_NODEMAP")
[ -n "$line" ] || { echo "cluster-agent: unknown host '$host' (not in $PF_CLUSTER_NODEMAP)" >&2; exit 255; }
set -- "$line" "$*"
name=$(echo "$1" | awk '{print $1}')
ns=$(echo "$1" | awk '{print $2}')
exec ip netns exec "$ns" unshare --uts sh -c 'hostname "$1"; exec sh -c "$2"' agent "$name" "$2"
