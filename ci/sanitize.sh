#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The sanitizer stage of the test command: a second build with AddressSanitizer and UBSan (PF_SANITIZE) in
# ${SAN_BUILD_DIR:-build-asan}, then the unit, CLI and integration tests on it. Any ASan or UBSan report ends
# the process that made it with a non-zero exit, which fails its test.
# Warnings are the main build's business (-Werror there); this one only looks for what the sanitizers find.
# Left out, and why: the GPU tests (no GPU here; CUDA is not built), the fuzz targets (already built with
# -fsanitize=fuzzer,address,undefined by clang), the cluster tests (network namespaces: the same code as the
# integration tests, and their time), the viewer and browser tests (Qt and Chromium are not ours to check).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
dir=${SAN_BUILD_DIR:-build-asan}
# -O1 -g1 instead of RelWithDebInfo's -O2 -g: code generation is most of an instrumented file's compile time
# (87% of reports/text/probe_text.cpp, `-ftime-report`), and -O1 with line tables only (enough for the
# sanitizers' stack traces, file:line) halves it: 30.5 s -> 15.0 s for that file; the whole stage's time is in
# docs/reliability.md. -O1 is what AddressSanitizer's own documentation suggests.
# A unity build (CMake joins up to 16 sources of a target into one translation unit): the same code, instrumented
# the same way, in half the CPU time: each group parses the shared headers (fmt, nlohmann/json, CLI11, GoogleTest)
# and generates their templates' code once, not once per file (docs/reliability.md, "The sanitizer stage's build"). The
# normal stage keeps one file per unit, so a source that misses an include still fails there. Helpers in
# anonymous namespaces must therefore have names of their own within a target: two `upper()`s in one group are
# a redefinition here.
BUILD_DIR=$dir BUILD_TYPE=RelWithDebInfo bash ci/build.sh -DPF_SANITIZE=address,undefined \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16 \
  -DPF_WITH_CUDA=OFF -DPF_WITH_NCCL=OFF -DPF_WITH_QT=OFF -DPF_BUILD_BENCH=OFF "$@"
# Leaks: Open MPI, PMIx and hwloc keep allocations until exit by design; tests/sanitizers/lsan.supp names
# only those libraries, so a leak in Preflight's own code still fails. Open MPI's plugins stay loaded
# (it unloads them at MPI_Finalize otherwise), so their leaks keep a module name too.
export OMPI_MCA_mca_base_component_disable_dlclose=1
# The slow unwinder (fast_unwind_on_malloc=0): Open MPI's libraries have no frame pointers, so the fast one stops
# after one frame and a leak's stack names no library ("<unknown module>") for a suppression to match.
# intercept_tls_get_addr=0: with it on, GCC 12's runtime records a bogus range for the dynamic TLS of a module
# that Open MPI loads (seen with LSAN_OPTIONS=verbosity=1:log_threads=1 as "DTLS 8 at 0x000000004ed4-0x000400005fd6")
# and LeakSanitizer's tracer faults reading it at exit ("Tracer caught signal 11: addr=0x4ed8"); every 3-rank
# sweep died so (2026-11-27). Off, the leak check still scans every thread's stack and static TLS, which hold
# Preflight's own pointers; only the dynamic TLS of dlopen'ed modules (Open MPI's plugins) goes unscanned.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:fast_unwind_on_malloc=0:intercept_tls_get_addr=0}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0:fast_unwind_on_malloc=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
# Tests that also judge timing (compare.healthy_and_planted) leave that half to the normal stage: instrumented
# code on a busy machine is not what they measure. compare.healthy_and_planted failed in CI on 2026-11-27 with
# no ASan, LSan or UBSan message that the log showed; a flagged healthy pair is its one timing-dependent failure.
export PF_SANITIZER_STAGE=1
cd "$dir"
# fault.check.signal_defaults runs in the normal stage only: it sends SIGTERM as soon as a second thread exists,
# and in this build that can be before main (where only a library's pre-main handler runs, which the test leaves
# out of scope); in CI it hung there once (2026-11-24), not investigated further.
# The 4-rank matrix sweeps (sweep.*.np4) run in the normal stage only: 2 ranks already take the even split and 3
# the uneven one through the same code, and under the sanitizers each took 13-135 s (398 s for the seven, 2026-12-04).
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
ctest --output-on-failure -j "$(nproc)" --timeout 900 -L 'unit|cli|integration|mpi' -LE 'gpu|fuzz|cluster|browser|gui' \
  -E '^(fault\.check\.signal_defaults|sweep\.[a-z_]+\.np4)$' 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
((rc == 0)) && exit 0
# LeakSanitizer's own tracer can crash at a process's exit ("Tracer caught signal 11 ... LeakSanitizer has
# encountered a fatal error", google/sanitizers#1353): a fault of the checker, not a report on our code. On this
# machine it began to crash in rank 0 of sweep.local_ranks on every run (2026-11-24, from one hour to the next, on
# a build that had passed), and passes with the leak check off. The cause found since (2026-11-27) is the dynamic
# TLS range above, which intercept_tls_get_addr=0 removes; this rerun stays for a tracer crash of another cause.
# When every failed test's output says exactly that, those tests run again with the leak check off (ASan and
# UBSan still on); any other failure fails the stage as it is.
if [[ $(bash "$root/ci/lsan_tracer_only.sh" "$log") == yes ]]; then
  echo "sanitize: every failure above is LeakSanitizer's tracer crashing (google/sanitizers#1353);" \
    "running them again without the leak check"
  ASAN_OPTIONS=${ASAN_OPTIONS//detect_leaks=1/detect_leaks=0} ctest --output-on-failure --rerun-failed --timeout 900
else
  exit "$rc"
fi
