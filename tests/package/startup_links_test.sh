#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Libraries that are opened when a command needs them must not be linked into `preflight`: linking them makes
# every command pay their load-time constructors (cuBLAS: 0.22 s and 211 MB resident, touching cuBLASLt's
# .bss; libfabric: 0.21 s, libinfinipath polling for its hardware), which `doctor` on a small log or `check`
# in a prolog would spend before doing anything (docs/performance.md, "start-up").
set -u
bin=${PF_BIN:?PF_BIN: the preflight binary}
linked=$(ldd "$bin") || { echo "FAIL: ldd $bin failed"; exit 1; }
rc=0
for lib in libcublas libcublasLt libfabric libinfinipath libpsm_infinipath; do
  if grep -q "$lib\." <<<"$linked"; then
    echo "FAIL: $bin links $lib (open it at run time instead): $(grep "$lib\." <<<"$linked" | xargs)"
    rc=1
  fi
done
[ $rc = 0 ] && echo "ok: $bin links none of cuBLAS, libfabric, libinfinipath"
exit $rc
