#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# How often `preflight doctor` names the right cause on the corpus of real failures
# (tests/fixtures/doctor-corpus/, split by source thread into a development and a validation part).
# Each case's log excerpt is written to a file and `preflight doctor FILE --json -` is run on it as its own
# process, as a user runs it; the diagnoses come back ranked, and the case counts as right first when the first
# diagnosis has the case's category, and right in the top two when one of the first two has it.
# Usage: bench/doctor_accuracy.py [--preflight build/bin/preflight] [--rules DIR] [--misses] [--memory]
#          [--memory-alone] [--require PART=FIRST/TOP2 ...] [PART.jsonl...]
# --require makes it a gate (ctest doctor.accuracy): exit 1 when a part gets fewer cases right first or in the top
# two than the figures recorded in docs/doctor.md, so a rule change that loses accuracy fails.
# Every case is run with `--forget THREAD` (its own thread): the doctor's memory of reported failures holds the
# development part, and a case must not be compared with itself; on the validation part it changes nothing.
# --memory-alone measures that memory without the rules (below). Where excerpt_labels.jsonl lies beside a part, the
# figures are also given per label (names / hints / silent: how much the excerpt alone says; the corpus README).
import argparse, collections, glob, json, os, shutil, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor

here = os.path.dirname(os.path.abspath(__file__))
corpus = os.path.join(here, "..", "tests", "fixtures", "doctor-corpus")
ap = argparse.ArgumentParser(description=__doc__)
ap.add_argument("--preflight", default=os.path.join(here, "..", "build", "bin", "preflight"))
ap.add_argument("--rules", help="a rules directory to pass to `preflight doctor --rules` (try rule edits without rebuilding)")
ap.add_argument("--misses", action="store_true", help="list every case not right first")
ap.add_argument("--memory", action="store_true",
                help="also say how the memory of reported failures did on the cases it answered")
ap.add_argument("--memory-alone", action="store_true",
                help="the memory of reported failures alone: the rules left out, but for the failure signs it needs")
ap.add_argument("--require", action="append", default=[], metavar="PART=FIRST/TOP2",
                help="least cases right first / in the top two for PART (a file name such as validation.jsonl)")
ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                help="cases run at once, each its own `preflight doctor` process (default: the CPUs)")
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


def memory_alone_rules():
    # The memory alone, leave-one-thread-out: a rules directory whose rules can never fire (each one's groups become
    # one literal no log holds). The memory's gate still reads what it reads with the real rules: the failure signs
    # (the last group of each weak-evidence rule, kept) and whether a rule's pattern matched a line (each rule's
    # patterns moved to its `unless`, which the scanner still matches). The rules' messages are then out of the
    # memory: they were written from the development cases, and --forget cannot take a case's own rule away.
    never = "@" * 16  # no words: the rule's remembered message is empty
    out = tempfile.mkdtemp(prefix="doctor-memory-alone-")
    for path in glob.glob(os.path.join(here, "..", "doctor", "rules", "*.json")):
        doc = json.load(open(path))
        for r in doc["rules"]:
            weak = r["id"] == doc["category"] + ".weak-evidence"
            patterns = [p for g in r["match"] for p in g if not (isinstance(p, dict) and "fact" in p)]
            r["unless"] = [] if weak else patterns
            r["match"] = [[never], r["match"][-1]] if weak else [[never]]
        json.dump(doc, open(os.path.join(out, os.path.basename(path)), "w"))
    return out


if args.memory_alone:
    if args.rules:
        sys.exit("doctor_accuracy: --memory-alone and --rules exclude each other")
    args.rules = memory_alone_rules()


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
        return None, "ERROR " + p.stderr.strip(), []
    doc = json.loads(p.stdout)
    diags = [r["params"] for r in doc["results"] if r.get("kind") == "diagnosis"]
    # The rules' answer alone: the memory's diagnoses (`<category>.similar-reports`) only ever follow the rules'.
    rules_only = [d["category"] for d in diags if not d["rule_id"].endswith(".similar-reports")]
    memory = [d["category"] for d in diags if d["rule_id"].endswith(".similar-reports")]
    return [d["category"] for d in diags], rules_only, memory


def excerpt_labels(part):
    # How much each case's excerpt alone says about its category (excerpt_labels.jsonl beside the part, labelled
    # blind to the doctor: the corpus README): the figures per label say how far the doctor is from what an expert
    # reading the same excerpt could name.
    path = os.path.join(os.path.dirname(os.path.abspath(part)), "excerpt_labels.jsonl")
    if not os.path.exists(path):
        return {}
    return {d["id"]: d["label"] for d in (json.loads(l) for l in open(path) if l.strip())}


for part in args.parts:
    cases = [json.loads(l) for l in open(part) if l.strip()]
    labels = excerpt_labels(part)
    by_label = collections.defaultdict(lambda: [0, 0, 0])  # right first, in the top two, cases
    first = top2 = none = rules_first = rules_top2 = errors = 0
    # The memory's answers (it only adds categories the rules did not name), on the cases where it gave one: how
    # often it added the right category, and how often it came first (no rule answered) and was right.
    mem_answered = mem_right = mem_led = mem_led_right = 0
    per = collections.defaultdict(lambda: [0, 0])
    misses = []
    # Each case is its own process (as a user runs the doctor); they run side by side, the results in corpus order.
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(lambda c: diagnose(c["log_excerpt"], thread_of(c)), cases))
    for c, (cats, rules_only, memory) in zip(cases, results):
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
        if memory:
            mem_answered += 1
            mem_right += c["category"] in memory
            mem_led += not rules_only
            mem_led_right += not rules_only and memory[0] == c["category"]
        per[c["category"]][0] += ok1
        per[c["category"]][1] += 1
        if c["id"] in labels:
            by_label[labels[c["id"]]][0] += ok1
            by_label[labels[c["id"]]][1] += ok2
            by_label[labels[c["id"]]][2] += 1
        if not ok1:
            misses.append((c["id"], c["category"], ",".join(cats[:3]) or "no diagnosis"))
    n = len(cases)
    print(f"{os.path.basename(part)}: {n} cases; right first {first} ({100 * first / n:.0f}%), "
          f"in the top two {top2} ({100 * top2 / n:.0f}%), no diagnosis {none}"
          + (f", refused by the doctor {errors} (--misses names them)" if errors else ""))
    print(f"  the rules alone (without the memory's similar-reports answers): right first {rules_first}, "
          f"in the top two {rules_top2}")
    if args.memory:
        print(f"  the memory answered {mem_answered} cases, the right category among its answers on {mem_right}; "
              f"it answered first (no rule did) on {mem_led}, right on {mem_led_right}")
    print("  per category (right first / cases): " +
          ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(per.items())))
    if by_label:
        order = [k for k in ("names", "hints", "silent") if k in by_label]
        print("  by what the excerpt alone says (excerpt_labels.jsonl; right first / top two / cases): " +
              ", ".join(f"{k} {by_label[k][0]}/{by_label[k][1]}/{by_label[k][2]}" for k in order))
    if args.misses:
        for m in misses:
            print(f"  miss {m[0]}: expected {m[1]}, got {m[2]}")
    need = required.pop(os.path.basename(part), None)
    if need and (first < need[0] or top2 < need[1]):
        failed.append(f"{os.path.basename(part)}: {first}/{top2} right first/top two, below the recorded {need[0]}/{need[1]}")
if args.memory_alone:
    shutil.rmtree(args.rules)
for name in required:
    failed.append(f"{name}: required but not among the parts read")
for f in failed:
    print("FAIL: " + f)
sys.exit(1 if failed else 0)
