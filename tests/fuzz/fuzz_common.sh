# SPDX-License-Identifier: Apache-2.0
# Shared by the libFuzzer scripts (doctor/, import/): sourced, not run.
#   require_libfuzzer CLANGXX OUTDIR   exits 77 (ctest's "skipped") with the reason when clang++ or libFuzzer is missing
#   run_fuzzer BINARY CORPUS SECONDS [CORPUS...]   runs one target on a copy of the seed folders (all merged into
#                                      one working corpus) for a bounded time; exits with its code
#   fuzz_run_mode run BINARY CORPUS SECONDS [CORPUS...]   a script's "run" mode; any other mode is a usage error
#   PF_FUZZ_FLAGS                      clang++ flags of every target: the project's warnings (not -Werror: clang's
#                                      set differs from the gcc one CI enforces) and the sanitizers

PF_FUZZ_FLAGS="-std=c++20 -O1 -gline-tables-only -Wall -Wextra -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined"

require_libfuzzer() {
  if [ -z "$1" ] || [ ! -x "$(command -v "$1" 2>/dev/null || echo /nonexistent)" ]; then
    echo "SKIP: clang++ not found; install clang (Debian package 'clang') to build the libFuzzer targets"
    exit 77
  fi
  printf '#include <cstdint>\n#include <cstddef>\nextern "C" int LLVMFuzzerTestOneInput(const uint8_t*, size_t){return 0;}\n' > "$2/probe_fuzzer.cpp"
  if ! "$1" -fsanitize=fuzzer "$2/probe_fuzzer.cpp" -o "$2/probe_fuzzer" 2> "$2/probe.log"; then
    echo "SKIP: $1 cannot link -fsanitize=fuzzer (libFuzzer runtime missing):"; cat "$2/probe.log"
    exit 77
  fi
}

run_fuzzer() {
  if [ ! -x "$1" ]; then
    echo "SKIP: $1 was not built (see the fuzz build test's output)"
    exit 77
  fi
  bin=$1 seconds=$3
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  cp -r "$2"/. "$work"/
  shift 3
  for more in "$@"; do cp -r "$more"/. "$work"/; done
  # -error_exitcode: libFuzzer exits 77 on a crash by default, which ctest would read as "skipped".
  # -timeout: one input taking over 10 s is a hang. -max_len: 1 MiB, so deep nesting (thousands of levels) and
  # numbers of thousands of digits are inputs the fuzzer can reach.
  "$bin" -error_exitcode=1 -timeout=10 -artifact_prefix="$(dirname "$bin")/" -max_total_time="$seconds" \
    -max_len=1048576 -rss_limit_mb=2048 -print_final_stats=1 "$work"
  exit $?
}

# compile_objects CXX "FLAGS" "INCLUDES" OUTDIR NEWEST_HEADER SOURCE...: compiles the sources in groups of 16, in
# the order given, each group one translation unit (OUTDIR/unity_K.cpp includes them), as the sanitizer
# stage's unity build does: the shared headers (fmt, nlohmann/json) are parsed and their templates' code generated
# once per group, not once per source, which is most of an instrumented compile's time. An object is reused while
# it is newer than its group's sources and than NEWEST_HEADER, and its group still lists the same sources (so
# repeated ctest runs do not recompile); sets $objs. Groups compile nproc at a time, through ccache where it is
# installed. With one object per source, one after another, the doctor's 55 sources took about 600 s on the
# 2-core CI machine, the test's whole limit once (docs/reliability.md, "CI's time").
compile_objects() {
  cc=$1 cflags=$2 cincs=$3 cout=$4 newest=$5
  shift 5
  # ccache's paths relative to the checkout (as ci/build.sh sets them), and the groups include their sources by
  # relative paths, so another clone of the same sources hits the same entries.
  if command -v ccache >/dev/null 2>&1; then
    cc="ccache $cc"
    export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$(cd "$(dirname "$0")/../../.." && pwd)}" CCACHE_NOHASHDIR=1
  fi
  width=$(nproc 2>/dev/null || echo 2)
  objs="" pids="" running=0 failed=0 group=0
  while [ $# -gt 0 ]; do
    group=$((group + 1))
    u=$cout/unity_$group.cpp o=$cout/unity_$group.o stale=0
    : > "$u.new"
    n=0
    while [ $# -gt 0 ] && [ $n -lt 16 ]; do
      printf '#include "%s"\n' "$(realpath --relative-to="$cout" "$1")" >> "$u.new"
      [ -f "$o" ] && [ "$1" -nt "$o" ] && stale=1
      n=$((n + 1))
      shift
    done
    if cmp -s "$u.new" "$u"; then rm -f "$u.new"; else mv "$u.new" "$u"; stale=1; fi
    if [ "$stale" = 1 ] || [ ! -f "$o" ] || [ "$newest" -nt "$o" ]; then
      $cc $cflags $cincs -c "$u" -o "$o" &
      pids="$pids $!" running=$((running + 1))
      if [ "$running" -ge "$width" ]; then
        for p in $pids; do wait "$p" || failed=1; done
        pids="" running=0
      fi
    fi
    objs="$objs $o"
  done
  for p in $pids; do wait "$p" || failed=1; done
  if [ "$failed" != 0 ]; then
    echo "compile_objects: a group of sources failed to compile (the compiler's message is above)"
    exit 1
  fi
}

fuzz_run_mode() {
  if [ "$1" = run ]; then
    shift
    run_fuzzer "$@"
  fi
  echo "usage: run_fuzzers.sh build|run ..." >&2
  exit 2
}
