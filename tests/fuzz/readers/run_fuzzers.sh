#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds and runs the libFuzzer targets for the readers of outside input (see CMakeLists.txt here).
#   run_fuzzers.sh build CLANGXX OUTDIR SRCROOT "SOURCES"
#   run_fuzzers.sh run BINARY CORPUS SECONDS [MORE_CORPUS...]
# Exit 77 = skipped (ctest SKIP_RETURN_CODE), with the reason on stdout.
set -eu
. "$(dirname "$0")/../fuzz_common.sh"
targets="report thresholds launch_env nccl_conf procfs"
if [ "$1" = build ]; then
  cxx=$2 out=$3 src=$4 sources=$5
  require_libfuzzer "$cxx" "$out"
  flags=$PF_FUZZ_FLAGS
  incs="-I$src/core/include -I$src/check -I$src/probes -I$src/tests/fuzz/readers"
  newest_hdr=$(ls -t "$src"/core/include/pf/*.hpp "$src"/check/*.hpp "$src"/probes/*.hpp "$src"/probes/*/*.hpp | head -1)
  # shellcheck disable=SC2086
  compile_objects "$cxx" "$flags" "$incs" "$out" "$newest_hdr" $sources
  # One archive: each target takes only the members it needs.
  rm -f "$out/libreaders.a"
  # shellcheck disable=SC2086
  ar rcs "$out/libreaders.a" $objs
  for t in $targets; do
    "$cxx" $flags $incs "$src/tests/fuzz/readers/fuzz_$t.cpp" "$out/libreaders.a" -lfmt -o "$out/fuzz_$t"
  done
  echo "built $targets (fuzz_*) in $out"
  exit 0
fi
fuzz_run_mode "$@"
