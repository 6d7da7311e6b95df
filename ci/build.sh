#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Configures and builds Preflight into ${BUILD_DIR:-build}. CUDA and NCCL are picked up from /usr/local/cuda
# when present (PF_WITH_*=AUTO); pass extra CMake arguments after the script name.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
# ccache, where installed, keeps a second build (the sanitizer stage) or a rebuild from compiling what did not
# change; paths are made relative to the checkout so a clone elsewhere hits the same entries.
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache
    -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo} "${launcher[@]}" "$@"
cmake --build "$BUILD_DIR" -j "$(nproc)"
