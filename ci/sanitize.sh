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
BUILD_DIR=$dir BUILD_TYPE=RelWithDebInfo bash ci/build.sh -DPF_SANITIZE=address,undefined \
  -DPF_WITH_CUDA=OFF -DPF_WITH_NCCL=OFF -DPF_WITH_QT=OFF -DPF_BUILD_BENCH=OFF "$@"
# Leaks: Open MPI, PMIx and hwloc keep allocations until exit by design; tests/sanitizers/lsan.supp names
# only those libraries, so a leak in Preflight's own code still fails. Open MPI's plugins stay loaded
# (it unloads them at MPI_Finalize otherwise), so their leaks keep a module name too.
export OMPI_MCA_mca_base_component_disable_dlclose=1
# The slow unwinder (fast_unwind_on_malloc=0): Open MPI's libraries have no frame pointers, so the fast one stops
# after one frame and a leak's stack names no library ("<unknown module>") for a suppression to match.
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=0:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:fast_unwind_on_malloc=0}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/sanitizers/lsan.supp:print_suppressions=0:fast_unwind_on_malloc=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cd "$dir"
# fault.check.signal_defaults runs in the normal stage only: it sends SIGTERM as soon as a second thread exists,
# and in this build that can be before main (where only a library's pre-main handler runs, which the test leaves
# out of scope); in CI it hung there once (2026-11-24), not investigated further.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
ctest --output-on-failure -j "$(nproc)" --timeout 900 -L 'unit|cli|integration|mpi' -LE 'gpu|fuzz|cluster|browser|gui' \
  -E '^fault\.check\.signal_defaults$' 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
set -e
((rc == 0)) && exit 0
# LeakSanitizer's own tracer can crash at a process's exit ("Tracer caught signal 11 ... LeakSanitizer has
# encountered a fatal error", google/sanitizers#1353): a fault of the checker, not a report on our code. On this
# machine it began to crash in rank 0 of sweep.local_ranks on every run (2026-11-24, from one hour to the next, on
# a build that had passed), and passes with the leak check off. When every failed test's output says exactly
# that, those tests run again with the leak check off (ASan and UBSan still on); any other failure fails the
# stage as it is.
if [[ $(bash "$root/ci/lsan_tracer_only.sh" "$log") == yes ]]; then
  echo "sanitize: every failure above is LeakSanitizer's tracer crashing (google/sanitizers#1353);" \
    "running them again without the leak check"
  ASAN_OPTIONS=${ASAN_OPTIONS//detect_leaks=1/detect_leaks=0} ctest --output-on-failure --rerun-failed --timeout 900
else
  exit "$rc"
fi
