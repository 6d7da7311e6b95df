#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What `ci/install-deps.sh` (the base set) and `ci/install-deps.sh --test` would install on a fresh Debian 12,
# computed by apt without installing anything: apt resolves the same package lists against a dpkg status that
# holds only the packages a minimal Debian 12 has (Priority: required and Essential, as debootstrap's minbase),
# taken from this machine's own status. Prints, per set: packages installed, download size, and whether any
# Python or Prometheus package is among them. The apt lists must be current (apt-get update).
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/archives/partial"
# The minimal system: the installed packages that are Priority: required or Essential, plus what they depend
# on (apt-cache's closure, alternatives included, so it may hold a few packages more than debootstrap's minbase).
required=$(awk 'BEGIN { RS = "" } /\nStatus: install ok installed/ && (/\nPriority: required/ || /\nEssential: yes/) {
  split($0, line, "\n"); sub("Package: ", "", line[1]); print line[1] }' /var/lib/dpkg/status)
# shellcheck disable=SC2086
apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
  $required 2>/dev/null | grep -v '^[ <]' | sort -u >"$work/closure"
awk 'NR == FNR { keep[$1] = 1; next }
     { split($0, line, "\n"); name = line[1]; sub("Package: ", "", name) }
     (name in keep) && /\nStatus: install ok installed/ { print $0 "\n" }' "$work/closure" RS= /var/lib/dpkg/status \
  >"$work/status"
apt_opts=(-o Dir::State::status="$work/status" -o Dir::Cache::archives="$work/archives"
  -o Debug::NoLocking=1 --no-install-recommends)
measure() {  # measure NAME PACKAGE...
  local name=$1; shift
  local inst bytes
  inst=$(apt-get -s "${apt_opts[@]}" install "$@" 2>/dev/null | grep '^Inst ' | awk '{print $2}')
  bytes=$(apt-get --print-uris -qq "${apt_opts[@]}" install "$@" 2>/dev/null | awk '{s += $3} END {print s + 0}')
  printf '%-10s %4d packages, %6.1f MB to download; python: %s, prometheus: %s\n' "$name" "$(wc -l <<<"$inst")" \
    "$(awk -v b="$bytes" 'BEGIN {print b / 1e6}')" \
    "$(grep -c '^python3' <<<"$inst" || true)" "$(grep -c '^prometheus' <<<"$inst" || true)"
}
echo "minimal Debian 12: $(grep -c '^Package:' "$work/status") packages (required + Essential and their dependencies, from this machine)"
mapfile -t base < <(bash ci/install-deps.sh --list)
mapfile -t full < <(bash ci/install-deps.sh --list --test)
measure base "${base[@]}"
measure "--test" "${full[@]}"
