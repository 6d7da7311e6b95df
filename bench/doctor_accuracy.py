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
# Every case is run with `--forget THREAD` (its own thread): the doctor's memory of reported failures holds the
# development part, and a case must not be compared with itself; on the validation part it changes nothing.
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


def thread_of(case):
    # As doctor/report_memory.cpp reads it: `thread`, else the first URL in `source`.
    if case.get("thread"):
        return case["thread"]
    src = case.get("source", "")
    return src[src.find("https://"):].split()[0] if "https://" in src else case["id"]


def diagnose(log, thread):
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
        f.write(log + "\n")
    try:
        cmd = [args.preflight, "doctor", f.name, "--json", "-", "--forget", thread]
        cmd += ["--rules", args.rules] if args.rules else []
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    finally:
        os.unlink(f.name)
    if p.returncode not in (0, 1):
        return None, "ERROR " + p.stderr.strip()
    doc = json.loads(p.stdout)
    diags = [r["params"] for r in doc["results"] if r.get("kind") == "diagnosis"]
    # The rules' answer alone: the memory's diagnoses (`<category>.similar-reports`) only ever follow the rules'.
    rules_only = [d["category"] for d in diags if not d["rule_id"].endswith(".similar-reports")]
    return [d["category"] for d in diags], rules_only


for part in args.parts:
    cases = [json.loads(l) for l in open(part) if l.strip()]
    first = top2 = none = rules_first = rules_top2 = errors = 0
    per = collections.defaultdict(lambda: [0, 0])
    misses = []
    for c in cases:
        cats, rules_only = diagnose(c["log_excerpt"], thread_of(c))
        if cats is None:  # the doctor refused the input: a miss, and counted so that it cannot pass unseen
            errors += 1
            misses.append((c["id"], c["category"], rules_only))
            continue
        ok1 = bool(cats) and cats[0] == c["category"]
        ok2 = c["category"] in cats[:2]
        first += ok1
        top2 += ok2
        none += not cats
        rules_first += bool(rules_only) and rules_only[0] == c["category"]
        rules_top2 += c["category"] in rules_only[:2]
        per[c["category"]][0] += ok1
        per[c["category"]][1] += 1
        if not ok1:
            misses.append((c["id"], c["category"], ",".join(cats[:3]) or "no diagnosis"))
    n = len(cases)
    print(f"{os.path.basename(part)}: {n} cases; right first {first} ({100 * first / n:.0f}%), "
          f"in the top two {top2} ({100 * top2 / n:.0f}%), no diagnosis {none}"
          + (f", refused by the doctor {errors} (--misses names them)" if errors else ""))
    print(f"  the rules alone (without the memory's similar-reports answers): right first {rules_first}, "
          f"in the top two {rules_top2}")
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
