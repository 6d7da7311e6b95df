#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# How often `preflight doctor` names the right cause on the corpus of real failures
# (tests/fixtures/doctor-corpus/, split by source thread into a development and a validation part).
# Each case's log excerpt is written to a file and `preflight doctor FILE --json -` is run on it as its own
# process, as a user runs it; the diagnoses come back ranked, and the case counts as right first when the first
# diagnosis has the case's category, and right in the top two when one of the first two has it.
# Usage: bench/doctor_accuracy.py [--preflight build/bin/preflight] [--rules DIR] [--misses]
#          [--require PART=FIRST/TOP2 ...] [PART.jsonl...]
# --require makes it a gate (ctest doctor.accuracy): exit 1 when a part gets fewer cases right first or in the top
# two than the figures recorded in docs/doctor.md, so a rule change that loses accuracy fails.
import argparse, collections, json, os, subprocess, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
corpus = os.path.join(here, "..", "tests", "fixtures", "doctor-corpus")
ap = argparse.ArgumentParser(description=__doc__)
ap.add_argument("--preflight", default=os.path.join(here, "..", "build", "bin", "preflight"))
ap.add_argument("--rules", help="a rules directory to pass to `preflight doctor --rules` (try rule edits without rebuilding)")
ap.add_argument("--misses", action="store_true", help="list every case not right first")
ap.add_argument("--require", action="append", default=[], metavar="PART=FIRST/TOP2",
                help="least cases right first / in the top two for PART (a file name such as validation.jsonl)")
ap.add_argument("parts", nargs="*", default=[os.path.join(corpus, p) for p in ("development.jsonl", "validation.jsonl")])
args = ap.parse_args()
required = {}
for r in args.require:
    try:
        name, figures = r.split("=")
        required[name] = tuple(int(x) for x in figures.split("/"))
        assert len(required[name]) == 2
    except (ValueError, AssertionError):
        sys.exit(f"doctor_accuracy: --require '{r}': expected PART=FIRST/TOP2, e.g. validation.jsonl=27/30")
failed = []


def diagnose(log):
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
        f.write(log + "\n")
    try:
        cmd = [args.preflight, "doctor", f.name, "--json", "-"] + (["--rules", args.rules] if args.rules else [])
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    finally:
        os.unlink(f.name)
    if p.returncode not in (0, 1):
        return None, p.stderr.strip()
    doc = json.loads(p.stdout)
    cats = [r["params"]["category"] for r in doc["results"] if r.get("kind") == "diagnosis"]
    return cats, ""


for part in args.parts:
    cases = [json.loads(l) for l in open(part) if l.strip()]
    first = top2 = none = 0
    per = collections.defaultdict(lambda: [0, 0])
    misses = []
    for c in cases:
        cats, err = diagnose(c["log_excerpt"])
        if cats is None:
            misses.append((c["id"], c["category"], "ERROR " + err))
            continue
        ok1 = bool(cats) and cats[0] == c["category"]
        ok2 = c["category"] in cats[:2]
        first += ok1
        top2 += ok2
        none += not cats
        per[c["category"]][0] += ok1
        per[c["category"]][1] += 1
        if not ok1:
            misses.append((c["id"], c["category"], ",".join(cats[:3]) or "no diagnosis"))
    n = len(cases)
    print(f"{os.path.basename(part)}: {n} cases; right first {first} ({100 * first / n:.0f}%), "
          f"in the top two {top2} ({100 * top2 / n:.0f}%), no diagnosis {none}")
    print("  per category (right first / cases): " +
          ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(per.items())))
    if args.misses:
        for m in misses:
            print(f"  miss {m[0]}: expected {m[1]}, got {m[2]}")
    need = required.pop(os.path.basename(part), None)
    if need and (first < need[0] or top2 < need[1]):
        failed.append(f"{os.path.basename(part)}: {first}/{top2} right first/top two, below the recorded {need[0]}/{need[1]}")
for name in required:
    failed.append(f"{name}: required but not among the parts read")
for f in failed:
    print("FAIL: " + f)
sys.exit(1 if failed else 0)
