#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds and runs the nccl-tests importer's libFuzzer targets (see CMakeLists.txt here).
#   run_fuzzers.sh build CLANGXX OUTDIR SRCROOT "CORE SOURCES"
#   run_fuzzers.sh run BINARY CORPUS SECONDS
# Exit 77 = skipped (ctest SKIP_RETURN_CODE), with the reason on stdout.
set -eu
. "$(dirname "$0")/../fuzz_common.sh"
mode=$1
if [ "$mode" = build ]; then
  cxx=$2 out=$3 src=$4 sources=$5
  require_libfuzzer "$cxx" "$out"
  # The importer lives in pf_core; the core sources it needs are compiled here with the sanitizers (and
  # coverage), rather than linked from the GCC-built library, so the fuzzer sees inside them.
  flags=$PF_FUZZ_FLAGS
  incs="-I$src/core/include -I$src/core/src/import"
  newest_hdr=$(ls -t "$src"/core/include/pf/*.hpp "$src"/core/src/import/*.hpp | head -1)
  # shellcheck disable=SC2086
  compile_objects "$cxx" "$flags" "$incs" "$out" "$newest_hdr" $sources
  for t in text json; do
    "$cxx" $flags $incs "$src/tests/fuzz/import/fuzz_import_$t.cpp" $objs -lfmt -o "$out/fuzz_import_$t"
  done
  echo "built fuzz_import_text fuzz_import_json in $out"
  exit 0
fi
fuzz_run_mode "$@"
