#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds and runs the doctor's libFuzzer targets (see CMakeLists.txt here).
#   run_fuzzers.sh build CLANGXX OUTDIR SRCROOT LIBPFCORE "DOCTOR SOURCES"
#   run_fuzzers.sh run BINARY CORPUS SECONDS
# Exit 77 = skipped (ctest SKIP_RETURN_CODE), with the reason on stdout.
set -eu
. "$(dirname "$0")/../fuzz_common.sh"
mode=$1
if [ "$mode" = build ]; then
  cxx=$2 out=$3 src=$4 core=$5 sources=$6
  require_libfuzzer "$cxx" "$out"
  flags=$PF_FUZZ_FLAGS
  incs="-I$src/doctor -I$src/core/include"
  # The doctor sources are compiled once into objects shared by the three targets; an object newer than its
  # source and every doctor header is reused, so repeated ctest runs do not recompile.
  newest_hdr=$(ls -t "$src"/doctor/*.hpp "$src"/doctor/flight_recorder/*.hpp "$src"/doctor/artefacts/*.hpp | head -1)
  # shellcheck disable=SC2086
  compile_objects "$cxx" "$flags" "$incs" "$out" "$newest_hdr" $sources
  for t in normalizer analyze rules fr_pickle artefacts; do
    "$cxx" $flags $incs "$src/tests/fuzz/doctor/fuzz_$t.cpp" $objs "$core" -lfmt -lz -lzstd -o "$out/fuzz_$t"
  done
  echo "built fuzz_normalizer fuzz_analyze fuzz_rules fuzz_fr_pickle fuzz_artefacts in $out"
  exit 0
fi
fuzz_run_mode "$@"
