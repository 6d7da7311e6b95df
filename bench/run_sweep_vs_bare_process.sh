#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The process-level comparison: `preflight sweep all_reduce` as users start it, against a bare MPI_Allreduce
# program (bench/bare_allreduce.cpp) timed the same way, in alternated runs (bare, sweep, bare, sweep, ...; the
# order flips every run so neither always goes first), each its own mpirun. Prints per size the median time per
# operation of each, the median of the per-run ratios and a bootstrap interval for that median. The in-process
# comparison (run_sweep_vs_bare.sh) cannot see what differs between the processes: launch flags, binding,
# buffers, start-up.
# Usage: bench/run_sweep_vs_bare_process.sh [RUNS=7] [NP=2] [extra mpirun args...]
# Set SWEEP_LAUNCH=local to start the sweep with --local-ranks NP (its own relaunch) instead of the same mpirun.
# SWEEP_ARGS adds options to both sweeps, to bisect a difference (e.g. SWEEP_ARGS="-I 0 -c 0": no per-iteration
# loop, no check). HUGE_PAGES=1 puts both programs' buffers of 2 MiB and more on transparent huge pages (the
# sweep's --huge-pages, PF_HUGE_PAGES=1 for the bare program): on 4 KiB pages the 16 MiB time depends on where the
# kernel put each page, by 11% between the two programs here (docs/performance.md, 2026-11-28).
# KEEP=DIR keeps the set's raw files in DIR (a new or empty directory) instead of a temporary one, so that
# bench/sweep_vs_bare_stats.py DIR1 DIR2 ... can pool the runs of several sets taken alike. SETTLE=SECONDS
# pauses before every process. PYTHON names the Python 3 for the statistics (default: python3 on PATH).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
np=${2:-2}
shift $(( $# > 2 ? 2 : $# ))
bare=${BUILD_DIR:-build}/bench/pf_bare_allreduce
pf=${BUILD_DIR:-build}/bin/preflight
[[ -x $bare && -x $pf ]] || { echo "build first: bash ci/build.sh ($bare or $pf missing)"; exit 2; }
# Two groups, each with its own iteration count (one count for all sizes makes the small ones a few tens of
# microseconds of timed work, too little to time): 8 B-16 KiB and 1-16 MiB, as two sweeps and two bare runs.
small=(8 64 1024 16384) large=(1048576 16777216)
sizes=("${small[@]}" "${large[@]}")
iters_small=${ITERS_SMALL:-5000} iters_large=${ITERS_LARGE:-40}
root=(); [[ $(id -u) -eq 0 ]] && root=(--allow-run-as-root)
launch=(mpirun "${root[@]}" -np "$np" --bind-to core "$@")
# SETTLE=SECONDS waits that long before every process, so that none starts while the machine is still busy with
# the end of the one before (its exit, the freeing of its memory).
settle=${SETTLE:-0}
pause() { [[ $settle == 0 ]] || sleep "$settle"; }
start() { pause; "${launch[@]}" "$@"; }
if [[ -n ${KEEP:-} ]]; then
  if ! mkdir -p "$KEEP" || [[ -n $(ls -A "$KEEP") ]]; then
    echo "KEEP=$KEEP: give a new or empty directory" >&2
    exit 2
  fi
  tmp=$KEEP
else
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
fi

huge=${HUGE_PAGES:-0}
huge_arg=(); ((huge)) && huge_arg=(--huge-pages)
run_bare() {
  # mpirun hands its environment to the ranks it starts on this host
  { PF_HUGE_PAGES="$huge" start "$bare" "$iters_small" 100 "${small[@]}"
    PF_HUGE_PAGES="$huge" start "$bare" "$iters_large" 5 "${large[@]}"; } >"$tmp/bare.$1"
}
run_sweep() {
  # -f 2 covers 8 B-16 KiB, -f 16 1 and 16 MiB; the table's out-of-place time is the comparable figure.
  local extra
  read -r -a extra <<<"${SWEEP_ARGS:-}"
  local s=("$pf" sweep all_reduce -b 8 -e 16K -f 2 -n "$iters_small" -w 100 "${huge_arg[@]}" "${extra[@]}"
    --json "$tmp/sweep-s.$1.json")
  local l=("$pf" sweep all_reduce -b 1M -e 16M -f 16 -n "$iters_large" -w 5 "${huge_arg[@]}" "${extra[@]}"
    --json "$tmp/sweep-l.$1.json")
  if [[ ${SWEEP_LAUNCH:-mpirun} == local ]]; then
    pause; "${s[@]}" --local-ranks "$np" >/dev/null
    pause; "${l[@]}" --local-ranks "$np" >/dev/null
  else start "${s[@]}" >/dev/null && start "${l[@]}" >/dev/null; fi
}
# CONTROL=1 adds an A/A comparison: the bare program a second time in every run (first in one run, last in the
# next), so the same statistics of bare against itself show how far two identical programs drift apart here.
control=${CONTROL:-0}
for ((r = 0; r < runs; r++)); do
  if ((r % 2 == 0)); then
    ((control)) && run_bare "a$r"
    run_bare "$r"; run_sweep "$r"
  else
    run_sweep "$r"; run_bare "$r"
    ((control)) && run_bare "a$r"
  fi
done
# The pages of the programs' own buffers decide the 16 MiB result (docs/performance.md, 2026-11-28): on 4 KiB pages
# the time there depends on how each process's pages happen to be mapped, and the two programs differed by 8-11%;
# on huge pages (THP `always`, or HUGE_PAGES=1 under `madvise`) they agreed within 1-2% while the VM held one state.
# The header says which mode and placement this set ran under.
thp=$(sed -n 's/.*\[\(.*\)\].*/\1/p' /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || true)
"${PYTHON:-python3}" - "$tmp/meta.json" "$runs" "$np" "${SWEEP_LAUNCH:-mpirun}" "$control" "${thp:-unknown}" "$huge" \
  "${SWEEP_ARGS:-}" "$*" "${sizes[@]}" <<'PY'
import json, os, sys, time
# what else in the environment changes both programs (Open MPI's parameters, glibc's tunables) goes with the set
env = {k: v for k, v in os.environ.items() if k.startswith(("OMPI_MCA_", "GLIBC_TUNABLES", "MALLOC_"))}
path, runs, np, how, control, thp, huge, sweep_args, mpirun_args, *sizes = sys.argv[1:]
json.dump({"runs": int(runs), "settle_s": float(os.environ.get("SETTLE", "0")), "np": int(np), "how": how,
           "control": control == "1", "thp": thp, "huge": huge == "1", "sweep_args": sweep_args,
           "mpirun_args": mpirun_args, "env": env, "sizes": [int(s) for s in sizes],
           "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}, open(path, "w"))
PY
"${PYTHON:-python3}" bench/sweep_vs_bare_stats.py "$tmp"
