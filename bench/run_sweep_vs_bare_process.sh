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
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

huge=${HUGE_PAGES:-0}
huge_arg=(); ((huge)) && huge_arg=(--huge-pages)
run_bare() {
  # mpirun hands its environment to the ranks it starts on this host
  { env PF_HUGE_PAGES="$huge" "${launch[@]}" "$bare" "$iters_small" 100 "${small[@]}"
    env PF_HUGE_PAGES="$huge" "${launch[@]}" "$bare" "$iters_large" 5 "${large[@]}"; } >"$tmp/bare.$1"
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
    "${s[@]}" --local-ranks "$np" >/dev/null && "${l[@]}" --local-ranks "$np" >/dev/null
  else "${launch[@]}" "${s[@]}" >/dev/null && "${launch[@]}" "${l[@]}" >/dev/null; fi
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
/usr/bin/python3 - "$tmp" "$runs" "$np" "${SWEEP_LAUNCH:-mpirun}" "$control" "${thp:-unknown}" "$huge" "${sizes[@]}" \
  <<'PY'
import json, random, statistics, sys
tmp, runs, np, how, control = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5] == "1"
thp, huge = sys.argv[6], sys.argv[7] == "1"
sizes = [int(s) for s in sys.argv[8:]]
bare = {s: [] for s in sizes}; sweep = {s: [] for s in sizes}; ratio = {s: [] for s in sizes}
same = {s: [] for s in sizes}
def times(path):
    return dict((int(l.split()[0]), float(l.split()[1])) for l in open(path))
for r in range(runs):
    b = times(f"{tmp}/bare.{r}")
    if control:
        a = times(f"{tmp}/bare.a{r}")
        for s in sizes:
            same[s].append(a[s] / b[s])
    w = {}
    for part in ("s", "l"):
        doc = json.load(open(f"{tmp}/sweep-{part}.{r}.json"))
        w.update({row["size_bytes"]: row["time_us"] for res in doc["results"] for row in res.get("rows", [])
                  if row.get("placement") == "out" and row.get("cycle", 0) == 0})
    for s in sizes:
        bare[s].append(b[s]); sweep[s].append(w[s]); ratio[s].append(w[s] / b[s])
# How far the set's median ratio itself can move: a percentile bootstrap over the runs (2,000 resamples, fixed
# seed). On a 2-vCPU VM single runs scatter by tens of per cent, and an interval wider than +-2% means this set
# cannot decide a 2% question either way; more runs narrow it.
rng = random.Random(1)
def interval(xs):
    meds = sorted(statistics.median(rng.choices(xs, k=len(xs))) for _ in range(2000))
    return meds[50], meds[1949]
print(f"# preflight sweep ({how} launch) vs a bare MPI_Allreduce program, {np} ranks, {runs} alternated runs, medians;"
      f" transparent huge pages: {thp}; buffers of 2 MiB and more: {'huge pages advised' if huge else '4 KiB pages'}")
print(f"{'size (B)':>10} {'bare (us)':>11} {'sweep (us)':>11} {'ratio':>7} {'95% interval':>14} {'ratio min-max':>15}"
      + (f" {'bare/bare':>10} {'95% interval':>14}" if control else ""))
for s in sizes:
    m = statistics.median
    lo, hi = interval(ratio[s])
    line = (f"{s:>10} {m(bare[s]):>11.3f} {m(sweep[s]):>11.3f} {m(ratio[s]):>7.3f} {lo:>6.3f}-{hi:.3f} "
            f"{min(ratio[s]):>7.3f}-{max(ratio[s]):.3f}")
    if control:
        clo, chi = interval(same[s])
        line += f" {m(same[s]):>10.3f} {clo:>6.3f}-{chi:.3f}"
    print(line)
PY
