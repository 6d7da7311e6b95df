#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what Preflight needs from Debian 12's packages. Idempotent: installs only what is missing, and runs
# `apt-get update` only when something is. Run as root (or through sudo).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config
  clang-format                        # ci/check_format.sh (Debian 12: clang-format 14)
  openmpi-bin libopenmpi-dev          # launcher and host collectives
  libfmt-dev nlohmann-json3-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-jsonschema          # schema validation of result documents in tests
  iproute2 util-linux procps          # simulated multi-node cluster (ip netns, unshare), tests
)
# Extra package sets for later components; each is added by the component that needs it.
if [[ -f "$(dirname "$0")/packages.extra" ]]; then
  while read -r p; do [[ -n "$p" && "$p" != \#* ]] && packages+=("$p"); done < "$(dirname "$0")/packages.extra"
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi
SUDO=""
[[ $(id -u) -ne 0 ]] && SUDO="sudo"
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
