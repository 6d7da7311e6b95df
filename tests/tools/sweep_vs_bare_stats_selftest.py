#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# bench/sweep_vs_bare_stats.py on sets made up here, whose medians are known: the per-size median of the per-run
# ratios (sweep / bare, out-of-place rows of the first cycle only), runs pooled across sets, and exit 2 with the
# directory named for sets taken differently, a missing meta.json, a missing run file or a size missing from a run.
import json
import os
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
stats = os.path.join(here, "..", "..", "bench", "sweep_vs_bare_stats.py")
sizes = [8, 16777216]


def make_set(d, bare, sweep, control=False, **meta):
    """bare, sweep: per run, per size time (us). Writes the files run_sweep_vs_bare_process.sh leaves with KEEP."""
    os.makedirs(d)
    m = {"runs": len(bare), "settle_s": 0.0, "np": 2, "how": "mpirun", "control": control, "thp": "madvise",
         "huge": True, "sweep_args": "", "mpirun_args": "", "env": {}, "sizes": sizes}
    m.update(meta)
    with open(f"{d}/meta.json", "w") as f:
        json.dump(m, f)
    for r, (b, w) in enumerate(zip(bare, sweep)):
        with open(f"{d}/bare.{r}", "w") as f:
            f.write("".join(f"{s} {t}\n" for s, t in zip(sizes, b)))
        if control:
            with open(f"{d}/bare.a{r}", "w") as f:
                f.write("".join(f"{s} {t}\n" for s, t in zip(sizes, b)))
        for part, s, t in (("s", sizes[0], w[0]), ("l", sizes[1], w[1])):
            rows = [{"size_bytes": s, "placement": "out", "time_us": t},
                    # rows the statistics must skip: in-place, and a later cycle
                    {"size_bytes": s, "placement": "in", "time_us": 1e9},
                    {"size_bytes": s, "placement": "out", "cycle": 2, "time_us": 1e9}]
            with open(f"{d}/sweep-{part}.{r}.json", "w") as f:
                json.dump({"results": [{"rows": rows}, {"kind": "environment"}]}, f)


def run(*dirs):
    return subprocess.run([sys.executable, stats, *dirs], capture_output=True, text=True)


def ratios(out):
    """size -> median ratio, from the table's rows."""
    table = [line.split() for line in out.splitlines() if line and line.split()[0].isdigit()]
    return {int(row[0]): float(row[3]) for row in table}


def check(cond, what, proc):
    if not cond:
        print(f"FAIL: {what}\nstdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")
        sys.exit(1)


with tempfile.TemporaryDirectory() as tmp:
    # Set A, 3 runs: per-run ratios at 8 B 1.1, 0.9, 1.0 (median 1.0); at 16 MiB 0.5, 0.8, 0.7 (median 0.7).
    make_set(f"{tmp}/a", bare=[[1.0, 100.0]] * 3, sweep=[[1.1, 50.0], [0.9, 80.0], [1.0, 70.0]])
    p = run(f"{tmp}/a")
    check(p.returncode == 0 and ratios(p.stdout) == {8: 1.0, 16777216: 0.7}, "one set's median ratios", p)
    check("3 alternated runs" in p.stdout and "pooled" not in p.stdout, "one set's header", p)

    # Set B, 2 runs at 16 MiB ratio 1.2 each: pooled with A the ratios are 0.5, 0.8, 0.7, 1.2, 1.2 (median 0.8).
    make_set(f"{tmp}/b", bare=[[2.0, 10.0]] * 2, sweep=[[2.0, 12.0]] * 2, control=True)
    p = run(f"{tmp}/a", f"{tmp}/b")
    check(p.returncode == 0 and ratios(p.stdout)[16777216] == 0.8, "pooled median ratio", p)
    check("5 alternated runs, pooled from 2 sets" in p.stdout, "pooled header", p)
    check("bare/bare" not in p.stdout, "the A/A column only when every pooled set has it", p)
    p = run(f"{tmp}/b")
    check(p.returncode == 0 and "bare/bare" in p.stdout, "the A/A column for a CONTROL=1 set", p)

    # Sets taken differently are not pooled.
    for name, meta in (("pages", {"huge": False}), ("args", {"sweep_args": "-I 0 -c 0"}),
                       ("env", {"env": {"GLIBC_TUNABLES": "glibc.malloc.hugetlb=1"}}), ("settle", {"settle_s": 1.0})):
        make_set(f"{tmp}/{name}", bare=[[1.0, 1.0]], sweep=[[1.0, 1.0]], **meta)
        p = run(f"{tmp}/a", f"{tmp}/{name}")
        check(p.returncode == 2 and f"{tmp}/{name}" in p.stderr and not p.stdout, f"refuses to pool ({name})", p)

    # Unreadable input: no meta.json, a run file missing.
    os.makedirs(f"{tmp}/empty")
    p = run(f"{tmp}/empty")
    check(p.returncode == 2 and "meta.json" in p.stderr, "a directory without meta.json", p)
    make_set(f"{tmp}/short", bare=[[1.0, 1.0]] * 2, sweep=[[1.0, 1.0]] * 2)
    os.remove(f"{tmp}/short/sweep-l.1.json")
    p = run(f"{tmp}/short")
    check(p.returncode == 2 and "short" in p.stderr and "incomplete" in p.stderr, "a missing run file", p)
    # A run whose sweep document lacks a size (a sweep stopped early) names the run and the size.
    make_set(f"{tmp}/partial", bare=[[1.0, 1.0]], sweep=[[1.0, 1.0]])
    with open(f"{tmp}/partial/sweep-l.0.json", "w") as f:
        json.dump({"results": [{"rows": []}]}, f)
    p = run(f"{tmp}/partial")
    check(p.returncode == 2 and "run 0" in p.stderr and "16777216" in p.stderr, "a run without a size", p)
    p = run()
    check(p.returncode == 2 and "usage" in p.stderr, "no directory", p)
print("sweep_vs_bare_stats selftest: ok")
