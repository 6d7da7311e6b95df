#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One command that validates every GPU path of Preflight (issue 15), in two halves:
#
#   ci/gpu_validate.sh pack [DIR]    on a build machine: takes a build (BUILD_DIR, default build/, configured with
#                                    sm_90 among CMAKE_CUDA_ARCHITECTURES) and packs what a bare GPU machine with
#                                    no network lacks into DIR/preflight-gpu-bundle.tar.gz (default DIR: .gpu-bundle):
#                                    preflight, preflight-gpu.so, the GPU test programs, and the Debian runtime they
#                                    load (Open MPI, OpenBLAS, fmt, rdma-core...: the installed files of those
#                                    packages, what `dpkg -x` of their .debs gives). Fails over 60 MiB.
#   ci/gpu_validate.sh run [BUNDLE]  on the GPU machine, inside one device-tool call of 570 s (a 540 s budget, a
#                                    short limit per step, the risky steps last: ci/gpu_validate_run.sh): unpacks the
#                                    bundle and runs nvidia-smi, ldd, the GPU tests (a skip counts as a failure),
#                                    every collective with --backend nccl -d all -o all at 1 rank, scale --device cuda
#                                    beside `scale --framework pytorch --device cuda`, probe --only gpu,p2p,
#                                    compute-sanitizer on the trainer and the p2p copies, then 2 ranks sharing the GPU
#                                    (each its own NCCL_HOSTID) and a pair's NCCL figure against sweep sendrecv.
#                                    Writes ONE archive with the report, every step's full output and every JSON
#                                    document, DATE-DEVICE.tar.gz, and the report beside it as DATE-DEVICE.md (in
#                                    REPORT_DIR, default $OUT or docs/validation). On a node without a GPU every GPU
#                                    step is reported absent and it exits 0 (CI runs it so).
#   ci/gpu_validate.sh compare [BUNDLE [RUNS]]   needs no GPU: issue 18's process-level comparison (the sweep
#                                    against a bare MPI_Allreduce program, RUNS alternated runs, default 9) on the
#                                    GPU machine as a second host, when device time is left after `run`.
#
# docs/developing.md, "Validating on a GPU", says how to use it with the device tool.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
limit_mib=60

# The Debian packages whose files the bundle carries: what `preflight` and its tests load, beyond glibc,
# libstdc++ and the CUDA and NCCL of the GPU machine.
runtime_packages=(libopenmpi3 openmpi-bin openmpi-common libpmix2 libhwloc15 libevent-core-2.1-7
  libevent-pthreads-2.1-7 libfabric1 libucx0 libpsm2-2 libpsm-infinipath1 libibverbs1 ibverbs-providers librdmacm1
  libnl-3-200 libnl-route-3-200 libopenblas0-pthread libfmt9 libgfortran5 libquadmath0 libmunge2 libltdl7 libxnvctrl0
  libudev1 zlib1g libzstd1 libsqlite3-0)
# The programs that need a GPU, from the build tree (gtest programs run directly, not through ctest, whose
# files name this machine's paths).
programs=(bin/preflight lib/preflight/preflight-gpu.so tests/unit/probes/probes_gpu_live_test
  tests/unit/scaling/pf_scaling_cuda_test tests/unit/collectives/pf_nccl_calls_test
  tests/unit/check/pf_nccl_pair_engine_test)
# For `compare`, not a GPU check: issue 18's process-level comparison (the sweep against a bare MPI_Allreduce
# program), which the 2-vCPU build VM cannot settle at 16 MiB (docs/performance.md).
bench_program=bench/pf_bare_allreduce
bench_scripts=(bench/run_sweep_vs_bare_process.sh bench/sweep_vs_bare_stats.py)

die() {
  echo "gpu_validate: $*" >&2
  exit 2
}

pack() {
  local out=${1:-$here/.gpu-bundle} build=${BUILD_DIR:-$here/build}
  [[ -f $build/CMakeCache.txt ]] || die "no build at $build (run ci/build.sh, or set BUILD_DIR)"
  grep -Eq '^CMAKE_CUDA_ARCHITECTURES:[A-Z]*=.*\b90' "$build/CMakeCache.txt" ||
    die "$build was not built for sm_90: configure it with -DCMAKE_CUDA_ARCHITECTURES=90 (or \"80;90\")"
  local p
  for p in "${programs[@]}"; do [[ -f $build/$p ]] || die "$build/$p is missing: build it (ninja -C $build)"; done
  command -v dpkg-query >/dev/null || die "dpkg-query not found: pack runs on a Debian build machine"
  local stage
  stage=$(mktemp -d) || die "mktemp failed"
  trap 'rm -rf "$stage"' RETURN
  mkdir -p "$stage/bundle/build" "$stage/bundle/root"
  for p in "${programs[@]}"; do
    mkdir -p "$stage/bundle/build/$(dirname "$p")"
    strip --strip-debug -o "$stage/bundle/build/$p" "$build/$p" || die "strip $build/$p failed"
  done
  cp "$here/scaling/pytorch/ddp_bench.py" "$stage/bundle/build/bin/"  # where `scale --framework pytorch` looks
  if [[ -f $build/$bench_program ]]; then
    mkdir -p "$stage/bundle/build/bench" "$stage/bundle/bench"
    strip --strip-debug -o "$stage/bundle/build/$bench_program" "$build/$bench_program" ||
      die "strip $build/$bench_program failed"
    for p in "${bench_scripts[@]}"; do cp "$here/$p" "$stage/bundle/bench/" || die "cannot copy $p"; done
  else
    echo "gpu_validate: $build/$bench_program is missing (PF_BUILD_BENCH=OFF?); the comparison is left out" >&2
  fi
  local pkg
  for pkg in "${runtime_packages[@]}"; do
    # A package missing here is left out with a word; run's library check then names what is missing, if anything.
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'ok installed'; then
      echo "gpu_validate: $pkg is not installed here; left out of the bundle" >&2
      continue
    fi
    # Files and symbolic links as installed, without documentation, under their real folder (Debian's /lib is
    # a link to /usr/lib): relative to /, for tar.
    dpkg -L "$pkg" | while read -r f; do
      [[ -d $f || ! (-f $f || -L $f) || $f == /usr/share/doc/* || $f == /usr/share/man/* ]] && continue
      d=$(readlink -f "$(dirname "$f")")
      echo "${d#/}/$(basename "$f")"
    done
  done | sort -u >"$stage/files"
  tar -C / -cf - -T "$stage/files" | tar -C "$stage/bundle/root" -xf - || die "copying the packages' files failed"
  # Debian names mpirun through its alternatives (/etc/alternatives), which the bundle does not carry.
  ln -s orterun "$stage/bundle/root/usr/bin/mpirun"
  git -C "$here" rev-parse --short HEAD >"$stage/bundle/commit" 2>/dev/null || echo unknown >"$stage/bundle/commit"
  mkdir -p "$out"
  tar -C "$stage" -czf "$out/preflight-gpu-bundle.tar.gz" bundle || die "tar failed"
  local bytes
  bytes=$(stat -c %s "$out/preflight-gpu-bundle.tar.gz")
  echo "gpu_validate: $out/preflight-gpu-bundle.tar.gz: $((bytes / 1048576)) MiB ($bytes bytes), limit $limit_mib MiB"
  ((bytes <= limit_mib * 1048576)) || die "the bundle is over $limit_mib MiB"
}

# ---- run (the steps, the budget and the archive: ci/gpu_validate_run.sh) ------------------------------------
# Lists what the programs load from outside the bundle other than glibc, libstdc++, libgcc and CUDA/NCCL/NVIDIA's
# own, which a bare GPU machine may lack; fails when there is any.
bundle_complete() {
  local root=$1
  shift
  local outside
  outside=$(ldd "$@" | awk '$2 == "=>" {print $1, $3}' | grep -v " $root/" |
    grep -Ev '^(libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s|ld-linux-x86-64|libcuda|libcudart|libnccl|libnvidia-ml|linux-vdso)\.' |
    sort -u)
  [[ -z $outside ]] && echo "all found in the bundle" && return 0
  echo "loaded from outside the bundle:"
  echo "$outside"
  return 1
}

# The loader's NCCL and CUDA runtime, or PyTorch's own (pip wheels) where the loader has none.
find_gpu_libraries() {
  local lib dir
  for lib in libnccl.so.2 libcudart.so.13; do
    ldconfig -p | grep -q "$lib" && continue
    for dir in /usr/local/cuda/lib64 /usr/local/cuda/lib; do
      [[ -e $dir/$lib ]] && break
      dir=""
    done
    [[ -z $dir ]] && dir=$(python3 - "$lib" 2>/dev/null <<'PY'
import glob, os, sys, site
for base in site.getsitepackages():
    for hit in glob.glob(os.path.join(base, "nvidia", "*", "lib", sys.argv[1])):
        print(os.path.dirname(hit)); raise SystemExit
PY
)
    [[ -n $dir ]] && export LD_LIBRARY_PATH=$dir:$LD_LIBRARY_PATH && note "- $lib from $dir (not on the loader's path)"
  done
}

# Unpacks BUNDLE into a temporary folder (removed at exit) and points the loader, Open MPI and PATH at it; sets b
# (the bundle) and root (its Debian files).
unpack() {
  local bundle=${1:-$here/.gpu-bundle/preflight-gpu-bundle.tar.gz}
  [[ -f $bundle ]] || die "no bundle at $bundle: make one with ci/gpu_validate.sh pack"
  work=$(mktemp -d) || die "mktemp failed"
  trap 'rm -rf "$work"' EXIT
  tar -C "$work" -xzf "$bundle" || die "cannot unpack $bundle"
  b=$work/bundle root=$work/bundle/root
  local arch=usr/lib/x86_64-linux-gnu
  export LD_LIBRARY_PATH=$root/$arch:$root/$arch/openblas-pthread:$root/$arch/openmpi/lib:${LD_LIBRARY_PATH:-}
  export OPAL_PREFIX=$root/usr PATH=$root/usr/bin:$PATH PREFLIGHT_GPU_MODULE=$b/build/lib/preflight/preflight-gpu.so
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mtl=^psm
  # The bundle's libpmix looks for its plugins under Debian's path, where the H200 machine keeps another PMIx's: its
  # zlib compressor fails to load (undefined pmix_output_info) and every rank printed a screenful about it
  # (2026-12-04 run). Compression only matters for large launches; leave it out and quiet.
  export PMIX_MCA_pcompress=^zlib PMIX_MCA_pcompress_base_silence_warning=1
}

# Where reports go: REPORT_DIR, else the device tool's $OUT (so they come back), else docs/validation; created.
report_dir() {
  local dir=${REPORT_DIR:-${OUT:-$here/docs/validation}}
  mkdir -p "$dir" || die "cannot create $dir"
  echo "$dir"
}

# Issue 18's process-level comparison on the GPU machine, a host other than the build VM; it needs no GPU. A
# measurement, not a check: it fails only when the script does. Its table goes to the terminal and to
# REPORT_DIR (default $OUT or docs/validation) as DATE-process-compare-HOST.txt.
compare() {
  local bundle=${1:-$here/.gpu-bundle/preflight-gpu-bundle.tar.gz} runs=${2:-9}
  unpack "$bundle"
  [[ -x $b/build/$bench_program ]] || die "the bundle has no $bench_program (pack a build with PF_BUILD_BENCH=ON)"
  local dir out
  dir=$(report_dir) || exit 2
  out=$dir/$(date -u +%Y-%m-%d)-process-compare-$(hostname | tr -c 'A-Za-z0-9\n' '-').txt
  {
    echo "# ci/gpu_validate.sh compare: bundle of commit $(cat "$b/commit") on $(hostname) ($(uname -r)), $(nproc) CPUs"
    cd "$work" && ITERS_SMALL=${ITERS_SMALL:-20000} HUGE_PAGES=1 BUILD_DIR=$b/build \
      bash "$b/bench/run_sweep_vs_bare_process.sh" "$runs"
  } 2>&1 | tee "$out"
  local rc=${PIPESTATUS[0]}
  echo "gpu_validate: comparison in $out (exit $rc)"
  return "$rc"
}

# shellcheck source=ci/gpu_validate_run.sh
source "$here/ci/gpu_validate_run.sh"

case ${1:-} in
  pack) shift && pack "$@" ;;
  run) shift && run "$@" ;;
  compare) shift && compare "$@" ;;
  *) die "usage: ci/gpu_validate.sh pack [DIR] | run [BUNDLE] | compare [BUNDLE [RUNS]] (see the comment at the top)" ;;
esac
