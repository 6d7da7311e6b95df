#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Builds and runs the doctor's libFuzzer targets (see CMakeLists.txt here).
#   run_fuzzers.sh build CLANGXX OUTDIR SRCROOT LIBPFCORE "DOCTOR SOURCES"
#   run_fuzzers.sh run BINARY CORPUS SECONDS
# Exit 77 = skipped (ctest SKIP_RETURN_CODE), with the reason on stdout.
set -eu
mode=$1
if [ "$mode" = build ]; then
  cxx=$2 out=$3 src=$4 core=$5 sources=$6
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
  # The project's warnings (cmake/PfTargetDefaults.cmake); not -Werror: clang's set differs from the gcc one CI enforces.
  flags="-std=c++20 -O1 -g -Wall -Wextra -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"
  incs="-I$src/doctor -I$src/core/include"
  # The doctor sources are compiled once into objects shared by the three targets; an object newer than its
  # source and every doctor header is reused, so repeated ctest runs do not recompile.
  objs=""
  newest_hdr=$(ls -t "$src"/doctor/*.hpp | head -1)
  for s in $sources; do
    o=$out/$(basename "$s" .cpp).o
    if [ ! -f "$o" ] || [ "$s" -nt "$o" ] || [ "$newest_hdr" -nt "$o" ]; then
      "$cxx" $flags $incs -c "$s" -o "$o"
    fi
    objs="$objs $o"
  done
  for t in normalizer analyze rules; do
    "$cxx" $flags $incs "$src/tests/fuzz/doctor/fuzz_$t.cpp" $objs "$core" -lfmt -o "$out/fuzz_$t"
  done
  echo "built fuzz_normalizer fuzz_analyze fuzz_rules in $out"
  exit 0
fi
if [ "$mode" = run ]; then
  bin=$2 corpus=$3 secs=$4
  if [ ! -x "$bin" ]; then
    echo "SKIP: $bin was not built (see pf_doctor_fuzz_build's output)"
    exit 77
  fi
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  cp -r "$corpus"/. "$work"/
  # -error_exitcode: libFuzzer exits 77 on a crash by default, which ctest would read as "skipped".
  "$bin" -error_exitcode=1 -artifact_prefix="$(dirname "$bin")/" -max_total_time="$secs" -max_len=65536 -rss_limit_mb=2048 -print_final_stats=1 "$work"
  exit $?
fi
echo "usage: run_fuzzers.sh build|run ..." >&2
exit 2
