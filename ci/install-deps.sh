#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs what Preflight needs from Debian 12's packages. Idempotent: installs only what is missing, and runs
# `apt-get update` only when something is. Run as root (or through sudo).
#   bash ci/install-deps.sh          the base set: build `preflight` and run `preflight check` (the README's
#                                    first command); optional components stay AUTO-disabled
#   bash ci/install-deps.sh --test   the base set, the test set below and ci/packages.extra: what ci/test.sh needs
#   bash ci/install-deps.sh --list [--test]   print the package names and install nothing (ci/deps-size.sh)
set -euo pipefail

test_set=0 list=0
for arg in "$@"; do
  case $arg in
    --test) test_set=1 ;;
    --list) list=1 ;;
    *) echo "install-deps: unknown argument '$arg' (use --test and/or --list)" >&2; exit 2 ;;
  esac
done

packages=(
  build-essential cmake ninja-build pkg-config
  openmpi-bin libopenmpi-dev          # launcher and host collectives: `check --local-ranks N` starts ranks through mpirun
  libfmt-dev nlohmann-json3-dev libcli11-dev
  libcpptoml-dev                      # check: the threshold file's TOML reader (header only)
  zlib1g-dev libzstd-dev              # doctor: reads .gz and .zst logs, decompressed while streaming
  libsqlite3-dev                      # check --history and `preflight history`: the history file (PF_WITH_SQLITE)
)
if ((test_set)); then
  packages+=(
    clang-format                      # ci/check_format.sh (Debian 12: clang-format 14)
    libgtest-dev libgmock-dev libbenchmark-dev
    python3 python3-jsonschema        # schema validation of result documents in tests
    python3-venv                      # ci/torch-venv.sh: PyTorch from PyPI for the Flight Recorder cross-check
    iproute2 util-linux procps        # simulated multi-node cluster (ip netns, unshare), tests
  )
  # Optional components and the tools their tests need; each is added by the component that needs it.
  if [[ -f "$(dirname "$0")/packages.extra" ]]; then
    while read -r p; do [[ -n "$p" && "$p" != \#* ]] && packages+=("$p"); done < "$(dirname "$0")/packages.extra"
  fi
fi
if ((list)); then
  printf '%s\n' "${packages[@]}"
  exit 0
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
