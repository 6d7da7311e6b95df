#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Splits new real-failure cases into the doctor corpus's two parts the way every batch was split
# (tests/fixtures/doctor-corpus/README.md): the first byte of SHA-256 of the lower-cased thread URL, even to
# development, odd to validation, hashed as stored (an #anchor included); a pull request is hashed in its /issues/N
# form (GitHub redirects it to /pull/N).
# A case whose thread (its page, any #anchor dropped) is already in the corpus, among the 30 old development cases,
# or cited by a rule's `links` is skipped and named: a thread a rule was written from, or already split, is not unseen.
# Usage: bench/doctor_corpus_split.py NEW.jsonl...            which part each new case goes to (nothing written)
#        bench/doctor_corpus_split.py --append NEW.jsonl...   and append them to development.jsonl / validation.jsonl
#        bench/doctor_corpus_split.py --check                 every corpus case is in the part its thread hashes to
# Exit codes: 0 done; 1 --check found a case in the wrong part; 2 a malformed input (the message names the file, line
# and field), nothing written.
import argparse, glob, hashlib, json, os, re, sys, tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.join(here, "..")
corpus = os.path.join(root, "tests", "fixtures", "doctor-corpus")
old_cases = os.path.join(root, "tests", "unit", "doctor", "data", "error_cases_dev.jsonl")
PARTS = ("development", "validation")
FIELDS = ("id", "log_excerpt", "category", "root_cause", "fix", "thread", "status")
# The Horovod troubleshooting page was hashed in a form the README says was not recorded; its sections are all in
# validation (one page is one source).
KNOWN_EXCEPTIONS = {"https://github.com/horovod/horovod/blob/master/docs/troubleshooting.rst"}


def hashed_form(url):
    u = url.strip().lower()
    return re.sub(r"^(https://github\.com/[^/]+/[^/]+)/pull/(\d+)(?:[/?#].*)?$", r"\1/issues/\2", u)


def part_of(url):
    return PARTS[hashlib.sha256(hashed_form(url).encode()).digest()[0] % 2]


def page(url):
    # One page is one source whatever its anchor; a pull request and its issue form are one thread.
    return hashed_form(url).split("#")[0].rstrip("/")


def thread_of(case):
    # As doctor_accuracy.py and doctor/report_memory.cpp read it: `thread`, else the first URL in `source`.
    if case.get("thread"):
        return case["thread"]
    src = case.get("source", "")
    return src[src.find("https://"):].split()[0] if "https://" in src else case["id"]


def fail(msg):
    print(f"doctor_corpus_split: {msg}", file=sys.stderr)
    sys.exit(2)


def read_cases(path):
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        fail(f"{path}: {e.strerror}")
    cases = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            cases.append((n, json.loads(line)))
        except json.JSONDecodeError as e:
            fail(f"{path}:{n}: not JSON ({e.msg}); each line is one case")
    return cases


def categories():
    cats = set()
    for f in glob.glob(os.path.join(root, "doctor", "rules", "*.json")):
        cats.add(json.load(open(f, encoding="utf-8"))["category"])
    return cats


def rule_links():
    links = set()
    for f in glob.glob(os.path.join(root, "doctor", "rules", "*.json")):
        for r in json.load(open(f, encoding="utf-8"))["rules"]:
            links.update(page(l) for l in r.get("links", []))
    return links


def check():
    wrong = []
    for p in PARTS:
        for n, c in read_cases(os.path.join(corpus, p + ".jsonl")):
            t = thread_of(c)
            if part_of(t) != p and page(t) not in KNOWN_EXCEPTIONS:
                wrong.append(f"{p}.jsonl:{n} {c['id']}: its thread {t} hashes to {part_of(t)}")
    for w in wrong:
        print(w)
    print(f"doctor_corpus_split --check: {len(wrong)} case(s) in the wrong part")
    return 1 if wrong else 0


def split(paths, append):
    known = {}
    for p in PARTS:
        for _, c in read_cases(os.path.join(corpus, p + ".jsonl")):
            known[page(thread_of(c))] = f"already in {p}.jsonl ({c['id']})"
    for _, c in read_cases(old_cases):
        known[page(thread_of(c))] = f"already among the old development cases ({c['id']})"
    ids = {c["id"] for p in PARTS for _, c in read_cases(os.path.join(corpus, p + ".jsonl"))}
    links, cats = rule_links(), categories()
    out = {p: [] for p in PARTS}
    for path in paths:
        for n, c in read_cases(path):
            missing = [f for f in FIELDS if not isinstance(c.get(f), str) or not c[f].strip()]
            if missing:
                fail(f"{path}:{n}: field(s) {', '.join(missing)} missing or empty (each case needs {', '.join(FIELDS)})")
            if c["category"] not in cats:
                fail(f"{path}:{n}: category '{c['category']}' is none of the rules' ({', '.join(sorted(cats))})")
            if not c["thread"].startswith("https://"):
                fail(f"{path}:{n}: thread '{c['thread']}' is not an https:// URL")
            if c["id"] in ids:
                fail(f"{path}:{n}: id '{c['id']}' is already used; give the case a new id")
            t = page(c["thread"])
            if t in known:
                print(f"skip {c['id']}: its thread is {known[t]}")
                continue
            if t in links:
                print(f"skip {c['id']}: a rule's links cite its thread")
                continue
            ids.add(c["id"])
            known[t] = f"earlier in this batch ({c['id']})"
            p = part_of(c["thread"])
            out[p].append(c)
            print(f"{c['id']} -> {p}")
    print(f"{len(out['development'])} to development, {len(out['validation'])} to validation")
    if append:
        for p, cases in out.items():
            if not cases:
                continue
            target = os.path.join(corpus, p + ".jsonl")
            text = open(target, encoding="utf-8").read()
            if text and not text.endswith("\n"):
                text += "\n"
            text += "".join(json.dumps(c, ensure_ascii=False) + "\n" for c in cases)
            # Written beside the part and renamed over it: an interrupted run leaves the part as it was.
            fd, tmp = tempfile.mkstemp(dir=corpus, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, target)
    return 0


ap = argparse.ArgumentParser(description="Split new doctor corpus cases by the hash of their thread")
ap.add_argument("--append", action="store_true", help="append the new cases to their parts")
ap.add_argument("--check", action="store_true", help="check that every corpus case is in its thread's part")
ap.add_argument("new", nargs="*", help="JSON Lines files of new cases (the corpus's fields)")
args = ap.parse_args()
if args.check == bool(args.new):
    fail("give either --check or the new cases' JSON Lines files")
sys.exit(check() if args.check else split(args.new, args.append))
