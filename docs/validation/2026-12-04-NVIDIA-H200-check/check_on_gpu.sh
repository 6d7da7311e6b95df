#!/bin/bash
# One-off: preflight check and every probe on the lent GPU machine, as a user starts them (not kept in the repo).
set -u
w=$(mktemp -d); tar -C "$w" -xzf .gpu-bundle/preflight-gpu-bundle.tar.gz
b=$w/bundle root=$b/root arch=usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$root/$arch:$root/$arch/openblas-pthread:$root/$arch/openmpi/lib:${LD_LIBRARY_PATH:-}
export OPAL_PREFIX=$root/usr PATH=$root/usr/bin:$PATH PREFLIGHT_GPU_MODULE=$b/build/lib/preflight/preflight-gpu.so
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mtl=^psm
export PMIX_MCA_pcompress=^zlib PMIX_MCA_pcompress_base_silence_warning=1
pf=$b/build/bin/preflight
run() { local name=$1 lim=$2; shift 2; echo "### $name: $*"; local t0=$SECONDS
  (cd "$OUT" && timeout -k 5 "$lim" "$@") >"$OUT/$name.txt" 2>&1; local rc=$?
  tail -n 60 "$OUT/$name.txt"; echo "(exit $rc, $((SECONDS - t0)) s)"; }
run check 120 "$pf" check --json check.json
run check-quick-profile 60 "$pf" check --quick --profile auto --json check-profile.json
run probe-all 60 "$pf" probe --json probe-all.json
run check-2 50 "$pf" check --quick --local-ranks 2 --json check-2.json
run check-strict 50 "$pf" check --quick --strict -q
rm -rf "$w"
