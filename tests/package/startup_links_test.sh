#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Libraries that are opened when a command needs them must not be linked into `preflight`: linking them makes
# every command pay their load-time constructors (cuBLAS: 0.22 s and 211 MB resident, touching cuBLASLt's
# .bss; libfabric: 0.21 s, libinfinipath polling for its hardware; OpenBLAS: a thread per core but one, polling for
# work, 0.09 s of CPU here), which `doctor` on a small log or `check` in a prolog would spend before doing anything
# (docs/performance.md, "start-up"). CUDA's runtime and NCCL live
# in preflight-gpu.so (gpu/CMakeLists.txt): linked, `preflight` would not start at all on a node without them.
#
# Then the CUDA toolkit is hidden from the loader (an empty folder mounted over it, in a mount namespace of
# this test's own): `probe` and `doctor` must still run, and `--backend nccl` must say why it cannot.
set -u
bin=${PF_BIN:?PF_BIN: the preflight binary}
linked=$(ldd "$bin") || { echo "FAIL: ldd $bin failed"; exit 1; }
rc=0
for lib in libcublas libcublasLt libfabric libinfinipath libpsm_infinipath libcudart libnccl libcuda libnvidia-ml libopenblas; do
  if grep -q "$lib\." <<<"$linked"; then
    echo "FAIL: $bin links $lib (open it at run time instead): $(grep "$lib\." <<<"$linked" | xargs)"
    rc=1
  fi
done
[ $rc = 0 ] && echo "ok: $bin links none of CUDA, cuBLAS, NCCL, NVML, libfabric, libinfinipath, OpenBLAS"

# OpenBLAS hidden the same way: `scale` must say in one line, before it launches ranks, that its trainer needs it
# (exit 3), and `doctor` must still run.
blas=${PF_OPENBLAS_LIBDIR:-}
if [[ -n $blas && -d $blas ]] && command -v python3 >/dev/null && unshare --mount true 2>/dev/null; then
  bwork=$(mktemp -d)
  unshare --mount bash -s "$bin" "$blas" "$bwork" <<'BLAS' || rc=1
bin=$1 blas=$2 work=$3
mount --bind "$(mktemp -d)" "$blas" || { echo "FAIL: cannot mount over $blas"; exit 1; }
if python3 -c 'import ctypes; ctypes.CDLL("libopenblas.so.0")' 2>/dev/null; then
  echo "skipped the hidden-OpenBLAS run: another libopenblas.so.0 is still loadable"
  exit 0
fi
ok=0
fail() { echo "FAIL: with $blas hidden: $*"; ok=1; }
"$bin" scale --ranks 1 --steps 1 --reps 1 >"$work/s.txt" 2>&1
r=$?; ((r == 3)) || fail "preflight scale exited $r (3: OpenBLAS missing): $(tail -3 "$work/s.txt")"
grep -q "the CPU trainer needs OpenBLAS: .*libopenblas" "$work/s.txt" || fail "scale does not name OpenBLAS: $(head -3 "$work/s.txt")"
[[ $(wc -l <"$work/s.txt") == 1 ]] || fail "scale said more than one line: $(head -5 "$work/s.txt")"
"$bin" doctor /dev/null >"$work/d.txt" 2>&1 || fail "preflight doctor /dev/null exited $?: $(tail -3 "$work/d.txt")"
((ok == 0)) && echo "ok: with $blas hidden, scale names the missing OpenBLAS in one line (exit 3) and doctor runs"
exit $ok
BLAS
  rm -rf "$bwork"
else
  echo "skipped the hidden-OpenBLAS run: no OpenBLAS in this build, no python3, or unshare --mount not permitted"
fi

cuda=${PF_CUDA_LIBDIR:-}
if [[ -z $cuda || ! -d $cuda ]]; then
  echo "skipped the hidden-CUDA runs: no CUDA library folder in this build"
  exit $rc
fi
if ! unshare --mount true 2>/dev/null; then
  echo "skipped the hidden-CUDA runs: unshare --mount is not permitted here (needs root)"
  exit $rc
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'node7:11:12 [0] misc/shmutils.cc:88 NCCL WARN Error: failed to extend /dev/shm/nccl-X to 9637892 bytes\n' \
  >"$work/shm.log"
# One shell inside the namespace: the mount lasts as long as it does.
unshare --mount bash -s "$bin" "$cuda" "$work" <<'INNER' || rc=1
bin=$1 cuda=$2 work=$3
mount --bind "$(mktemp -d)" "$cuda" || { echo "FAIL: cannot mount over $cuda"; exit 1; }
ok=0
fail() { echo "FAIL: with $cuda hidden: $*"; ok=1; }
"$bin" --version >"$work/v.txt" 2>&1 || fail "preflight --version exited $?: $(cat "$work/v.txt")"
grep -q "^GPU module: GPU support cannot load: .*libcudart" "$work/v.txt" || fail "--version does not say why: $(tail -1 "$work/v.txt")"
"$bin" probe --quick >"$work/p.txt" 2>&1
r=$?; ((r == 0 || r == 1)) || fail "preflight probe --quick exited $r: $(tail -3 "$work/p.txt")"
# The nccl probe reports the NCCL a job would load, which is now none: not one `preflight` brought with it.
"$bin" probe --only nccl >"$work/n.txt" 2>&1
grep -Eq "absent +nccl" "$work/n.txt" || fail "the nccl probe found an NCCL: $(tail -2 "$work/n.txt")"
"$bin" doctor "$work/shm.log" >"$work/d.txt" 2>&1
r=$?; ((r == 1)) || fail "preflight doctor exited $r (1: diagnosed): $(tail -3 "$work/d.txt")"
"$bin" sweep all_reduce --backend nccl -b 8 -e 8 >"$work/s.txt" 2>&1
r=$?; ((r == 3)) || fail "sweep --backend nccl exited $r (3: GPU support cannot load): $(tail -3 "$work/s.txt")"
grep -q "GPU support cannot load: .*libcudart" "$work/s.txt" || fail "sweep --backend nccl does not name libcudart: $(head -3 "$work/s.txt")"
((ok == 0)) && echo "ok: with $cuda hidden, --version, probe and doctor run, the nccl probe finds no NCCL, and --backend nccl names the missing library"
exit $ok
INNER
exit $rc
