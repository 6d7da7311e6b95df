#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The whole test command: install what is missing, check file sizes and formatting (.clang-format), build,
# run every test that this machine can run.
# GPU tests skip with a reason where no GPU is present; cluster tests need root (network namespaces).
# The build treats warnings as errors (PF_WERROR) so a new warning fails CI, not a later reader. Then the
# sanitizer stage: a second build with ASan and UBSan, where any report fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ci/install-deps.sh --test
bash ci/check_file_sizes.sh
bash ci/check_user_docs.sh
bash ci/check_format.sh
# Configure with each optional component off, and with none: a subset that fails to configure fails here.
bash ci/configure_matrix.sh
# Tests and benchmarks ON explicitly: a build folder first configured by the README's first command has them OFF.
# Line tables only (-g1) instead of RelWithDebInfo's full -g: GCC's debug info never changes the code it generates,
# so the tests test the same program, and five files compiled in 0.77 of the time, the links in a third, the folder
# in a quarter of the disk (docs/reliability.md, "The normal stage's build"). Stack traces keep file:line.
# PyTorch from PyPI for the test that runs its Flight Recorder analyser beside ours (ci/torch-venv.sh).
torch_python=()
if py=$(bash ci/torch-venv.sh); then torch_python=(-DPF_TORCH_PYTHON="$py"); fi
bash ci/build.sh -DPF_WERROR=ON -DPF_BUILD_TESTS=ON -DPF_BUILD_BENCH=ON "${torch_python[@]}" \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
cd "${BUILD_DIR:-build}"
ctest --output-on-failure -j "$(nproc)" --timeout 600 "$@"
cd - >/dev/null
# The same tests again on an AddressSanitizer + UBSan build (ci/sanitize.sh; a unity build: 11-16 minutes from clean on
# 2 cores, then about 24 minutes of tests, 2026-12-04; docs/reliability.md, "CI's time").
bash ci/sanitize.sh
# The README's first command, verbatim, in a fresh Debian 12 root (debootstrap): what a new user runs first must work
# with only what it installs itself, which the steps above cannot show (they installed the test set first).
bash ci/first_command_fresh.sh
