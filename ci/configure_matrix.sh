#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configures Preflight with each optional component off in turn, and with all of them off, each in a scratch
# folder: a configure that fails for one subset of the components (as it did with CUDA found and OpenBLAS not:
# the README's first command on a fresh machine) fails this stage and names the subset. Configure only: the
# build of the first command's own subset is ci/first_command_fresh.sh's. Leaves nothing behind.
#   bash ci/configure_matrix.sh [EXTRA CMAKE ARGS]
set -euo pipefail
cd "$(dirname "$0")/.."
components=(MPI CUDA NCCL VERBS LIBFABRIC OPENBLAS QT SQLITE)
scratch=$(mktemp -d /tmp/pf-configure-matrix.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
all_off=()
for c in "${components[@]}"; do all_off+=("-DPF_WITH_$c=OFF"); done
failed=0
configure() {  # NAME ARGS...: one configure; its summary's component lines on success, its log's tail on failure
  local name=$1
  shift
  local dir="$scratch/$name" t0=$SECONDS
  if cmake -S . -B "$dir" -G Ninja -DPF_BUILD_TESTS=ON -DPF_BUILD_BENCH=ON "$@" >"$dir.log" 2>&1; then
    local have
    have=$(grep -E '^--   [A-Z]+	yes' "$dir.log" | awk '{print $2}' | paste -sd' ' -) || true
    echo "configure-matrix: $name: ok in $((SECONDS - t0)) s (built with: ${have:-nothing optional})"
  else
    echo "configure-matrix: $name: FAILED; the end of its log:" >&2
    tail -20 "$dir.log" >&2
    failed=1
  fi
  rm -rf "$dir" "$dir.log"
}
for c in "${components[@]}"; do configure "without-$c" "-DPF_WITH_$c=OFF" "$@"; done
configure "nothing-optional" "${all_off[@]}" "$@"
exit $failed
