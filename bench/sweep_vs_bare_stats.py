#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Statistics of the process-level comparison (bench/run_sweep_vs_bare_process.sh).

Usage: sweep_vs_bare_stats.py DIR [DIR ...]

Each DIR holds one set's raw files, as the script leaves them with KEEP=DIR: meta.json, bare.R (the bare
program's "size time_us" lines for run R), bare.aR (the A/A control's) and sweep-s.R.json / sweep-l.R.json
(the sweep's own result documents). Several DIRs pool their runs into one table: every run is a self-contained
alternated pair, so runs from sets taken at different times can be pooled when the sets agree on ranks, sizes
and page placement (checked, exit 2 otherwise). Pooling narrows the interval where one set on a noisy VM cannot
decide a 2% question; the per-set tables stay the primary record.
"""
import json
import random
import statistics
import sys


def fail(msg):
    print(f"sweep_vs_bare_stats: {msg}", file=sys.stderr)
    sys.exit(2)


def times(path):
    with open(path) as f:
        return {int(size): float(us) for size, us in (line.split() for line in f if line.strip())}


def sweep_times(path):
    with open(path) as f:
        doc = json.load(f)
    # the out-of-place row of the first cycle (rows carry "cycle" only with --cycles) is the figure a bare loop's
    # time compares with
    return {row["size_bytes"]: row["time_us"] for res in doc["results"] for row in res.get("rows", [])
            if row.get("placement") == "out" and row.get("cycle", 1) == 1}


def load(d):
    try:
        with open(f"{d}/meta.json") as f:
            meta = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{d}: no readable meta.json ({e}); give directories that run_sweep_vs_bare_process.sh left with KEEP=DIR")
    meta.setdefault("env", {})  # sets from before the script recorded these
    meta.setdefault("settle_s", 0.0)
    runs = []
    try:
        for r in range(meta["runs"]):
            b = times(f"{d}/bare.{r}")
            w = sweep_times(f"{d}/sweep-s.{r}.json")
            w.update(sweep_times(f"{d}/sweep-l.{r}.json"))
            a = times(f"{d}/bare.a{r}") if meta["control"] else None
            for got, what in [(b, "bare"), (w, "sweep")] + ([(a, "control")] if a is not None else []):
                missing = [s for s in meta["sizes"] if s not in got]
                if missing:
                    raise KeyError(f"run {r}: no {what} time for {missing[0]} B")
            runs.append((b, w, a))
    except (OSError, ValueError, KeyError) as e:
        fail(f"{d}: run files incomplete ({e})")
    return meta, runs


def interval(xs, rng):
    # percentile bootstrap of the median over the runs (2,000 resamples, fixed seed): how far the set's median
    # ratio itself can move. On a 2-vCPU VM single runs scatter by tens of per cent; an interval wider than +-2%
    # means the set cannot decide a 2% question either way, and more runs narrow it.
    meds = sorted(statistics.median(rng.choices(xs, k=len(xs))) for _ in range(2000))
    return meds[50], meds[1949]


def main(dirs):
    if not dirs:
        fail("usage: sweep_vs_bare_stats.py DIR [DIR ...]")
    sets = [load(d) for d in dirs]
    meta = sets[0][0]
    same = ("np", "sizes", "huge", "how", "sweep_args", "mpirun_args", "env", "settle_s")
    for d, (m, _) in zip(dirs, sets):
        for key in same:
            if m.get(key) != meta.get(key):
                fail(f"{d}: {key} is {m[key]!r}, {dirs[0]} has {meta[key]!r}; pool only sets run alike")
    sizes = meta["sizes"]
    control = all(m["control"] for m, _ in sets)
    runs = [run for _, rs in sets for run in rs]
    bare = {s: [b[s] for b, _, _ in runs] for s in sizes}
    sweep = {s: [w[s] for _, w, _ in runs] for s in sizes}
    ratio = {s: [w[s] / b[s] for b, w, _ in runs] for s in sizes}
    aa = {s: [a[s] / b[s] for b, _, a in runs] for s in sizes} if control else {}
    rng = random.Random(1)
    pooled = f", pooled from {len(sets)} sets" if len(sets) > 1 else ""
    print(f"# preflight sweep ({meta['how']} launch) vs a bare MPI_Allreduce program, {meta['np']} ranks, "
          f"{len(runs)} alternated runs{pooled}, medians; transparent huge pages: {meta['thp']}; "
          f"buffers of 2 MiB and more: {'huge pages advised' if meta['huge'] else '4 KiB pages'}")
    print(f"{'size (B)':>10} {'bare (us)':>11} {'sweep (us)':>11} {'ratio':>7} {'95% interval':>14} "
          f"{'ratio min-max':>15}" + (f" {'bare/bare':>10} {'95% interval':>14}" if control else ""))
    m = statistics.median
    for s in sizes:
        lo, hi = interval(ratio[s], rng)
        line = (f"{s:>10} {m(bare[s]):>11.3f} {m(sweep[s]):>11.3f} {m(ratio[s]):>7.3f} {lo:>6.3f}-{hi:.3f} "
                f"{min(ratio[s]):>7.3f}-{max(ratio[s]):.3f}")
        if control:
            clo, chi = interval(aa[s], rng)
            line += f" {m(aa[s]):>10.3f} {clo:>6.3f}-{chi:.3f}"
        print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
