#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Copyright (c) 2026 The Preflight authors
#
# The .deb as an operator gets it: `cpack -G DEB` over this build, lintian with no error (E:), installed with
# apt-get, `preflight --version` and `preflight check --local-ranks 2` run from /usr/bin, the man pages,
# completion files, rules and examples where docs/install.md says, then the package removed again.
# Needs root (dpkg) and skips without it (exit 77). Environment (CMake): PF_BUILD, PF_VERSION, PF_SOURCE,
# PF_HAVE_QT.
set -u
fail() { echo "FAIL: $*"; exit 1; }
if [[ $(id -u) -ne 0 ]]; then echo "SKIP: installing a .deb needs root"; exit 77; fi
for tool in cpack dpkg apt-get lintian; do
  command -v $tool >/dev/null || fail "$tool not found (apt-get install lintian; ci/packages.extra lists it)"
done
if dpkg-query -W -f='${Status}' preflight 2>/dev/null | grep -q "installed"; then
  fail "a preflight package is already installed; remove it first (apt-get remove preflight)"
fi
WORK=$(mktemp -d /tmp/pf-deb.XXXXXX)
apt_get() { DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 -y -q "$@"; }
cleanup() {
  dpkg-query -W preflight-viewer >/dev/null 2>&1 && apt_get purge preflight-viewer >/dev/null
  dpkg-query -W preflight >/dev/null 2>&1 && apt_get purge preflight >/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

cpack -G DEB --config "$PF_BUILD/CPackConfig.cmake" -B "$WORK" >"$WORK/cpack.log" 2>&1 ||
  fail "cpack: $(tail -20 "$WORK/cpack.log")"
deb=$(ls "$WORK"/preflight_"$PF_VERSION"_*.deb 2>/dev/null) || fail "no preflight_${PF_VERSION}_*.deb in $WORK"
debs=("$deb")
if [[ $PF_HAVE_QT == ON ]]; then
  viewer=$(ls "$WORK"/preflight-viewer_"$PF_VERSION"_*.deb 2>/dev/null) || fail "viewer built but no preflight-viewer .deb"
  dpkg-deb -c "$viewer" | grep -q 'usr/share/man/man1/preflight-viewer.1.gz$' || fail "the viewer package has no man page"
  debs+=("$viewer")
fi
for d in "${debs[@]}"; do
  echo "== $(basename "$d"): $(dpkg-deb -f "$d" Depends)"
  dpkg-deb -f "$d" Depends | grep -Eiq 'cuda|cublas|nccl' && fail "$d: a GPU library is a hard dependency"
  lintian --tag-display-limit 0 "$d" >"$WORK/lintian.log" 2>&1
  cat "$WORK/lintian.log"
  grep -q '^E:' "$WORK/lintian.log" && fail "lintian reports errors for $(basename "$d")"
done

apt_get install --no-install-recommends "$deb" >"$WORK/apt.log" 2>&1 || fail "apt-get install: $(tail -20 "$WORK/apt.log")"
[[ -x /usr/bin/preflight ]] || fail "/usr/bin/preflight not installed"
version=$(/usr/bin/preflight --version) || fail "/usr/bin/preflight --version exited $?"
echo "$version"
grep -qx "preflight $PF_VERSION" <<<"$version" || fail "--version does not say $PF_VERSION"
cd "$WORK" || fail "cd $WORK"
/usr/bin/preflight check --local-ranks 2 --json "$WORK/check.json" >"$WORK/check.log" 2>&1
rc=$?
cat "$WORK/check.log"
((rc == 0)) || fail "/usr/bin/preflight check --local-ranks 2 exited $rc"
[[ -s $WORK/check.json ]] || fail "check wrote no result document"

if [[ ${PF_HAVE_GPU_MODULE:-OFF} == ON ]]; then
  # The GPU module where the installed binary looks for it, and loadable there: NCCL's backend gets as far as
  # asking CUDA for a device (exit 3 naming why there is none), not "GPU support is not installed".
  [[ -f /usr/lib/preflight/preflight-gpu.so ]] || fail "/usr/lib/preflight/preflight-gpu.so not installed"
  /usr/bin/preflight sweep all_reduce --backend nccl -b 8 -e 8 >"$WORK/nccl.log" 2>&1
  rc=$?
  grep -q "GPU support" "$WORK/nccl.log" && fail "the installed GPU module does not load: $(head -2 "$WORK/nccl.log")"
  ((rc == 0 || rc == 3)) || fail "sweep --backend nccl exited $rc: $(head -2 "$WORK/nccl.log")"
fi

man1=/usr/share/man/man1
for page in preflight preflight-check preflight-doctor preflight-sweep; do
  [[ -s $man1/$page.1.gz ]] || fail "$man1/$page.1.gz missing"
done
zcat $man1/preflight-check.1.gz | grep -q '^\.TH PREFLIGHT-CHECK ' || fail "preflight-check(1) has the wrong title"
zcat $man1/preflight-check.1.gz | grep -qF 'local\-ranks' || fail "preflight-check(1) lacks --local-ranks"
bash -n /usr/share/bash-completion/completions/preflight || fail "bash completion missing or broken"
[[ -s /usr/share/zsh/vendor-completions/_preflight ]] || fail "zsh completion missing"
n_src=$(ls "$PF_SOURCE"/doctor/rules/*.json | wc -l)
n_inst=$(ls /usr/share/preflight/rules/*.json 2>/dev/null | wc -l)
((n_src == n_inst)) || fail "$n_inst rules files installed, $n_src in doctor/rules"
# The installed rules load and diagnose: a shared-memory failure is found through --rules (exit 1: diagnosed).
printf 'node7:11:12 [0] misc/shmutils.cc:88 NCCL WARN Error: failed to extend /dev/shm/nccl-X to 9637892 bytes\n' \
  >"$WORK/shm.log"
/usr/bin/preflight doctor --rules /usr/share/preflight/rules "$WORK/shm.log" >"$WORK/doctor.log" 2>&1
rc=$?
((rc == 1)) || fail "doctor --rules /usr/share/preflight/rules exited $rc: $(cat "$WORK/doctor.log")"
[[ -s /usr/share/doc/preflight/examples/slurm/prolog.sh ]] || fail "examples not installed"
[[ -s /usr/share/doc/preflight/copyright ]] || fail "copyright file missing"

apt_get purge preflight >/dev/null 2>&1 || fail "apt-get purge preflight failed"
[[ -e /usr/bin/preflight ]] && fail "/usr/bin/preflight left behind after purge"
echo "PASS"
