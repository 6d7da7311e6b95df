#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configures and builds Preflight into ${BUILD_DIR:-build}. CUDA and NCCL are picked up from /usr/local/cuda
# when present (PF_WITH_*=AUTO); pass extra CMake arguments after the script name.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo} "$@"
cmake --build "$BUILD_DIR" -j "$(nproc)"
