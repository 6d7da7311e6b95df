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
  # The project's warnings (cmake/PfTargetDefaults.cmake); not -Werror: clang's set differs from the gcc one CI enforces.
  flags="-std=c++20 -O1 -g -Wall -Wextra -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
  incs="-I$src/doctor -I$src/core/include"
  # The doctor sources are compiled once into objects shared by the three targets; an object newer than its
  # source and every doctor header is reused, so repeated ctest runs do not recompile.
  newest_hdr=$(ls -t "$src"/doctor/*.hpp | head -1)
  # shellcheck disable=SC2086
  compile_objects "$cxx" "$flags" "$incs" "$out" "$newest_hdr" $sources
  for t in normalizer analyze rules; do
    "$cxx" $flags $incs "$src/tests/fuzz/doctor/fuzz_$t.cpp" $objs "$core" -lfmt -o "$out/fuzz_$t"
  done
  echo "built fuzz_normalizer fuzz_analyze fuzz_rules in $out"
  exit 0
fi
if [ "$mode" = run ]; then
  run_fuzzer "$2" "$3" "$4"
fi
echo "usage: run_fuzzers.sh build|run ..." >&2
exit 2
