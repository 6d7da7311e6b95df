#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Copyright (c) 2026 The Preflight authors
"""Mutation test over preflight's command-line readers (issue 48).

Takes the project's own inputs (result documents from tests/golden/documents, nccl-tests text and JSON from
tests/fixtures/nccl-tests, the example thresholds), mutates them (byte flips, truncation, duplicated, deleted and
swapped lines, huge and non-finite numbers, deep nesting, wrong types, deleted keys) and feeds each to one reader:
`report FILE --format F --output OUT`, `compare A B --output OUT`, `doctor FILE --output OUT`. Every case must end
with no signal, an exit code from 0 to 4, no output file left behind after exit 2 (bad input), and on exit 2 a
message that names the mutated file. Failures are grouped by class (what broke, which reader, which mutation),
each with the input that shows it, saved under --keep.

`check --thresholds` and `check --baseline` start the probes (a second or more per case), so they are left out.

Usage: mutation_readers.py --bin build/cli/preflight [--src .] [--cases 2000] [--seed 48] [--budget 120]
Exit: 0 when every case behaved, 1 when any failed or fewer than --min-cases ran within --budget seconds.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

FORMATS = {"table": "txt", "json": "json", "csv": "csv", "html": "html", "md": "md", "prometheus": "prom",
           "junit": "xml"}
# Numbers that have broken readers before: overflow in size * count, wrap to 0 or negative, non-finite values,
# exit codes no one defines, and a number far too long to echo whole.
HOSTILE_NUMBERS = ["1e308", "1.7976931348623157e308", "-1e308", "1e999", "-1e999", "9223372036854775808",
                   "18446744073709551616", "-9223372036854775809", "4294967297", "2147483648", "-2147483649", "-1",
                   "0", "-0", "NaN", "nan", "inf", "-Infinity", "Infinity", "1e-320", "139", "256", "1099511627776",
                   "0.5", "2.5", "9" * 20000]
DEPTHS = [64, 1000, 20000, 60000]
NUMBER = re.compile(rb"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?")


def load_seeds(src):
    """(kind, name, bytes) for every input the project ships: kind is 'json' for JSON, 'text' otherwise."""
    seeds = []
    places = [("tests/golden/documents", None), ("tests/fixtures/nccl-tests", None), ("examples", ".toml")]
    for folder, only in places:
        root = os.path.join(src, folder)
        for name in sorted(os.listdir(root)):
            path = os.path.join(root, name)
            if not os.path.isfile(path) or name == "README.md" or (only and not name.endswith(only)):
                continue
            data = open(path, "rb").read()
            seeds.append(("json" if name.endswith(".json") else "text", name, data))
    if not seeds:
        sys.exit(f"mutation_readers: no inputs found under {src}")
    return seeds


# ---- mutations: each takes (rng, data) and returns new bytes ---------------------------------------------------
def m_flip(rng, data):
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if not b:
            break
        i = rng.randrange(len(b))
        b[i] = rng.randrange(256) if rng.random() < 0.5 else b[i] ^ (1 << rng.randrange(8))
    return bytes(b)


def m_truncate(rng, data):
    return data[:rng.randrange(len(data) + 1)]


def _lines(data):
    return data.splitlines(keepends=True)


def m_dup_line(rng, data):
    lines = _lines(data)
    if not lines:
        return data
    i = rng.randrange(len(lines))
    return b"".join(lines[:i + 1] + [lines[i]] * rng.choice([1, 2, 50]) + lines[i + 1:])


def m_del_line(rng, data):
    lines = _lines(data)
    if not lines:
        return data
    del lines[rng.randrange(len(lines))]
    return b"".join(lines)


def m_swap_lines(rng, data):
    lines = _lines(data)
    if len(lines) < 2:
        return data
    i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"".join(lines)


def m_number(rng, data):
    spots = [m.span() for m in NUMBER.finditer(data)]
    if not spots:
        return data
    for _ in range(rng.choice([1, 1, 3])):
        a, z = rng.choice(spots)
        data = data[:a] + rng.choice(HOSTILE_NUMBERS).encode() + data[z:]
        spots = [m.span() for m in NUMBER.finditer(data)]
    return data


def _json_slots(doc):
    """Every (container, key) in a parsed JSON value, so one can be replaced or removed."""
    slots, stack = [], [doc]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else []
        for k, v in items:
            slots.append((node, k))
            stack.append(v)
    return slots


def _json_edit(rng, data, edit):
    try:
        doc = json.loads(data)
    except ValueError:
        return m_flip(rng, data)  # a text input: the JSON mutations do not apply
    slots = _json_slots(doc)
    if not slots:
        return m_flip(rng, data)
    node, key = rng.choice(slots)
    return edit(rng, doc, node, key)


def m_wrong_type(rng, data):
    def edit(rng, doc, node, key):
        node[key] = rng.choice(["", "x" * 100, "12", 0, -1, 1.5, True, False, None, [], {}, [1, 2], {"a": 1}])
        return json.dumps(doc).encode()
    return _json_edit(rng, data, edit)


def m_del_key(rng, data):
    def edit(rng, doc, node, key):
        del node[key]
        return json.dumps(doc).encode()
    return _json_edit(rng, data, edit)


def m_deep_nest(rng, data):
    def edit(rng, doc, node, key):
        depth = rng.choice(DEPTHS)
        mark = "\u0001nest\u0001"
        inner = json.dumps(node[key])
        node[key] = mark
        opener, closer = ("[", "]") if rng.random() < 0.5 else ('{"a":', "}")
        return json.dumps(doc).replace(json.dumps(mark), opener * depth + inner + closer * depth).encode()
    return _json_edit(rng, data, edit)


def m_splice(rng, data, seeds):
    other = _lines(rng.choice(seeds)[2])
    lines = _lines(data)
    if not other:
        return data
    at = rng.randrange(len(lines) + 1)
    return b"".join(lines[:at] + rng.sample(other, min(len(other), rng.randint(1, 5))) + lines[at:])


MUTATIONS = {"flip": m_flip, "truncate": m_truncate, "dup_line": m_dup_line, "del_line": m_del_line,
             "swap_lines": m_swap_lines, "number": m_number, "wrong_type": m_wrong_type, "del_key": m_del_key,
             "deep_nest": m_deep_nest, "splice": None}


# ---- one case -------------------------------------------------------------------------------------------------
def readable_seeds(binary, seeds):
    """The seeds `preflight report` reads as they are: compare's partner for a mutated file is one of these, so an
    error can only be about the mutated one. Depends on the binary, not on the seed of the run."""
    good = {}
    with tempfile.TemporaryDirectory(prefix="pf-mutation-seeds.") as tmp:
        for kind, name, data in seeds:
            path = os.path.join(tmp, name)
            with open(path, "wb") as f:
                f.write(data)
            p = subprocess.run([binary, "report", path, "--format", "json"], capture_output=True,
                               stdin=subprocess.DEVNULL, timeout=60)
            if p.returncode in (0, 1, 3, 4):
                good[name] = data
    if not good:
        sys.exit("mutation_readers: `preflight report` reads none of the seed files as they are")
    return good


def make_case(index, seed, seeds, readable):
    """The case `index` of run `seed`: the same every time, whatever ran before it or beside it."""
    rng = random.Random(seed * 1_000_003 + index)
    kind, name, data = rng.choice(seeds)
    mutation = rng.choice(list(MUTATIONS))
    if kind == "text" and mutation in ("wrong_type", "del_key", "deep_nest"):
        mutation = rng.choice(["number", "flip", "dup_line", "del_line"])
    fn = MUTATIONS[mutation]
    mutated = m_splice(rng, data, seeds) if fn is None else fn(rng, data)
    if rng.random() < 0.15:  # a second mutation on top of the first
        mutated = rng.choice([m_flip, m_number, m_del_line])(rng, mutated)
    reader = rng.choice(["report"] * 5 + ["compare"] * 3 + ["doctor"] * 2)
    fmt = rng.choice(list(FORMATS))
    ext = os.path.splitext(name)[1] or ".txt"
    return {"index": index, "seed_name": name, "mutation": mutation, "reader": reader, "format": fmt,
            "ext": ext, "input": mutated, "swap": rng.random() < 0.5,
            "partner": (name, data) if name in readable else sorted(readable.items())[rng.randrange(len(readable))]}


def limit_child(asan):
    def apply():
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if not asan:  # a reader that grows without bound dies here (bad_alloc) instead of taking the machine
            resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
    return apply


def run_case(case, binary, work, per_case_timeout, asan):
    folder = os.path.join(work, f"case-{case['index']}")
    outdir = os.path.join(folder, "out")
    os.makedirs(outdir)
    path = os.path.join(folder, f"mut-{case['index']}{case['ext']}")
    with open(path, "wb") as f:
        f.write(case["input"])
    out = os.path.join(outdir, "result." + FORMATS[case["format"]])
    if case["reader"] == "report":
        args = ["report", path, "--format", case["format"], "--output", out]
        label = f"report --format {case['format']}"
    elif case["reader"] == "compare":
        other = os.path.join(folder, "pristine-" + case["partner"][0])
        with open(other, "wb") as f:
            f.write(case["partner"][1])
        pair = [other, path] if case["swap"] else [path, other]
        args = ["compare", *pair, "--output", out]
        label = "compare"
    else:
        args = ["doctor", path, "--output", out]
        label = "doctor"
    started = time.monotonic()
    try:
        p = subprocess.run([binary, *args], stdin=subprocess.DEVNULL, capture_output=True, cwd=folder,
                           timeout=per_case_timeout, preexec_fn=limit_child(asan))
        rc, err = p.returncode, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        rc, err = None, (e.stderr or b"").decode(errors="replace")
    took = time.monotonic() - started
    problem = judge(rc, err, os.path.basename(path), outdir, per_case_timeout)
    result = {"label": label, "rc": rc, "problem": problem, "took": took, "path": path, "args": args,
              "stderr": err[-600:]}
    return result, folder


def judge(rc, err, name, outdir, per_case_timeout):
    """The class of failure this end shows, or None when the reader behaved."""
    if rc is None:
        return f"hang (no end within {per_case_timeout} s)"
    if rc < 0:
        return f"signal {-rc} ({signal_name(-rc)})"
    if rc > 4:
        return f"exit {rc} (outside 0-4)"
    if rc == 2:
        left = os.listdir(outdir)
        if left:
            return "output left after exit 2"
        if name not in err:
            return "exit 2 message does not name the input"
    return None


def signal_name(n):
    import signal
    try:
        return signal.Signals(n).name
    except ValueError:
        return "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True, help="the preflight binary")
    ap.add_argument("--src", default=os.path.join(os.path.dirname(__file__), "..", ".."), help="the source tree")
    ap.add_argument("--cases", type=int, default=2000, help="how many cases to run")
    ap.add_argument("--min-cases", type=int, default=None, help="fail when fewer ran in --budget (default --cases)")
    ap.add_argument("--seed", type=int, default=48, help="the run's seed: the same seed makes the same cases")
    ap.add_argument("--first", type=int, default=0, help="the first case index (to rerun one case: --cases 1)")
    ap.add_argument("--budget", type=float, default=120, help="stop starting cases after this many seconds")
    ap.add_argument("--timeout", type=float, default=15, help="a case running longer than this is a hang")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--keep", default=None, help="save each failing input here (default: a new temporary folder)")
    a = ap.parse_args()
    a.bin = os.path.abspath(a.bin)
    min_cases = a.cases if a.min_cases is None else a.min_cases
    seeds = load_seeds(a.src)
    readable = readable_seeds(a.bin, seeds)
    asan = b"libasan" in subprocess.run(["ldd", a.bin], capture_output=True).stdout
    work = tempfile.mkdtemp(prefix="pf-mutation.")
    keep = a.keep
    classes = {}  # (problem, reader, mutation) -> [count, first example]
    ran, slowest, deadline = 0, (0.0, ""), time.monotonic() + a.budget
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            pending = set()
            indices = iter(range(a.first, a.first + a.cases))
            while True:
                while len(pending) < 2 * a.jobs and time.monotonic() < deadline:
                    i = next(indices, None)
                    if i is None:
                        break
                    case = make_case(i, a.seed, seeds, readable)
                    fut = pool.submit(run_case, case, a.bin, work, a.timeout, asan)
                    fut.case = case
                    pending.add(fut)
                if not pending:
                    break
                done, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
                for fut in done:
                    case = fut.case
                    result, folder = fut.result()
                    ran += 1
                    if result["took"] > slowest[0]:
                        slowest = (result["took"], f"case {case['index']} ({result['label']})")
                    if result["problem"]:
                        key = (result["problem"], result["label"].split(" --")[0], case["mutation"])
                        entry = classes.setdefault(key, [0, None])
                        entry[0] += 1
                        if entry[1] is None:
                            keep = keep or tempfile.mkdtemp(prefix="pf-mutation-failures.")
                            os.makedirs(keep, exist_ok=True)
                            saved = os.path.join(keep, os.path.basename(result["path"]))
                            shutil.copy(result["path"], saved)
                            entry[1] = (case, result, saved)
                    shutil.rmtree(folder, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    report(classes, ran, slowest, a, keep)
    if ran < min_cases:
        print(f"FAIL: only {ran} cases ran within the {a.budget:g} s budget, {min_cases} required")
        return 1
    return 1 if classes else 0


def report(classes, ran, slowest, a, keep):
    failed = sum(c for c, _ in classes.values())
    print(f"mutation_readers: {ran} cases (seed {a.seed}, first {a.first}), {failed} failed in {len(classes)} "
          f"classes; slowest {slowest[0]:.2f} s: {slowest[1]}")
    for (problem, reader, mutation), (count, (case, result, saved)) in sorted(classes.items(),
                                                                             key=lambda kv: -kv[1][0]):
        print(f"FAIL: {problem}: {reader}, mutation {mutation}: {count} cases; e.g. case {case['index']} "
              f"(seed file {case['seed_name']}), input saved as {saved}")
        print(f"      rerun: {a.bin} {' '.join(result['args']).replace(result['path'], saved)}")
        print(f"      or: {sys.argv[0]} --bin {a.bin} --seed {a.seed} --first {case['index']} --cases 1")
        tail = result["stderr"].strip().splitlines()[-2:]
        for line in tail:
            print(f"      stderr: {line[:300]}")
    if classes:
        print(f"failing inputs: {keep}")


if __name__ == "__main__":
    sys.exit(main())
