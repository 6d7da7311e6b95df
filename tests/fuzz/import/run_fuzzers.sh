#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds and runs the nccl-tests importer's libFuzzer targets (see CMakeLists.txt here).
#   run_fuzzers.sh build CLANGXX OUTDIR SRCROOT "CORE SOURCES"
#   run_fuzzers.sh run BINARY CORPUS SECONDS
# Exit 77 = skipped (ctest SKIP_RETURN_CODE), with the reason on stdout.
set -eu
mode=$1
if [ "$mode" = build ]; then
  cxx=$2 out=$3 src=$4 sources=$5
  if [ -z "$cxx" ] || [ ! -x "$(command -v "$cxx" 2>/dev/null || echo /nonexistent)" ]; then
    echo "SKIP: clang++ not found; install clang (Debian package 'clang') to build the libFuzzer targets"
    exit 77
  fi
  probe=$out/probe_fuzzer.cpp
  printf '#include <cstdint>\n#include <cstddef>\nextern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t){return 0;}\n' > "$probe"
  if ! "$cxx" -fsanitize=fuzzer "$probe" -o "$out/probe_fuzzer" 2> "$out/probe.log"; then
    echo "SKIP: $cxx cannot link -fsanitize=fuzzer (libFuzzer runtime missing):"; cat "$out/probe.log"
    exit 77
  fi
  # The importer lives in pf_core; the core sources it needs are compiled here with the sanitizers (and
  # coverage), rather than linked from the GCC-built library, so the fuzzer sees inside them.
  flags="-std=c++20 -O1 -g -Wall -Wextra -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
  incs="-I$src/core/include -I$src/core/src/import"
  objs=""
  newest_hdr=$(ls -t "$src"/core/include/pf/*.hpp "$src"/core/src/import/*.hpp | head -1)
  for s in $sources; do
    o=$out/$(basename "$s" .cpp).o
    if [ ! -f "$o" ] || [ "$s" -nt "$o" ] || [ "$newest_hdr" -nt "$o" ]; then
      "$cxx" $flags $incs -c "$s" -o "$o"
    fi
    objs="$objs $o"
  done
  for t in text json; do
    "$cxx" $flags $incs "$src/tests/fuzz/import/fuzz_import_$t.cpp" $objs -lfmt -o "$out/fuzz_import_$t"
  done
  echo "built fuzz_import_text fuzz_import_json in $out"
  exit 0
fi
if [ "$mode" = run ]; then
  bin=$2 corpus=$3 secs=$4
  if [ ! -x "$bin" ]; then
    echo "SKIP: $bin was not built (see pf_import_fuzz_build's output)"
    exit 77
  fi
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  cp -r "$corpus"/. "$work"/
  # -error_exitcode: libFuzzer exits 77 on a crash by default, which ctest would read as "skipped".
  # -timeout: one input taking over 10 s is a hang.
  "$bin" -error_exitcode=1 -timeout=10 -artifact_prefix="$(dirname "$bin")/" -max_total_time="$secs" -max_len=65536 \
    -rss_limit_mb=2048 -print_final_stats=1 "$work"
  exit $?
fi
echo "usage: run_fuzzers.sh build|run ..." >&2
exit 2
