#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Copyright (c) 2026 The Preflight authors
#
# `preflight --version` names the version, the commit the binary was built from (what git says of the source
# tree; "unknown" outside git), every optional component with the yes/no configure decided, and whether the GPU
# module loads on this node.
# Environment (from CMake): PF_BIN, PF_VERSION, PF_SOURCE, PF_COMPONENTS ("MPI=yes CUDA=no ...").
set -u
fail() { echo "FAIL: $*"; exit 1; }
out=$("$PF_BIN" --version) || fail "preflight --version exited $?"
echo "$out"
grep -qx "preflight $PF_VERSION" <<<"$out" || fail "no 'preflight $PF_VERSION' line"
expected=unknown
if commit=$(git -C "$PF_SOURCE" rev-parse --short=12 HEAD 2>/dev/null); then expected=$commit; fi
grep -Eq "^commit: $expected(-modified)?\$" <<<"$out" || fail "commit line is not '$expected'"
for c in $PF_COMPONENTS; do
  name=${c%=*} state=${c#*=}
  grep -Eq "^  $name +$state " <<<"$out" || fail "component $name should read '$state'"
done
# The GPU module's state on this node: where it loads from, or why not (a build without CUDA: not installed).
grep -Eq "^GPU module: " <<<"$out" || fail "no 'GPU module:' line"
if grep -q "CUDA=yes" <<<"$PF_COMPONENTS" && grep -q "NCCL=yes" <<<"$PF_COMPONENTS"; then
  grep -Eq "^GPU module: .*preflight-gpu\.so \(loads\)$" <<<"$out" || fail "the GPU module of this build does not load"
else
  grep -q "^GPU module: GPU support is not installed" <<<"$out" || fail "the GPU module line does not say it is absent"
fi
echo "PASS"
